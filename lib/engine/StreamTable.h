//===--- StreamTable.h - Streams as symbols ---------------------*- C++ -*-===//
//
// The analysis never knows a stream's run-time identity. It names each stream
// by where it came from (the default stream, the caller's current stream, one
// getStreamFromPool() call, a parameter) and reports a race only when two
// symbols are known to be different streams.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_STREAMTABLE_H
#define STREAMSAFE_LIB_ENGINE_STREAMTABLE_H

#include "lib/ir/Findings.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <vector>

namespace streamsafe {

using StreamId = unsigned;

/// Keys of storages and stream symbols: a variable's, an object's, or a
/// variable's phi (the storage it names where paths that bound it meet).
/// Device: the current stream a device had at entry.
enum class KeySpace : uint64_t {
  Var = 0,
  Object = 1,
  Phi = 2,
  Device = 3,
  Freed = 4
};
inline uint64_t keyOf(KeySpace Space, unsigned Id) {
  return (uint64_t(Id) << 3) | uint64_t(Space);
}

class StreamTable {
public:
  static constexpr StreamId Unknown = 0;
  static constexpr StreamId Default = 1;
  static constexpr StreamId EntryCurrent = 2;
  /// "visible to" sets are 64-bit masks; streams past that are Unknown.
  static constexpr unsigned MaxStreams = 64;

  StreamTable();
  /// The symbol for \p Key, created on first use.
  StreamId get(StreamKind Kind, uint64_t Key);
  /// The stream current on device \p Device (a constant index) when the
  /// function was entered: it may be EntryCurrent (the entry device may be
  /// that one), and differs from the entry stream of every other device.
  StreamId deviceCurrent(int8_t Device);
  /// The device (a constant index) a stream belongs to, or -1.
  int8_t device(StreamId Id) const { return Syms[Id].Device; }
  void setDevice(StreamId Id, int8_t Device) {
    if (Id > EntryCurrent)
      Syms[Id].Device = Device;
  }
  /// Remembers the first variable a stream was stored in (for messages).
  void nameBy(StreamId Id, VarId Var);
  /// Remembers why a member or parameter is another stream (for a note).
  void setProvenAt(StreamId Id, SiteId At) {
    if (Id > EntryCurrent && Syms[Id].ProvenAt == NoSite)
      Syms[Id].ProvenAt = At;
  }

  /// The streams (bit per StreamId) that are the caller's current stream
  /// at entry, of its device or of a device named by index.
  uint64_t entryCurrents() const;

  /// Every caller runs the function under a side stream, one set at \p At:
  /// the caller's current stream at entry is not the default stream.
  void entryIsSide(SiteId At) { Syms[EntryCurrent].ProvenAt = At; }

  /// The function makes the side stream named \p A (a side parameter or
  /// side local) wait for side stream \p B, or the other way round: it
  /// takes them to be different streams (waiting for itself orders
  /// nothing), and so does the analysis.
  void orderedApart(VarId A, VarId B, SiteId At);
  /// Where the function ordered \p A and \p B apart, when that is why the
  /// analysis takes them to differ (NoSite otherwise).
  SiteId apartAt(StreamId A, StreamId B) const;
  /// True only when the two symbols certainly denote different streams.
  bool knownDistinct(StreamId A, StreamId B) const;
  /// The streams (bit per StreamId) that \p Id may be: itself and every
  /// symbol not known to differ from it.
  uint64_t mayBe(StreamId Id) const;
  StreamKind kind(StreamId Id) const { return Syms[Id].Kind; }
  StreamDesc describe(StreamId Id) const { return Syms[Id]; }
  static uint64_t bit(StreamId Id) { return uint64_t(1) << Id; }

private:
  std::vector<StreamDesc> Syms;
  llvm::DenseMap<uint64_t, StreamId> ByKey;
  /// Pairs of side streams' variables (smaller first) orderedApart, and
  /// the first wait that did.
  struct ApartPair {
    VarId A = NoVar, B = NoVar;
    SiteId At = NoSite;
  };
  llvm::SmallVector<ApartPair, 2> Apart;
  const ApartPair *apart(StreamId A, StreamId B) const;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_STREAMTABLE_H
