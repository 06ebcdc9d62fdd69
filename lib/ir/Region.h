//===--- Region.h - Which part of a storage an operand touches ---*- C++
//-*-===//
//
// A view made with constant arguments along the first dimension touches
// only part of its storage: `out.select(0, 1)` one row, `out.narrow(0, 2,
// 3)` rows 2 to 4, `out.chunk(4)[1]` the second of four equal pieces. Two
// accesses conflict only when their regions may overlap. Whatever is not
// constant, or not along the first dimension of the storage itself, is the
// whole storage (precision first: regions only ever remove conflicts that
// cannot happen).
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
           ///< name that may denote a view): treated as all of it
    Rows,  ///< rows [Lo, Hi) of the first dimension
    Piece  ///< piece Lo of Hi equal pieces of the first dimension (chunk)
  } K = Whole;
  int64_t Lo = 0, Hi = 0;

  static Region whole() { return {}; }
  static Region some() { return {Some, 0, 0}; }
  static Region rows(int64_t Lo, int64_t Hi) { return {Rows, Lo, Hi}; }
  static Region piece(int64_t Index, int64_t Count) {
    return {Piece, Index, Count};
  }

  /// False only when the two regions certainly share no element. Rows and
  /// pieces are not compared with each other: the size of the dimension is
  /// not known.
  bool mayOverlap(const Region &O) const {
    if (K == Whole || K == Some || K != O.K)
      return true;
    if (K == Piece)
      return Hi != O.Hi || Lo == O.Lo;
    return Lo < O.Hi && O.Lo < Hi;
  }
  /// True when every element of \p O is in this region.
  bool contains(const Region &O) const {
    if (K == Whole || K == Some)
      return true;
    if (K != O.K)
      return false;
    if (K == Piece)
      return Lo == O.Lo && Hi == O.Hi;
    return Lo <= O.Lo && O.Hi <= Hi;
  }
  bool operator==(const Region &O) const {
    return K == O.K &&
           ((K != Rows && K != Piece) || (Lo == O.Lo && Hi == O.Hi));
  }
  bool operator!=(const Region &O) const { return !(*this == O); }
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_REGION_H
