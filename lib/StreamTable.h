//===--- StreamTable.h - Streams as symbols ---------------------*- C++ -*-===//
//
// The analysis never knows a stream's run-time identity. It names each stream
// by where it came from (the default stream, the caller's current stream, one
// getStreamFromPool() call, a parameter) and reports a race only when two
// symbols are known to be different streams.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_STREAMTABLE_H
#define STREAMSAFE_LIB_STREAMTABLE_H

#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <string>
#include <vector>

namespace clang {
class NamedDecl;
}

namespace streamsafe {

using StreamId = unsigned;

enum class StreamKind {
  Unknown,      ///< nothing is known; never reported
  Default,      ///< the legacy default (NULL) stream
  EntryCurrent, ///< the caller's current stream at function entry
  Pool,         ///< one getStreamFromPool() call site: a fresh side stream
  Parameter,    ///< a stream passed in
  Executor,     ///< the stream bound to an executor's worker thread
  Other         ///< members, external streams, results of unknown calls
};

struct StreamSymbol {
  StreamKind Kind = StreamKind::Unknown;
  const void *Key = nullptr;
  const clang::NamedDecl *Var = nullptr; ///< first variable that named it
};

class StreamTable {
public:
  static constexpr StreamId Unknown = 0;
  static constexpr StreamId Default = 1;
  static constexpr StreamId EntryCurrent = 2;
  /// "visible to" sets are 64-bit masks; streams past that are Unknown.
  static constexpr unsigned MaxStreams = 64;

  StreamTable();
  /// The symbol for \p Key, created on first use.
  StreamId get(StreamKind Kind, const void *Key);
  /// Remembers the first variable a stream was stored in (for messages).
  void nameBy(StreamId Id, const clang::NamedDecl *Var);

  /// True only when the two symbols certainly denote different streams.
  bool knownDistinct(StreamId A, StreamId B) const;
  const StreamSymbol &operator[](StreamId Id) const { return Syms[Id]; }
  /// "pool stream 's'", "the default stream", ...
  std::string describe(StreamId Id) const;
  static uint64_t bit(StreamId Id) { return uint64_t(1) << Id; }

private:
  std::vector<StreamSymbol> Syms;
  llvm::DenseMap<const void *, StreamId> ByKey;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_STREAMTABLE_H
