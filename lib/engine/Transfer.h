//===--- Transfer.h - What each fact does to the state ----------*- C++ -*-===//
//
// The transfer functions: one method per fact kind, each only updating the
// state. They never report: the Diagnoser reads the states they produce.
// Split by subject: operands (TransferOperands.cpp), accesses and lifetimes
// (TransferAccesses.cpp), the current stream, events and synchronisation
// (TransferEvents.cpp), threads (TransferThreads.cpp), CUDA graph capture
// (TransferCapture.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_TRANSFER_H
#define STREAMSAFE_LIB_ENGINE_TRANSFER_H

#include "lib/engine/Solver.h"
#include "lib/engine/StreamState.h"
#include "lib/engine/StreamTable.h"
#include "lib/ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace streamsafe {

/// What the analysis knows of one tensor storage besides its state.
struct StorageInfo {
  uint64_t Key = 0;
  /// The variable the storage is named by in messages (NoVar: a temporary).
  VarId Named = NoVar;
  /// One storage for the whole function (a parameter's, a global's, a
  /// field's): never garbage.
  bool Persistent = false;
  /// Every variable ever bound to it: held() asks only these.
  llvm::SmallVector<VarId, 2> Binders;
};

class Transfer {
public:
  /// Runs callable \p Body from \p Entry and returns its exit state
  /// (unreachable when it could not be solved); set by the solver.
  using BodyRunner = std::function<StreamState(
      BodyId Body, const StreamState &Entry, SiteId CallSite)>;

  explicit Transfer(const Function &IR);
  /// A body that is not run (nested too deep): whatever it may do is taken
  /// as done. Every pending access completes, and no event or other
  /// thread's records are followed any more.
  void unseenBody(StreamState &S);
  void setBodyRunner(BodyRunner R) { RunBody = std::move(R); }

  /// The state at function entry: the caller's current stream, tensor
  /// parameters ready on it.
  StreamState entryState();
  /// \p Var holds None on the paths of \p S (a branch found it so): its
  /// storage there is no memory.
  void holdsNone(StreamState &S, VarId Var);
  /// What a normal exit \p Exit leaves in flight in the object's fields
  /// (TransferFields.cpp).
  std::vector<LeftWrite> fieldsLeft(const StreamState &Exit) const;
  /// Applies \p F to \p S.
  void apply(const Fact &F, StreamState &S);
  /// Drops storages no variable refers to any more (temporaries).
  void collectGarbage(StreamState &S);
  /// State entries visited by sweeps since the last call (the solver's work
  /// budget counts them).
  unsigned takeWork() { return std::exchange(Work, 0); }
  /// The storage a tensor variable names after paths that bound it to
  /// different storages meet.
  /// The storage \p V names where paths that bound it to different
  /// storages meet: its own, or \p SameAs's when that variable was bound
  /// to the same storage as \p V on each path (a view and its base). A
  /// shared phi is named as \p From (a storage on one path) is, when that
  /// name is one of the sharers (the base, not a view).
  StorageId phiFor(VarId V, VarId SameAs, StorageId From);

  //===-- Queries (the Diagnoser and the dump use them)
  //--------------------===//
  std::optional<StorageId> storageOf(const TensorRef &T, const StreamState &S);
  StreamId streamOf(const StreamRef &R, const StreamState &S);
  /// Whether the host wait \p X happens in \p S: one that depends on where
  /// its tensors live (IfHostInvolved, UnlessHost) asks what \p S knows.
  bool waits(const fact::StreamSync &X, const StreamState &S);
  const StorageInfo &storage(StorageId Id) const { return Storages[Id]; }
  /// The tensor's name as written at \p T, else its storage's name.
  VarId nameOf(const TensorRef &T, std::optional<StorageId> Id) const;
  const StreamTable &streams() const { return Streams; }
  const Function &function() const { return IR; }
  /// True when \p F (an Access or Allocate fact) enqueues work on a device
  /// stream (not host code on a host tensor).
  bool isDeviceWork(const Fact &F, const StreamState &S);
  /// While a capture is followed: true when \p F is work that runs now
  /// (on a stream outside the capture, on the host, on another thread),
  /// not work the graph records.
  bool runsNow(const Fact &F, const StreamState &S);
  /// The access \p F (an Access, Allocate or GraphReplay fact) enqueues in
  /// \p S.
  Access accessOf(const Fact &F, const StreamState &S);
  /// Whether a block in state \p T, freed now (\p Explicit: its storage,
  /// whoever holds it), owes the allocator uses on other streams.
  bool owesUses(const TensorState &T, bool Explicit) const;
  /// \p T, the state of storage \p From, as a block freed at \p At
  /// (TensorState::Freed), kept in a storage of its own: the names of
  /// \p From go on (a loop's next element).
  TensorState freedBlock(const TensorState &T, SiteId At, StorageId From,
                         const StreamState &S);
  StorageId freedStorage(StorageId Of, SiteId At);
  /// Where a block was freed (TensorState::FreedIn): the path's branches
  /// and the call of a helper run in place it was freed in.
  struct FreeContext {
    llvm::SmallVector<Assumption, 2> Path;
    SiteId CallSite = NoSite;
    bool operator==(const FreeContext &O) const {
      return Path == O.Path && CallSite == O.CallSite;
    }
  };
  const FreeContext &freeContext(unsigned Id) const { return Contexts[Id]; }
  /// The call through which the body being solved was reached (set by the
  /// solver).
  void setCallSiteNow(std::function<SiteId()> F) { CallSiteNow = std::move(F); }
  /// An allocation on \p Stream: the blocks freed to it are reused.
  void reuseFreed(StreamState &S, StreamId Stream);
  /// The current stream of device \p D (a constant index or EntryDevice)
  /// in \p S, and where it was set: Unknown when it cannot be told.
  std::pair<StreamId, SiteId> deviceCurrent(int8_t D, const StreamState &S);
  /// The streams event \p E is recorded on anywhere in the function, bit
  /// per StreamId (bit 0: one that cannot be named), once the states have
  /// converged: every record was applied at least once by then.
  uint64_t recordStreams(VarId E) const { return RecordStreams.lookup(E); }
  /// The streams any event is recorded on in the function, likewise.
  uint64_t anyRecordStreams() const { return AnyRecordStreams; }
  /// Where the default stream was set in place of the stream set at \p At
  /// (NoSite: nowhere).
  SiteId defaultSetBack(SiteId At) const {
    auto It = DefaultSetBack.find(At);
    return It == DefaultSetBack.end() ? NoSite : It->second;
  }
  /// Whether the function records a stream on a tensor it cannot name or
  /// did not see made (a loop variable over a braced list of tensors),
  /// once the states have converged: that may be any of its tensors.
  bool unnamedRecords() const { return UnnamedRecords; }
  void dump(const Fact &F, const StreamState &S, llvm::raw_ostream &OS) const;

private:
  bool UnnamedRecords = false;
  /// Binds the object's fields to what other methods left in them.
  void bindFields(StreamState &S);
  // One method per fact kind.
  void apply(const Fact &F, const fact::SetCurrent &X, StreamState &S);
  void apply(const Fact &F, const fact::GuardEnter &X, StreamState &S);
  void apply(const Fact &F, const fact::GuardExit &X, StreamState &S);
  void apply(const Fact &F, const fact::Access &X, StreamState &S);
  void apply(const Fact &F, const fact::Allocate &X, StreamState &S);
  void apply(const Fact &F, const fact::HostByUse &X, StreamState &S);
  void apply(const Fact &F, const fact::Free &X, StreamState &S);
  void apply(const Fact &F, const fact::BindTensor &X, StreamState &S);
  void apply(const Fact &F, const fact::BindStream &X, StreamState &S);
  void apply(const Fact &F, const fact::BindEvent &X, StreamState &S);
  void apply(const Fact &F, const fact::Unbind &X, StreamState &S);
  void apply(const Fact &F, const fact::EscapeTensor &X, StreamState &S);
  void apply(const Fact &F, const fact::EscapeEvent &X, StreamState &S);
  void apply(const Fact &F, const fact::EventRecord &X, StreamState &S);
  void apply(const Fact &F, const fact::EventWait &X, StreamState &S);
  void apply(const Fact &F, const fact::EventSync &X, StreamState &S);
  void apply(const Fact &F, const fact::StreamSync &X, StreamState &S);
  void apply(const Fact &F, const fact::DeviceSync &X, StreamState &S);
  void apply(const Fact &F, const fact::RecordStream &X, StreamState &S);
  void apply(const Fact &F, const fact::Spawn &X, StreamState &S);
  void apply(const Fact &F, const fact::CurrentQuery &X, StreamState &S);
  void apply(const Fact &F, const fact::HostAccess &X, StreamState &S);
  void apply(const Fact &F, const fact::Forget &X, StreamState &S);
  void apply(const Fact &F, const fact::CaptureBegin &X, StreamState &S);
  void apply(const Fact &F, const fact::CaptureEnd &X, StreamState &S);
  void apply(const Fact &F, const fact::Restricted &X, StreamState &S);
  void apply(const Fact &F, const fact::CaptureModeExchange &X, StreamState &S);
  void apply(const Fact &F, const fact::HostSignal &X, StreamState &S);
  void apply(const Fact &F, const fact::HostWait &X, StreamState &S);
  void apply(const Fact &F, const fact::GraphReplay &X, StreamState &S);
  void apply(const Fact &F, const fact::GraphInstantiate &X, StreamState &S);
  /// Enqueues access \p A of storage \p Id (whose state is \p T).
  void enqueue(StorageId Id, TensorState T, const Access &A, StreamState &S);
  /// While capturing: what \p F (work, an event record or wait) does to
  /// the capture, before its own transfer function runs.
  void followCapture(const Fact &F, StreamState &S);

  /// Makes device \p D current (a device guard): the current stream
  /// becomes D's, the one left behind is remembered.
  void switchDevice(int8_t D, StreamState &S);
  /// The device an ATen op on the tensor of \p F (an Access) runs on, when
  /// an allocation said so: the op runs on that device's current stream.
  int8_t tensorDevice(const Fact &F, const StreamState &S);

  StorageId storageFor(uint64_t Key, VarId Named, bool Persistent);
  void bindVar(StreamState &S, VarId V, StorageId Id);
  /// Whether a variable (one that owns a reference, with \p Owning) names
  /// storage \p Id in \p S.
  bool held(const StreamState &S, StorageId Id, bool Owning) const;
  void release(StorageId Id, SiteId At, StreamState &S);
  /// A body run on another thread left \p Exit: its event records become
  /// \p S's now, or at the host wait that orders after them.
  void deferRecords(const fact::Spawn &X, SiteId At, StreamState &S,
                    StreamState &Exit);
  void completeWhere(StreamState &S,
                     llvm::function_ref<bool(StorageId, const Access &)> Done);

  const Function &IR;
  BodyRunner RunBody;
  /// While a helper runs in place: the analysed function's call that ran
  /// it (Access::Via).
  SiteId OuterCall = NoSite;
  StreamTable Streams;
  std::vector<StorageInfo> Storages;
  llvm::DenseMap<uint64_t, StorageId> StorageByKey;
  std::map<std::pair<StorageId, SiteId>, unsigned> FreedKeys;
  std::vector<FreeContext> Contexts{FreeContext()};
  std::function<SiteId()> CallSiteNow;
  unsigned Work = 0;
  llvm::DenseMap<VarId, uint64_t> RecordStreams;
  uint64_t AnyRecordStreams = 0;
  /// For a set of the current stream still pending: where the default
  /// stream was then set in its place, as if that restored it.
  llvm::DenseMap<SiteId, SiteId> DefaultSetBack;
  /// Some allocation names a device: tensors may carry one. Single-device
  /// code never looks them up.
  bool TensorsOnDevices = false;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_TRANSFER_H
