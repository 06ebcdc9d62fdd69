//===--- Region.h - Which part of a storage an operand touches ---*- C++
//-*-===//
//
// A view made with constant arguments along one dimension touches only
// part of its storage: `out.select(0, 1)` one row, `out.narrow(0, 2, 3)`
// rows 2 to 4, `out.chunk(4)[1]` the second of four equal pieces,
// `pad[:, :, 1:h + 1]` rows 1 to h of the third dimension, all of the
// others. A bound may be a name's value plus a constant (`h + 1`), when the
// name holds one value while the function runs: two bounds of one name
// compare. Two accesses conflict only when their regions may overlap, and
// a write replaces, as what later accesses wait for, only the accesses to
// parts it certainly covers (an unknown part covers none).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_IR_REGION_H
#define STREAMSAFE_LIB_IR_REGION_H

#include <cstdint>

namespace streamsafe {

struct Region {
  enum Kind : uint8_t {
    Whole, ///< all of the storage, through a name for all of it
    Some,  ///< an unknown part (a view not along the first dimension, a
           ///< name that may denote a view): it may overlap anything,
           ///< and is not known to cover any other part
    Rows,  ///< rows [Lo, Hi) of dimension Dim, all of the others
    Piece  ///< piece Lo of Hi equal pieces of the first dimension (chunk)
  } K = Whole;
  int64_t Lo = 0, Hi = 0;
  /// For Rows: the dimension (0: the first).
  uint8_t Dim = 0;
  /// For Rows: a bound that is a name's value plus Lo (Hi): the symbol the
  /// front end gave the name (0: the bound is the constant alone).
  uint32_t LoSym = 0, HiSym = 0;

  static Region whole() { return {}; }
  static Region some() { return {Some, 0, 0}; }
  static Region rows(int64_t Lo, int64_t Hi) { return {Rows, Lo, Hi}; }
  /// Rows [LoSym + Lo, HiSym + Hi) of dimension \p Dim.
  static Region rowsOf(uint8_t Dim, uint32_t LoSym, int64_t Lo, uint32_t HiSym,
                       int64_t Hi) {
    return {Rows, Lo, Hi, Dim, LoSym, HiSym};
  }
  static Region piece(int64_t Index, int64_t Count) {
    return {Piece, Index, Count};
  }

  /// False only when the two regions certainly share no element. Rows and
  /// pieces, and rows of two dimensions, are not compared with each other:
  /// the size of the dimension is not known.
  bool mayOverlap(const Region &O) const {
    if (K == Whole || K == Some || K != O.K)
      return true;
    if (K == Piece)
      return Hi != O.Hi || Lo == O.Lo;
    if (Dim != O.Dim)
      return true;
    return !atMost(HiSym, Hi, O.LoSym, O.Lo) &&
           !atMost(O.HiSym, O.Hi, LoSym, Lo);
  }
  /// True when every element of \p O is certainly in this region (an
  /// unknown part contains nothing for certain).
  bool contains(const Region &O) const {
    if (K == Whole)
      return true;
    if (K == Some)
      return false;
    if (K != O.K)
      return false;
    if (K == Piece)
      return Lo == O.Lo && Hi == O.Hi;
    return Dim == O.Dim && atMost(LoSym, Lo, O.LoSym, O.Lo) &&
           atMost(O.HiSym, O.Hi, HiSym, Hi);
  }
  bool operator==(const Region &O) const {
    return K == O.K && ((K != Rows && K != Piece) ||
                        (Lo == O.Lo && Hi == O.Hi && Dim == O.Dim &&
                         LoSym == O.LoSym && HiSym == O.HiSym));
  }
  bool operator!=(const Region &O) const { return !(*this == O); }

private:
  /// Whether the bound A + a is certainly at most B + b: the same name (or
  /// none) on both sides, or a constant against a name plus at least as
  /// much. A name a bound is made of is a size or a count, never negative
  /// (a negative one would count from the end, which the front ends take
  /// only for a constant).
  static bool atMost(uint32_t A, int64_t a, uint32_t B, int64_t b) {
    return (A == B || A == 0) && a <= b;
  }
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_REGION_H
