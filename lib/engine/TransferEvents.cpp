//===--- TransferEvents.cpp - Current stream, events, synchronisation -----===//
//
// How streams get ordered: an event record captures what its stream has been
// ordered after; a wait makes it visible to the waiting stream; a host
// synchronisation completes it. docs/api-model.md, sections 2 to 4.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace streamsafe {

//===-- The current stream -----------------------------------------------===//

void Transfer::apply(const Fact &F, const fact::SetCurrent &X, StreamState &S) {
  S.Current = streamOf(X.Stream, S);
  S.CurrentSetAt = F.Site;
  // Setting the entry stream back restores; anything else is pending. A
  // stream set for the rest of the program on purpose is no scope's to
  // restore. Setting the default stream while the caller's stream is
  // current is the "reset" idiom; setting it "back" after another stream
  // is no restore: the caller's stream need not be the default stream
  // (TransformerEngine's userbuffers left the legacy stream current in
  // code captured on a side stream). That set stays pending, with where
  // the default stream was set (defaultSetBack).
  llvm::SmallVector<SiteId, 2> Pending = std::move(S.Unrestored);
  S.Unrestored.clear();
  if (X.ForProcess || X.Restores || S.Current == StreamTable::EntryCurrent)
    return;
  if (S.Current != StreamTable::Default) {
    S.Unrestored.push_back(F.Site);
    return;
  }
  for (SiteId U : Pending)
    DefaultSetBack.try_emplace(U, F.Site);
  S.Unrestored = std::move(Pending);
}

void Transfer::apply(const Fact &F, const fact::GuardEnter &X, StreamState &S) {
  if (X.Device != StreamRef::NoDevice) {
    // A device guard saves the device; the streams stay each device's own.
    if (X.Guard != NoVar && !S.Guards.count(X.Guard))
      S.Guards[X.Guard] = {StreamTable::Unknown, NoSite, true, S.CurrentDevice};
    return switchDevice(X.Device, S);
  }
  // CUDAStreamGuard(s) with s a stream of another (constant) device makes
  // that device current too, and saves that device's current stream.
  StreamId Target =
      X.KeepCurrent ? StreamTable::Unknown : streamOf(X.Stream, S);
  int8_t Device = Streams.device(Target);
  bool Switch = Device >= 0 && Device != S.CurrentDevice;
  int8_t SavedDevice = S.CurrentDevice;
  if (Switch)
    switchDevice(Device, S);
  if (X.Guard != NoVar && !S.Guards.count(X.Guard)) {
    GuardState G{S.Current, S.CurrentSetAt};
    G.SwitchedDevice = Switch;
    G.SavedDevice = Switch ? SavedDevice : EntryDevice;
    S.Guards[X.Guard] = G;
  }
  if (X.KeepCurrent)
    return;
  S.Current = Target;
  S.CurrentSetAt = F.Site;
}

void Transfer::apply(const Fact &F, const fact::GuardExit &X, StreamState &S) {
  auto It = X.Guard != NoVar ? S.Guards.find(X.Guard) : S.Guards.end();
  if (It == S.Guards.end())
    return;
  if (It->second.DeviceGuard) {
    int8_t Saved = It->second.SavedDevice;
    S.Guards.erase(It);
    return switchDevice(Saved, S);
  }
  S.Current = It->second.Saved;
  S.CurrentSetAt = F.Site;
  if (It->second.SwitchedDevice) {
    // The stream's device got its stream back; now the device goes back.
    int8_t Saved = It->second.SavedDevice;
    S.Guards.erase(It);
    return switchDevice(Saved, S);
  }
  S.Guards.erase(It);
  // A guard restores its device's stream, undoing any set inside it.
  if (S.Current == StreamTable::EntryCurrent)
    S.Unrestored.clear();
}

void Transfer::apply(const Fact &, const fact::CurrentQuery &, StreamState &) {
  // Changes nothing; the Diagnoser checks it in thread bodies.
}

void Transfer::apply(const Fact &, const fact::HostAccess &, StreamState &) {
  // Host code touches the memory now: nothing is enqueued. The Diagnoser
  // checks it against pending copies.
}

void Transfer::apply(const Fact &, const fact::Forget &X, StreamState &S) {
  if (X.How == fact::Forget::Step::Last &&
      llvm::any_of(S.Assumed, [&](const Assumption &A) {
        return A.Var == X.Var && !A.Value;
      }))
    S.Reachable = false; // the path ended the loop
  llvm::erase_if(S.Assumed,
                 [&](const Assumption &A) { return A.Var == X.Var; });
  if (X.How == fact::Forget::Step::Known) {
    Assumption A;
    A.Var = X.Var;
    A.Value = X.Value;
    A.Local = true; // the helper's own: no caller splits on it
    S.Assumed.insert(
        llvm::lower_bound(S.Assumed, A,
                          [](const Assumption &L, const Assumption &R) {
                            return L.Var < R.Var;
                          }),
        A);
  }
}

//===-- Events -----------------------------------------------------------===//

void Transfer::apply(const Fact &F, const fact::EventRecord &X,
                     StreamState &S) {
  StreamId Y = streamOf(X.Stream, S);
  AnyRecordStreams |= StreamTable::bit(Y);
  if (X.Event == NoVar)
    return; // an event handed on as it is recorded: not followed
  RecordStreams[X.Event] |= StreamTable::bit(Y);
  EventState &E = S.Events[X.Event];
  E.MustRecorded = E.MayRecorded = true;
  E.LastRecord = F.Site;
  E.Covers.clear();
  E.Snapshot.reset();
  E.CoversAll = Y == StreamTable::Unknown;
  if (E.CoversAll)
    return;
  S.Quiet.recorded(X.Event, Y);
  // The record captures every access that Y has been ordered after so far.
  E.Snapshot = S.Tensors;
  E.RecordedOn = Y;
  // Y may be another stream the code names (a parameter may be the
  // caller's current stream): what that one was ordered after may be
  // captured too, so a wait on the event is not reported as missing it.
  E.MayBe = Streams.mayBe(Y);
  // The default stream is not the caller's current stream unless the
  // caller says so: `s.wait_stream(torch.cuda.default_stream())` orders the
  // default stream's work, not the caller's (Megatron's bucket groups,
  // under CUDA graphs). A thread that set nothing runs on the default
  // stream itself (TransferThreads.cpp), whose work is Y's.
  if (Y == StreamTable::Default)
    E.MayBe &= ~Streams.entryCurrents();
}

void Transfer::apply(const Fact &F, const fact::EventWait &X, StreamState &S) {
  StreamId W = streamOf(X.Stream, S);
  auto It = X.Event != NoVar ? S.Events.find(X.Event) : S.Events.end();
  if (It != S.Events.end() && !It->second.MayRecorded)
    return; // never recorded: the wait is a no-op
  // A thread whose stream waits for its spawner's stream (or for an event
  // it cannot follow, taken to order everything below) orders its work
  // itself: it no longer relies on the stream it was spawned under.
  if (S.ThreadStart != NoSite && W == S.Current &&
      (It == S.Events.end() || It->second.CoversAll ||
       (It->second.MustRecorded && It->second.RecordedOn == S.SpawnerStream)))
    S.SpawnerSetAt = NoSite;
  // An event we cannot follow, or a waiting stream we cannot name: assume
  // the wait orders everything rather than report what it may have fixed.
  if (It == S.Events.end() || W == StreamTable::Unknown || It->second.CoversAll)
    return completeWhere(S, [](StorageId, const Access &) { return true; });
  const EventState &E = It->second;
  if (E.MustRecorded)
    S.Quiet.waited(X.Event, W);
  // `s.wait_stream(current_stream())` while s is current: s waits for
  // itself, which orders nothing.
  if (E.MustRecorded && E.RecordedOn == W && F.Site != NoSite &&
      llvm::none_of(S.SelfWaits, [&](const auto &M) { return M.first == W; })) {
    S.SelfWaits.push_back({W, F.Site});
    llvm::sort(S.SelfWaits);
  }
  if (E.MustRecorded && E.RecordedOn == StreamTable::Default &&
      W != StreamTable::Default && F.Site != NoSite &&
      llvm::none_of(S.DefaultWaits,
                    [&](const auto &M) { return M.first == W; })) {
    S.DefaultWaits.push_back({W, F.Site});
    llvm::sort(S.DefaultWaits);
  }
  // Only tensors with a covered access not yet visible to W change.
  // A freed block's uses: covered as they were before the free too.
  auto Covers = [&](StorageId Id, const TensorState &T, const Access &A) {
    return E.covers({Id, A.Site}) ||
           ((T.Freed || T.Left) && E.covers({T.FreedFrom, A.Site}));
  };
  auto Needs = [&](StorageId Id, const TensorState &T) {
    ++Work;
    for (const AccessList *L : {&T.Writes, &T.Reads, &T.CrossStreamUses})
      for (const Access &A : *L)
        if (Covers(Id, T, A) &&
            (!(A.VisibleTo & StreamTable::bit(W)) ||
             (L == &T.CrossStreamUses && W == T.AllocStream)))
          return true;
    return false;
  };
  // Only subtrees with an access not yet visible to W (or a use the
  // allocation stream may now be waiting for) can change.
  auto Unseen = [&](const PendingSummary &Sum) {
    return (Sum.NotVisibleTo & StreamTable::bit(W)) || Sum.HasCrossStreamUses;
  };
  S.Tensors.updateWhere(Unseen, Needs, [&](StorageId Id, TensorState &T) {
    auto Covered = [&](const Access &A) { return Covers(Id, T, A); };
    for (AccessList *L : {&T.Writes, &T.Reads})
      for (Access &A : *L)
        if (Covered(A))
          A.VisibleTo |= StreamTable::bit(W);
    // A use on another stream that the allocation stream now waits for can
    // no longer outlive the block.
    if (W == T.AllocStream)
      llvm::erase_if(T.CrossStreamUses, Covered);
    else
      for (Access &A : T.CrossStreamUses)
        if (Covered(A))
          A.VisibleTo |= StreamTable::bit(W);
    for (AccessList *L : {&T.Writes, &T.Reads, &T.CrossStreamUses})
      foldAlikeAccesses(*L);
  });
}

//===-- Host synchronisation ---------------------------------------------===//

void Transfer::completeWhere(
    StreamState &S, llvm::function_ref<bool(StorageId, const Access &)> Done) {
  auto Needs = [&](StorageId Id, const TensorState &T) {
    ++Work;
    for (const AccessList *L : {&T.Writes, &T.Reads, &T.CrossStreamUses})
      for (const Access &A : *L)
        if (Done(Id, A))
          return true;
    return false;
  };
  auto Pending = [](const PendingSummary &Sum) { return Sum.Pending; };
  S.Tensors.updateWhere(Pending, Needs, [&](StorageId Id, TensorState &T) {
    for (AccessList *L : {&T.Writes, &T.Reads, &T.CrossStreamUses})
      llvm::erase_if(*L, [&](const Access &A) { return Done(Id, A); });
  });
}

void Transfer::apply(const Fact &, const fact::EventSync &X, StreamState &S) {
  auto It = X.Event != NoVar ? S.Events.find(X.Event) : S.Events.end();
  // A thread whose host waits for its spawner's work (an event recorded on
  // the spawner's stream, or one it cannot follow) orders its work itself,
  // as a stream wait does (EventWait).
  if (S.ThreadStart != NoSite &&
      (It == S.Events.end() || It->second.CoversAll ||
       (It->second.MustRecorded && It->second.RecordedOn == S.SpawnerStream)))
    S.SpawnerSetAt = NoSite;
  if (It == S.Events.end() || It->second.CoversAll)
    return completeWhere(S, [](StorageId, const Access &) { return true; });
  EventState E = It->second;
  completeWhere(
      S, [&](StorageId Id, const Access &A) { return E.covers({Id, A.Site}); });
}

bool Transfer::waits(const fact::StreamSync &X, const StreamState &S) {
  auto IsHost = [&](const TensorRef &R) {
    std::optional<StorageId> Id = storageOf(R, S);
    const TensorState *T = Id ? S.Tensors.lookup(*Id) : nullptr;
    return T && T->Host;
  };
  if (X.IfHostInvolved && !IsHost(X.A) && !IsHost(X.B))
    return false;
  return !(X.UnlessHost && IsHost(X.A));
}

void Transfer::apply(const Fact &, const fact::StreamSync &X, StreamState &S) {
  if (!waits(X, S))
    return;
  StreamId Y = streamOf(X.Stream, S);
  if (S.ThreadStart != NoSite && !X.IfHostInvolved &&
      (Y == S.SpawnerStream || Y == StreamTable::Unknown))
    S.SpawnerSetAt = NoSite; // the spawner's stream drained: as EventSync
  // The host saw Y drain: everything Y was ordered after is complete.
  completeWhere(S, [&](StorageId, const Access &A) {
    return Y == StreamTable::Unknown || A.visibleTo(Y);
  });
  if (Y != StreamTable::Unknown && !X.IfHostInvolved)
    S.Idle |= StreamTable::bit(Y);
}

void Transfer::apply(const Fact &, const fact::DeviceSync &, StreamState &S) {
  if (S.ThreadStart != NoSite)
    S.SpawnerSetAt = NoSite; // every stream drained: as EventSync
  completeWhere(S, [](StorageId, const Access &) { return true; });
  S.Idle = ~uint64_t(0);
}

} // namespace streamsafe
