//===--- Diagnoser.h - Findings from the converged states -------*- C++ -*-===//
//
// After the states converge, the solver replays each block once from its
// input and asks the Diagnoser about each fact before it is applied (and
// about each storage whose last reference dies): the one place that decides
// what is a finding. It builds typed findings (sites, variables, stream
// symbols); the checks write every word.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_DIAGNOSER_H
#define STREAMSAFE_LIB_ENGINE_DIAGNOSER_H

#include "lib/engine/Transfer.h"
#include "lib/ir/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include <set>
#include <tuple>
#include <vector>

namespace streamsafe {

class Diagnoser {
public:
  Diagnoser(Transfer &T, std::vector<Finding> &Out) : T(T), Out(Out) {}

  /// Checks fact \p F against the state \p S it is about to be applied to.
  /// \p Paths: every state the fact is applied to there (S among them: the
  /// solver keeps paths apart that contradict each other on a branch).
  void before(const Fact &F, const StreamState &S,
              llvm::ArrayRef<StreamState> Paths);
  /// The blocks freed to \p Stream (none: to any stream, at an exit)
  /// with uses on other streams the allocator was not told of.
  void freedBlocks(const StreamState &S, std::optional<StreamId> Stream);
  /// A path leaves the function at \p Exit in state \p S.
  void atExit(const StreamState &S, SiteId Exit);
  /// The caller's tensors with writes left in flight at \p Exit on a
  /// stream the caller cannot wait for (DiagnoseLeftInFlight.cpp).
  void leftForCaller(const StreamState &S, SiteId Exit);

private:
  /// before(), on the tensors the fact acts on.
  void check(const Fact &F, const StreamState &S,
             llvm::ArrayRef<StreamState> Paths);
  void access(const Fact &F, const fact::Access &X, const StreamState &S);
  /// A blocking copy of a tensor that is host memory here and device
  /// memory on a path that met this one: checked against that path's work.
  void deviceSideCopy(const Fact &F, const fact::Access &X, StorageId Id,
                      const TensorState &Found, const StreamState &S);
  void handBack(const Fact &F, const fact::EscapeTensor &X,
                const StreamState &S);
  void hostAccess(const Fact &F, const TensorRef &Tensor, bool Write,
                  const StreamState &S);
  void eventWait(const Fact &F, const fact::EventWait &X, const StreamState &S,
                 llvm::ArrayRef<StreamState> Paths);
  void threadCurrentStream(const Fact &F, const StreamState &S, bool Query);
  /// The pending access of \p Found that \p A races with, if any.
  const Access *conflict(const Access &A, const TensorState &Found,
                         const StreamState &S) const;
  void race(VarId Tensor, StorageId Id, const Access &A, const Access &Prior,
            const StreamState &S);
  /// A CUDA graph's replay: its captured accesses, on the replay stream.
  void replay(const Fact &F, const fact::GraphReplay &X, const StreamState &S);
  AccessInfo info(const Access &A) const;
  // CUDA graph capture (DiagnoseCapture.cpp).
  void capture(const Fact &F, const StreamState &S);
  void captureBegin(const Fact &F, const fact::CaptureBegin &X,
                    const StreamState &S);
  void unjoinedForks(const Fact &F, const StreamState &S);
  void captureWork(const Fact &F, const StreamState &S);
  void captureSync(const Fact &F, const fact::StreamSync &X,
                   const StreamState &S);
  /// A query of (or, \p HostWait, a host wait on) \p Event.
  void capturedEvent(const Fact &F, VarId Event, const StreamState &S,
                     bool HostWait);
  void outsideEventWait(const Fact &F, const fact::EventWait &X,
                        const StreamState &S);
  /// Both the capture's mode and the thread's refuse potentially unsafe
  /// calls.
  bool refusesUnsafeCalls(const StreamState &S) const;
  void restricted(const Fact &F, const fact::Restricted &X,
                  const StreamState &S);
  /// Reports \p P against the capture in progress in \p S.
  void reportCapture(const StreamState &S, finding::CaptureProblem P);

  bool callerCannotWait(StreamId Stream) const;
  /// The writes left for the caller reported (one finding for every path).
  std::set<SiteId> LeftWrites;
  /// The frees reported: (free, last use, its stream).
  std::set<std::tuple<SiteId, SiteId, StreamId>> JudgedFrees;
  Transfer &T;
  std::vector<Finding> &Out;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_DIAGNOSER_H
