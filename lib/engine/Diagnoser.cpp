//===--- Diagnoser.cpp - Findings from the converged states ---------------===//

#include "lib/engine/Diagnoser.h"
#include <map>

namespace streamsafe {

AccessInfo Diagnoser::info(const Access &A) const {
  AccessInfo I;
  I.Mode = A.Mode;
  I.Site = A.Site;
  I.Stream = T.streams().describe(A.Stream);
  I.StreamSetAt = A.StreamSetAt;
  I.OnCurrentStream = A.OnCurrent;
  I.CapturedAt = A.CapturedAt;
  I.Graph = A.Graph;
  I.Via = A.Via;
  return I;
}

void Diagnoser::before(const Fact &F, const StreamState &S,
                       llvm::ArrayRef<StreamState> Paths) {
  // Functions that capture nothing pay one test per fact.
  if (S.Capture.active() || F.as<fact::CaptureBegin>())
    capture(F, S);
  // Work that runs now while a capture records is checked against the
  // tensors as they are now (Transfer::runsNow).
  if (S.Uncaptured && T.runsNow(F, S)) {
    StreamState Now = S;
    std::swap(Now.Tensors, *Now.Uncaptured);
    return check(F, Now, Paths);
  }
  check(F, S, Paths);
}

void Diagnoser::check(const Fact &F, const StreamState &S,
                      llvm::ArrayRef<StreamState> Paths) {
  if (const auto *X = F.as<fact::GraphReplay>())
    return replay(F, *X, S);
  if (const auto *X = F.as<fact::Access>())
    return access(F, *X, S);
  if (const auto *X = F.as<fact::Allocate>()) {
    if (X->Stream.K == StreamRef::Current && !X->Host)
      threadCurrentStream(F, S, /*Query=*/false);
    if (!X->Host && !X->Unowned)
      freedBlocks(S, T.accessOf(F, S).Stream);
    return;
  }
  if (const auto *X = F.as<fact::CurrentQuery>()) {
    if (!X->AsWaiter)
      threadCurrentStream(F, S, /*Query=*/true);
    return;
  }
  if (const auto *X = F.as<fact::HostAccess>())
    return hostAccess(F, X->Tensor, X->Write, S);
  if (const auto *X = F.as<fact::EscapeTensor>();
      X && (X->Returned || X->KeptByObject))
    return handBack(F, *X, S);
  if (const auto *X = F.as<fact::EventWait>())
    return eventWait(F, *X, S, Paths);
}

void Diagnoser::access(const Fact &F, const fact::Access &X,
                       const StreamState &S) {
  std::optional<StorageId> Id = T.storageOf(X.Tensor, S);
  if (!Id)
    return;
  const TensorState *Found = S.Tensors.lookup(*Id);
  // An op on a host tensor runs in host code, now; a blocking copy is
  // complete when it returns.
  if (Found && Found->Host && !X.Copy)
    return hostAccess(F, X.Tensor, X.Write, S);
  if (Found && Found->Host && (!X.Async || !Found->Pinned))
    return deviceSideCopy(F, X, *Id, *Found, S);
  Access A = T.accessOf(F, S);
  if (A.OnCurrent)
    threadCurrentStream(F, S, /*Query=*/false);
  if (A.Stream == StreamTable::Unknown || !Found)
    return;
  if (const Access *Conflict = conflict(A, *Found, S))
    race(T.nameOf(X.Tensor, Id), *Id, A, *Conflict, S);
}

void Diagnoser::deviceSideCopy(const Fact &F, const fact::Access &X,
                               StorageId Id, const TensorState &Found,
                               const StreamState &S) {
  // A blocking copy of host memory is complete when it returns; on the
  // path where the tensor is device memory it is a copy on the stream, and
  // races with the device work that path left in flight.
  TensorState DeviceSide;
  for (const AccessList *L : {&Found.Writes, &Found.Reads})
    for (const Access &P : *L)
      if (P.DeviceOnly)
        (L == &Found.Writes ? DeviceSide.Writes : DeviceSide.Reads)
            .push_back(P);
  if (DeviceSide.Writes.empty() && DeviceSide.Reads.empty())
    return;
  Access A = T.accessOf(F, S);
  if (A.Stream == StreamTable::Unknown)
    return;
  if (const Access *Conflict = conflict(A, DeviceSide, S)) {
    Access Prior = *Conflict; // DeviceSide is about to go
    race(T.nameOf(X.Tensor, Id), Id, A, Prior, S);
  }
}

const Access *Diagnoser::conflict(const Access &A, const TensorState &Found,
                                  const StreamState &S) const {
  const StreamTable &Streams = T.streams();
  const Access *Conflict = nullptr;
  // A tensor handed in together with a side-stream parameter: the caller
  // chose the stream and may have ordered the argument for it (a helper
  // that runs on the stream it is given), so only what this function itself
  // did on the current stream conflicts with the parameter.
  bool SideStream = Streams.kind(A.Stream) == StreamKind::SideParameter;
  // Of several, the story told is the likeliest: an access that certainly
  // touches what A touches (one of the two is all of the storage), then one
  // that may, then a parameter only known to be ready at entry.
  int Rank = -1;
  auto Find = [&](const AccessList &L) {
    for (const Access &P : L) {
      if (P.visibleTo(A.Stream) || !P.Part.mayOverlap(A.Part) ||
          (SideStream && P.Mode == AccessMode::EntryReady) ||
          !Streams.knownDistinct(P.Stream, A.Stream))
        continue;
      int R = P.Mode == AccessMode::EntryReady                         ? 0
              : P.Part.K == Region::Whole || A.Part.K == Region::Whole ? 2
                                                                       : 1;
      // A later access of an unknown part on the stream of the one chosen
      // (a write through a name that may be a view) follows it: its story.
      if (R > Rank || (R == 1 && Rank > 0 && P.Stream == Conflict->Stream)) {
        Conflict = &P;
        Rank = R;
      }
    }
  };
  Find(Found.Writes);
  if (A.Mode != AccessMode::Read)
    Find(Found.Reads);
  if (!Conflict)
    return nullptr;
  // A parameter read in an executor's task: the framework hands inputs to
  // its streams in ways we do not see (its own events, queue order).
  if (Conflict->Mode == AccessMode::EntryReady && S.ThreadStart != NoSite &&
      Streams.kind(S.Current) == StreamKind::Executor)
    return nullptr;
  return Conflict;
}

void Diagnoser::race(VarId Tensor, StorageId Id, const Access &A,
                     const Access &Prior, const StreamState &S) {
  finding::UnsynchronizedAccess Fi;
  Fi.Tensor = Tensor;
  VarId Owner = T.storage(Id).Named;
  Fi.Storage = Owner == NoVar ? Fi.Tensor : Owner;
  Fi.Access = info(A);
  Fi.Prior = info(Prior);
  for (const auto &[Stream, At] : S.SelfWaits)
    if (Stream == A.Stream)
      Fi.SelfWait = At;
  for (const auto &[Stream, At] : S.DefaultWaits)
    if (Stream == A.Stream &&
        (StreamTable::bit(Prior.Stream) & T.streams().entryCurrents()))
      Fi.DefaultWait = At;
  Fi.ApartAt = T.streams().apartAt(A.Stream, Prior.Stream);
  Out.emplace_back(std::move(Fi));
}

void Diagnoser::replay(const Fact &F, const fact::GraphReplay &X,
                       const StreamState &S) {
  auto It = S.Graphs.find(X.Graph);
  if (It == S.Graphs.end())
    return;
  Access Replay = T.accessOf(F, S);
  if (Replay.Stream == StreamTable::Unknown)
    return;
  // Each storage the graph uses is used on the replay stream, as captured.
  for (const CapturedAccess &C : It->second) {
    const TensorState *Found = S.Tensors.lookup(C.Storage);
    if (!Found)
      continue;
    Access A = Replay;
    A.Mode = C.Mode;
    A.CapturedAt = C.Site;
    A.Graph = C.Graph;
    if (const Access *Conflict = conflict(A, *Found, S))
      race(C.Named, C.Storage, A, *Conflict, S);
  }
}

void Diagnoser::hostAccess(const Fact &F, const TensorRef &Tensor, bool Write,
                           const StreamState &S) {
  std::optional<StorageId> Id = T.storageOf(Tensor, S);
  if (!Id)
    return;
  const TensorState *Found = S.Tensors.lookup(*Id);
  if (!Found || !Found->Host)
    return;
  // The host reads what a copy may still be writing, or writes what a copy
  // may still be reading.
  // Not what the device path left in device memory.
  auto Host = [](const AccessList &L) -> const Access * {
    for (const Access &A : L)
      if (!A.DeviceOnly)
        return &A;
    return nullptr;
  };
  const Access *Pending = Host(Found->Writes);
  if (!Pending && Write)
    Pending = Host(Found->Reads);
  if (!Pending || Pending->Stream == StreamTable::Unknown)
    return;
  finding::HostReadBeforeSync Fi;
  Fi.Tensor = T.nameOf(Tensor, Id);
  Fi.HostAccess = F.Site;
  Fi.Write = Write;
  Fi.Copy = info(*Pending);
  Out.emplace_back(std::move(Fi));
}

void Diagnoser::eventWait(const Fact &F, const fact::EventWait &X,
                          const StreamState &S,
                          llvm::ArrayRef<StreamState> Paths) {
  auto It = X.Event != NoVar ? S.Events.find(X.Event) : S.Events.end();
  if (It == S.Events.end() || It->second.MustRecorded ||
      (It->second.MayRecorded && X.RecordedLaterInLoop))
    return;
  // Recorded on some paths here: on this one, or on one kept apart from it.
  const EventState *Recorded = It->second.MayRecorded ? &It->second : nullptr;
  for (const StreamState &P : Paths)
    if (auto E = P.Events.find(X.Event);
        !Recorded && E != P.Events.end() && E->second.MayRecorded)
      Recorded = &E->second;
  if (Recorded && X.RecordedLaterInLoop)
    return;
  // A wait on the stream that every record of the event in the function is
  // made on orders nothing, recorded or not (stream order already does): a
  // missing record changes nothing (`if (n == warmup) start.record();` in
  // a timing loop, `start.wait()` on the same stream after it).
  StreamId W = T.streamOf(X.Stream, S);
  if (W != StreamTable::Unknown &&
      T.recordStreams(X.Event) == StreamTable::bit(W))
    return;
  // CUDA and PyTorch treat a wait on a never-recorded event as complete.
  finding::UnrecordedEventWait Fi;
  Fi.Event = X.Event;
  Fi.Wait = F.Site;
  Fi.Declared = It->second.Declared;
  Fi.RecordedOnSomePaths = Recorded != nullptr;
  Fi.SomePathsRecord = Recorded ? Recorded->LastRecord : NoSite;
  // Recorded by a thread this one has not waited for on the host.
  for (const HostRecords &R : S.Deferred)
    if (auto E = R.Events.find(X.Event);
        E != R.Events.end() && E->second.MayRecorded) {
      Fi.OtherThreadRecord = E->second.LastRecord;
      Fi.OtherThreadStart = R.Spawn;
    }
  Out.emplace_back(std::move(Fi));
}

void Diagnoser::threadCurrentStream(const Fact &F, const StreamState &S,
                                    bool Query) {
  // Work (or a getCurrentCUDAStream() call) in a thread body that still
  // runs on the default stream it started on, while its spawner had set a
  // stream of its own: the code relies on a stream the thread never had.
  if (S.ThreadStart == NoSite || S.CurrentSetAt != S.ThreadStart ||
      S.Current != StreamTable::Default || S.SpawnerSetAt == NoSite)
    return;
  // The caller's current stream, which every caller the project shows makes
  // a side stream: the set that counts is theirs.
  const Function &IR = T.function();
  bool CallersSide = S.SpawnerStream == StreamTable::EntryCurrent &&
                     IR.EntrySideSetAt != NoSite &&
                     S.SpawnerSetAt == IR.EntrySite;
  SiteKind How = IR.Sites[S.SpawnerSetAt].Kind;
  if (!CallersSide && How != SiteKind::GuardEnter &&
      How != SiteKind::SetCurrent)
    return;
  // An unknown stream may be either of those: precision first.
  if (S.SpawnerStream == StreamTable::Unknown ||
      S.SpawnerStream == StreamTable::Default ||
      (S.SpawnerStream == StreamTable::EntryCurrent && !CallersSide))
    return;
  finding::ThreadCurrentStream Fi;
  Fi.Work = F.Site;
  Fi.Query = Query;
  Fi.ThreadStart = S.ThreadStart;
  Fi.SpawnerStream = T.streams().describe(S.SpawnerStream);
  Fi.SpawnerSetAt = CallersSide ? IR.EntrySideSetAt : S.SpawnerSetAt;
  Out.emplace_back(std::move(Fi));
}

// A block freed while another stream may still use it, the allocator not
// told: the allocation stream's next allocation (\p Stream; none: the exit,
// after which the caller allocates) may be handed it while that stream
// still runs.
void Diagnoser::freedBlocks(const StreamState &S,
                            std::optional<StreamId> Stream) {
  const SiteTable &Sites = T.function().Sites;
  S.Tensors.forEachWhere(
      [](const PendingSummary &Sum) { return Sum.HasFreed; },
      [&](StorageId Id, const TensorState &Block) {
        if (!Block.Freed || (Stream && Block.AllocStream != *Stream))
          return;
        // One finding per other stream, at its last use there.
        std::map<StreamId, const Access *> Last;
        for (const Access &A : Block.CrossStreamUses) {
          const Access *&L = Last[A.Stream];
          if (!L || Sites[L->Site].Order < Sites[A.Site].Order)
            L = &A;
        }
        for (const auto &[Other, Use] : Last) {
          if (!JudgedFrees.insert({Block.FreedAt, Use->Site, Other}).second)
            continue; // met again on another path
          finding::MissingRecordStream Fi;
          Fi.Tensor = T.storage(Id).Named;
          Fi.LastForeignUse = info(*Use);
          Access Alloc;
          Alloc.Site = Block.AllocSite;
          Alloc.Via = Block.AllocVia;
          Alloc.Stream = Block.AllocStream;
          Alloc.Mode = AccessMode::Allocate;
          Fi.Allocation = info(Alloc);
          Fi.FreedAt = Block.FreedAt;
          Fi.AllocationAssumed = Block.AllocAssumed;
          Fi.SingleOtherStream = Last.size() == 1;
          Out.emplace_back(std::move(Fi));
          // Told where it was freed: the path then, the call it was in.
          const Transfer::FreeContext &C = T.freeContext(Block.FreedIn);
          Out.back().Path.assign(C.Path.begin(), C.Path.end());
          Out.back().CallSite = C.CallSite;
        }
      });
}

void Diagnoser::handBack(const Fact &F, const fact::EscapeTensor &X,
                         const StreamState &S) {
  // A tensor allocated on a side stream and handed back (returned, or kept
  // in the object for its other methods): the caller uses it on its current
  // stream, and when it lets go of it the caching allocator gives
  // the block back to the allocating stream, whose next work may overwrite it
  // while the caller's stream still reads it, unless it was recorded on the
  // caller's stream.
  std::optional<StorageId> Id = T.storageOf(X.Tensor, S);
  if (!Id)
    return;
  const TensorState *Found = S.Tensors.lookup(*Id);
  const StreamTable &Streams = T.streams();
  // Only a stream that outlives the call (an object's, a global) keeps
  // allocating from the block's pool after it: a prefetcher's, a loader's.
  if (!Found || Found->Host || Found->AllocSite == NoSite ||
      T.unnamedRecords() || !isHeldFresh(Streams.kind(Found->AllocStream)) ||
      !Streams.knownDistinct(Found->AllocStream, StreamTable::EntryCurrent) ||
      (Found->RecordedOn & StreamTable::bit(StreamTable::EntryCurrent)))
    return;
  finding::MissingRecordStream Fi;
  Fi.Tensor = T.nameOf(X.Tensor, Id);
  Access Use;
  Use.Site = F.Site;
  Use.Stream = StreamTable::EntryCurrent;
  Fi.LastForeignUse = info(Use);
  Access Alloc;
  Alloc.Site = Found->AllocSite;
  Alloc.Via = Found->AllocVia;
  Alloc.Stream = Found->AllocStream;
  Alloc.Mode = AccessMode::Allocate;
  Fi.Allocation = info(Alloc);
  Fi.HandedBack = true;
  Fi.KeptByObject = X.KeptByObject;
  Out.emplace_back(std::move(Fi));
}

void Diagnoser::atExit(const StreamState &S, SiteId Exit) {
  for (SiteId U : S.Unrestored) {
    finding::UnrestoredCurrentStream Fi;
    Fi.SetAt = U;
    Fi.Exit = Exit;
    Fi.DefaultAt = T.defaultSetBack(U);
    Out.emplace_back(std::move(Fi));
  }
}

} // namespace streamsafe
