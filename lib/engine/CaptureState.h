//===--- CaptureState.h - Stream capture in the lattice ---------*- C++ -*-===//
//
// While a stream captures into a CUDA graph, the runtime records its work
// instead of running it. Other streams join the capture by waiting on an
// event recorded on a capturing stream (a fork), and every stream forked in
// must be joined back (the capturing stream waits on an event recorded
// after its last work) before the capture ends. This is the part of the
// state that follows one capture: which streams are in it, where each was
// forked, the work on forked streams not yet joined back, and which events
// were recorded inside it. docs/checks/graph-capture.md gives the rules.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_CAPTURESTATE_H
#define STREAMSAFE_LIB_ENGINE_CAPTURESTATE_H

#include "lib/engine/StreamTable.h"
#include "lib/ir/IR.h"
#include "lib/ir/Sites.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>

namespace streamsafe {

/// The last work on a forked stream that its capture may not yet be
/// ordered after.
struct CaptureTail {
  StreamId Stream = StreamTable::Unknown;
  SiteId Site = NoSite;
  uint64_t VisibleTo = 0; ///< streams ordered after it (bit per StreamId)
  bool operator==(const CaptureTail &O) const {
    return Stream == O.Stream && Site == O.Site && VisibleTo == O.VisibleTo;
  }
};

/// An event recorded on a stream of the capture, while capturing: waiting
/// on it forks the waiting stream into the capture and orders it after the
/// tails the record covered.
struct CaptureRecord {
  SiteId At = NoSite;
  /// Recorded on a stream the analysis cannot name: it may cover anything,
  /// and a wait on it may or may not fork.
  bool AnyStream = false;
  llvm::SmallVector<SiteId, 2> Covers; ///< tail sites, sorted
  bool operator==(const CaptureRecord &O) const {
    return At == O.At && AnyStream == O.AnyStream && Covers == O.Covers;
  }
};

struct CaptureState {
  /// Where the capture in progress began (NoSite: none on this path).
  SiteId Begin = NoSite;
  /// Capturing on some paths only, or a capture the analysis lost track of:
  /// nothing is reported until the next capture begins.
  bool Unsure = false;
  StreamId Origin = StreamTable::Unknown;
  CaptureMode Mode = CaptureMode::Global;
  /// The graph object it records into (NoVar: not known at the begin).
  VarId Graph = NoVar;
  /// Streams in the capture on every path (Members) and on some path
  /// (MayMembers): the capturing stream and those forked into it.
  uint64_t Members = 0;
  uint64_t MayMembers = 0;
  /// Where each forked stream joined the capture (the first wait).
  std::map<StreamId, SiteId> Forks;
  /// Work on forked streams not yet joined back into the capturing stream
  /// (one per stream and path; after a join, any path's).
  llvm::SmallVector<CaptureTail, 2> Tails;
  /// Events whose last record was on a stream of this capture.
  std::map<VarId, CaptureRecord> Records;

  bool active() const { return Begin != NoSite && !Unsure; }
  bool member(StreamId S) const { return Members & StreamTable::bit(S); }
  bool mayBeMember(StreamId S) const {
    return MayMembers & StreamTable::bit(S);
  }
  /// Starts a capture into \p Graph on \p Origin at \p At.
  void begin(SiteId At, StreamId Origin, CaptureMode Mode, VarId Graph = NoVar);
  /// Work enqueued on \p S at \p At: a forked stream's new tail.
  void work(StreamId S, SiteId At);
  /// \p Event recorded on \p S (Unknown: a stream not named) at \p At.
  void record(VarId Event, StreamId S, SiteId At);
  /// \p W waits on \p Event (NoVar or \p Followed false: one the analysis
  /// does not follow) at \p At.
  void wait(VarId Event, bool Followed, StreamId W, SiteId At);
  /// Something the analysis does not see may have joined any stream.
  void forgetJoins();
  /// Paths meet: true of both (members: every path; tails: any path).
  void join(const CaptureState &O);
  bool operator==(const CaptureState &O) const;

private:
  /// One order for equal states, whatever the order of the work.
  void sortTails();
};

/// The calling thread's capture interaction mode (CUDA's thread-side half
/// of cudaStreamCaptureMode). A call the runtime counts as potentially
/// unsafe is refused only when both the capture's mode and the thread's
/// are strict (global or thread-local; measured on an H200, see
/// docs/checks/graph-capture.md).
struct ThreadCaptureMode {
  /// Every thread starts in the global mode.
  CaptureMode Mode = CaptureMode::Global;
  SiteId SetAt = NoSite; ///< the exchange that set it (NoSite: the default)
  /// The mode each exchange slot (a mode variable, a mode guard) keeps.
  std::map<VarId, CaptureMode> Kept;

  /// The exchange of \p Slot with \p Value (its own value when it keeps
  /// none) at \p At.
  void exchange(VarId Slot, CaptureMode Value, SiteId At);
  /// Paths meet: a mode that differs is unknown.
  void join(const ThreadCaptureMode &O);
  bool operator==(const ThreadCaptureMode &O) const {
    return Mode == O.Mode && SetAt == O.SetAt && Kept == O.Kept;
  }
};

/// Global and thread-local refuse potentially unsafe calls; relaxed, and a
/// mode the analysis does not know, may not.
inline bool strictMode(CaptureMode M) {
  return M == CaptureMode::Global || M == CaptureMode::ThreadLocal;
}

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_CAPTURESTATE_H
