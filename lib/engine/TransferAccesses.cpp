//===--- TransferAccesses.cpp - Accesses, variables and lifetimes ---------===//
//
// Happens-before per tensor storage, in the spirit of PyTorch's CUDA
// sanitizer (torch/cuda/_sanitizer.py) but over symbolic streams: each
// storage keeps its pending writes and reads, each with the streams it is
// already visible to, and the uses on streams other than its allocation
// stream that the caching allocator does not know of.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

namespace streamsafe {

// Events are few (a handful per function): a linear sweep, and a snapshot
// is materialized only when it covered the same site's earlier access.
static void forgetCovers(StreamState &S, CoveredAccess C) {
  for (auto &[Var, E] : S.Events)
    E.forget(C);
}

void Transfer::apply(const Fact &F, const fact::Allocate &X, StreamState &S) {
  Access A = accessOf(F, S);
  // The blocks freed back to this stream may be handed out now (the
  // Diagnoser judged them before this fact).
  if (!X.Host && !X.Unowned)
    reuseFreed(S, A.Stream);
  std::optional<StorageId> Into = X.Into ? storageOf(X.Into, S) : std::nullopt;
  if (X.Into && !Into)
    return; // a tensor not followed
  StorageId Id =
      Into ? *Into
           : storageFor(keyOf(KeySpace::Object, X.Result), NoVar, false);
  // Re-allocated in place: the old block, if any, goes back to the
  // allocator; the names (and who holds them) stay.
  const TensorState *Old = Into ? S.Tensors.lookup(*Into) : nullptr;
  if (Old && !Old->Undefined && owesUses(*Old, /*Explicit=*/true))
    S.Tensors.set(freedStorage(Id, F.Site), freedBlock(*Old, F.Site, Id, S));
  bool Escaped = Old && Old->Escaped;
  bool Host = X.Host;
  if (std::optional<StorageId> Src =
          X.Like ? storageOf(X.Like, S) : std::nullopt)
    if (const TensorState *T = S.Tensors.lookup(*Src))
      Host |= T->Host;
  TensorState Fresh;
  Fresh.AllocStream = X.Unowned || Host ? StreamTable::Unknown : A.Stream;
  Fresh.AllocSite = F.Site;
  Fresh.AllocVia = A.Via;
  Fresh.Host = Host;
  Fresh.Held = X.Held;
  Fresh.Pinned = X.Pinned;
  Fresh.Blank = X.AllocateOnly && !Host;
  if (X.Stream.Device != StreamRef::NoDevice)
    Fresh.Device = X.Stream.Device;
  else if (std::optional<StorageId> Src =
               X.Like && TensorsOnDevices ? storageOf(X.Like, S) : std::nullopt)
    if (const TensorState *T = S.Tensors.lookup(*Src))
      Fresh.Device = T->Device;
  // A host result of a blocking copy is complete; of a non_blocking one, the
  // copy may still be running. A block handed out on a stream that is idle
  // (synchronized, nothing enqueued since) has no earlier user left
  // running: an allocation alone leaves nothing pending.
  bool IdleAlloc = !Host && X.AllocateOnly &&
                   A.Stream != StreamTable::Unknown &&
                   (S.Idle & StreamTable::bit(A.Stream));
  // Nor is it pending for a stream that waited for all of A's stream's
  // work, nothing enqueued there since (QuietOrders.h). An allocation with
  // values (zeros, full) queues a kernel: the stream is busy again.
  if (!Host && X.AllocateOnly && A.Stream != StreamTable::Unknown)
    A.VisibleTo |= S.Quiet.waitersOf(A.Stream);
  if (!Host && !X.AllocateOnly) {
    if (A.Stream != StreamTable::Unknown)
      S.Idle &= ~StreamTable::bit(A.Stream);
    S.Quiet.enqueued(A.Stream);
  }
  // A held tensor was not made here: what last wrote it is not known (not
  // a write now, which a wait at the entry would not cover).
  if ((!Host || (X.Async && X.Pinned)) && !IdleAlloc && !X.Held)
    Fresh.Writes.push_back(A);
  forgetCovers(S, {Id, F.Site});
  Fresh.Escaped = Escaped;
  S.Tensors.set(Id, Fresh);
  if (!Into)
    S.Unheld.push_back(Id); // a temporary until a variable takes it
}

void Transfer::apply(const Fact &, const fact::HostByUse &X, StreamState &S) {
  std::optional<StorageId> Id = storageOf(X.Tensor, S);
  if (!Id)
    return;
  TensorState T = S.Tensors.get(*Id);
  // Made where the analysis saw its stream: it knows where it lives. (Code
  // it does not see makes its results on no known stream.)
  if ((T.AllocSite != NoSite && !T.AllocAssumed &&
       T.AllocStream != StreamTable::Unknown) ||
      T.Host || T.Undefined)
    return;
  // Host memory the caller or unseen code filled: host code wrote it, and
  // that is complete; no device work is pending on it.
  T.Host = true;
  T.Pinned = X.Pinned;
  if (T.AllocAssumed)
    T.AllocStream = StreamTable::Unknown; // not the caching allocator's
  T.Writes.clear();
  T.Reads.clear();
  T.CrossStreamUses.clear();
  S.Tensors.set(*Id, std::move(T));
}

void Transfer::apply(const Fact &F, const fact::Free &X, StreamState &S) {
  std::optional<StorageId> Id = storageOf(X.Tensor, S);
  if (!Id)
    return;
  const TensorState *Found = S.Tensors.lookup(*Id);
  if (!Found || Found->Undefined)
    return;
  // Freed while named (whoever else holds it): the block goes back to the
  // allocator, owing what other streams still do with it.
  if (owesUses(*Found, /*Explicit=*/true))
    S.Tensors.set(freedStorage(*Id, F.Site),
                  freedBlock(*Found, F.Site, *Id, S));
  TensorState None;
  None.Undefined = true;
  S.Tensors.set(*Id, None);
  if (S.Uncaptured)
    S.Uncaptured->erase(*Id);
}

bool Transfer::owesUses(const TensorState &T, bool Explicit) const {
  return (!T.Escaped || Explicit) && T.AllocStream != StreamTable::Unknown &&
         !T.CrossStreamUses.empty();
}

StorageId Transfer::freedStorage(StorageId Of, SiteId At) {
  unsigned Key =
      FreedKeys.try_emplace({Of, At}, FreedKeys.size()).first->second;
  return storageFor(keyOf(KeySpace::Freed, Key), Storages[Of].Named,
                    /*Persistent=*/false);
}

TensorState Transfer::freedBlock(const TensorState &T, SiteId At,
                                 StorageId From, const StreamState &S) {
  // Judged at the allocation stream's next allocation (or the exit): a
  // wait of that stream before then orders the uses first.
  TensorState B;
  B.Undefined = B.Freed = true;
  B.FreedAt = At;
  B.FreedFrom = From;
  FreeContext C;
  C.Path.assign(S.Assumed.begin(), S.Assumed.end());
  C.CallSite = CallSiteNow ? CallSiteNow() : NoSite;
  auto It = llvm::find(Contexts, C);
  B.FreedIn = It - Contexts.begin();
  if (It == Contexts.end())
    Contexts.push_back(std::move(C));
  B.AllocStream = T.AllocStream;
  B.AllocSite = T.AllocSite;
  B.AllocVia = T.AllocVia;
  B.AllocAssumed = T.AllocAssumed;
  B.CrossStreamUses = T.CrossStreamUses;
  B.RecordedOn = T.RecordedOn;
  return B;
}

void Transfer::reuseFreed(StreamState &S, StreamId Stream) {
  std::vector<StorageId> Reused;
  S.Tensors.forEachWhere([](const PendingSummary &Sum) { return Sum.HasFreed; },
                         [&](StorageId Id, const TensorState &T) {
                           if (T.Freed && T.AllocStream == Stream)
                             Reused.push_back(Id);
                         });
  for (StorageId Id : Reused)
    S.Tensors.erase(Id);
}

void Transfer::holdsNone(StreamState &S, VarId Var) {
  const StorageId *Bound = S.TensorVars.lookup(Var);
  if (!Bound)
    return;
  // Every name bound to it holds the same None: the storage is no memory
  // on these paths, and where they meet others it is what those hold.
  TensorState None;
  None.Undefined = true;
  S.Tensors.set(*Bound, None);
}

void Transfer::apply(const Fact &F, const fact::Access &X, StreamState &S) {
  std::optional<StorageId> Id = storageOf(X.Tensor, S);
  if (!Id)
    return;
  TensorState T = S.Tensors.get(*Id);
  // An op on a host tensor runs in host code, now (the Diagnoser checks
  // it); a blocking copy is completed by the StreamSync that follows it.
  if (T.Host && (!X.Copy || !X.Async || !T.Pinned))
    return;
  enqueue(*Id, std::move(T), accessOf(F, S), S);
}

void Transfer::enqueue(StorageId Id, TensorState T, const Access &A,
                       StreamState &S) {
  forgetCovers(S, {Id, A.Site});
  if (A.Stream != StreamTable::Unknown)
    S.Idle &= ~StreamTable::bit(A.Stream);
  S.Quiet.enqueued(A.Stream);
  // Is the access ordered after every write? (If not, unsynchronized-access
  // reports it, and that is the finding to fix first.)
  bool Ordered = llvm::all_of(
      T.Writes, [&](const Access &W) { return W.visibleTo(A.Stream); });
  if (A.Mode == AccessMode::Read) {
    addOrReplaceAccess(T.Reads, A);
  } else {
    // A write orders nothing: it only replaces, as what later accesses
    // must wait for, the accesses to the part it overwrites.
    auto Covered = [&](const Access &P) { return A.Part.contains(P.Part); };
    llvm::erase_if(T.Writes, Covered);
    llvm::erase_if(T.Reads, Covered);
    T.Writes.push_back(A);
    T.fill(A.Part);
  }
  // Uses on a stream other than the allocation stream are what the caching
  // allocator must be told of (record_stream) before the block is freed.
  // A use on the caller's current stream (or the default stream) counts
  // only for a block of a side stream this function made (pool, created)
  // or one a member only ever holds:
  // that block is handed out again to the side stream's next allocation
  // while the current stream may still read it. A block the function hands
  // back (returns, stores) is the caller's to free, so it is not reported.
  StreamKind K = Streams.kind(A.Stream);
  StreamKind AllocK = Streams.kind(T.AllocStream);
  bool SideBlock = AllocK == StreamKind::Pool ||
                   AllocK == StreamKind::Created || isHeldFresh(AllocK);
  if (T.AllocStream != StreamTable::Unknown &&
      !(T.RecordedOn & StreamTable::bit(A.Stream)) &&
      ((K != StreamKind::EntryCurrent && K != StreamKind::Default) ||
       (SideBlock && Ordered)) &&
      Streams.knownDistinct(A.Stream, T.AllocStream))
    addOrReplaceAccess(T.CrossStreamUses, A);
  S.Tensors.set(Id, std::move(T));
}

void Transfer::apply(const Fact &F, const fact::BindTensor &X, StreamState &S) {
  std::optional<StorageId> New;
  if (X.Value)
    New = storageOf(X.Value, S);
  if (!New) {
    // An undefined tensor, or one from code we do not model: a storage of
    // its own with nothing pending and no known allocation stream.
    New = storageFor(keyOf(KeySpace::Var, X.Var), X.Var, true);
    TensorState Opaque;
    // No value at all (`at::Tensor t;`, `= at::Tensor()`) holds no memory;
    // a value from code we do not model may be held elsewhere.
    Opaque.Undefined = !X.Value;
    Opaque.Escaped = !Opaque.Undefined;
    S.Tensors.set(*New, Opaque);
  }
  if (Storages[*New].Named == NoVar && !IR.var(X.Var).Synthetic)
    Storages[*New].Named = X.Var;
  std::optional<StorageId> Old;
  if (const StorageId *Bound = S.TensorVars.lookup(X.Var))
    Old = *Bound;
  bindVar(S, X.Var, *New);
  if (Old && *Old != *New) {
    S.Unheld.push_back(*Old);
    release(*Old, F.Site, S);
  }
}

void Transfer::apply(const Fact &, const fact::BindStream &X, StreamState &S) {
  StreamId Id = streamOf(X.Value, S);
  // A front end's own variable (a stream it saved) names nothing the user
  // wrote.
  if (!IR.var(X.Var).Synthetic || !IR.var(X.Var).Name.empty())
    Streams.nameBy(Id, X.Var);
  S.StreamVars[X.Var] = Id;
  auto None = llvm::lower_bound(S.NoneStreams, X.Var);
  bool Listed = None != S.NoneStreams.end() && *None == X.Var;
  if (X.None && !Listed)
    S.NoneStreams.insert(None, X.Var);
  else if (!X.None && Listed)
    S.NoneStreams.erase(None);
}

void Transfer::apply(const Fact &F, const fact::BindEvent &X, StreamState &S) {
  // The same event under another name: what was recorded on it holds.
  if (X.From != NoVar && X.From != X.Var) {
    auto It = S.Events.find(X.From);
    if (It == S.Events.end()) {
      S.Events.erase(X.Var);
      return;
    }
    EventState E = It->second;
    S.Events[X.Var] = std::move(E);
    return;
  }
  // Only events born here are followed: one copied, moved or loaded from
  // elsewhere may have been recorded there.
  if (!X.Fresh) {
    S.Events.erase(X.Var);
    return;
  }
  EventState E;
  E.Declared = F.Site;
  S.Events[X.Var] = E;
}

void Transfer::apply(const Fact &F, const fact::Unbind &X, StreamState &S) {
  S.StreamVars.erase(X.Var);
  llvm::erase(S.NoneStreams, X.Var);
  S.Events.erase(X.Var);
  const StorageId *Bound = S.TensorVars.lookup(X.Var);
  if (!Bound)
    return;
  StorageId Id = *Bound;
  S.TensorVars.erase(X.Var);
  S.Unheld.push_back(Id);
  release(Id, F.Site, S);
}

void Transfer::apply(const Fact &, const fact::EscapeTensor &X,
                     StreamState &S) {
  std::optional<StorageId> Id = storageOf(X.Tensor, S);
  if (!Id)
    return;
  TensorState T = S.Tensors.get(*Id);
  T.Escaped = true;
  S.Tensors.set(*Id, std::move(T));
}

void Transfer::apply(const Fact &, const fact::EscapeEvent &X, StreamState &S) {
  if (X.Event != NoVar)
    S.Events.erase(X.Event);
}

void Transfer::apply(const Fact &, const fact::RecordStream &X,
                     StreamState &S) {
  std::optional<StorageId> Id = storageOf(X.Tensor, S);
  if (!Id) {
    UnnamedRecords = true;
    return;
  }
  StreamId B = streamOf(X.Stream, S);
  TensorState T = S.Tensors.get(*Id);
  // Recorded on a storage the analysis did not see made (an element of a
  // braced list of tensors, a copy): it may be one made here.
  if (T.AllocSite == NoSite || T.AllocAssumed)
    UnnamedRecords = true;
  llvm::erase_if(T.CrossStreamUses, [&](const Access &A) {
    return B == StreamTable::Unknown || A.visibleTo(B);
  });
  T.RecordedOn |=
      B == StreamTable::Unknown ? ~uint64_t(0) : StreamTable::bit(B);
  S.Tensors.set(*Id, std::move(T));
}

// The last reference to a storage died at \p At: the Diagnoser hears of it
// (another stream may still use the block) before the storage is dropped.
void Transfer::release(StorageId Id, SiteId At, StreamState &S) {
  if (held(S, Id, /*Owning=*/true))
    return;
  // While capturing, the block is freed now, with the work that runs now
  // (not its captured work) perhaps still using it.
  const TensorState *Found = S.Tensors.lookup(Id);
  if (S.Uncaptured)
    if (const TensorState *Now = S.Uncaptured->lookup(Id))
      Found = Now;
  if (!Found)
    return;
  if (owesUses(*Found, /*Explicit=*/false))
    S.Tensors.set(freedStorage(Id, At), freedBlock(*Found, At, Id, S));
  // The caller's tensor lives on with what this function left in flight
  // in it: judged at the exit, after the waits still to come.
  if (Found->Held && !Found->Writes.empty() && !Found->Host) {
    TensorState L;
    L.Undefined = L.Left = L.Held = true;
    L.FreedAt = At;
    L.FreedFrom = Id;
    L.Writes = Found->Writes;
    S.Tensors.set(freedStorage(Id, At), std::move(L));
  }
  S.Tensors.erase(Id);
  if (S.Uncaptured)
    S.Uncaptured->erase(Id);
}

void Transfer::collectGarbage(StreamState &S) {
  // Only the storages that lost a variable or were created since the last
  // collection can have become garbage; held() asks only their binders.
  auto Collect = [&](StorageId Id) {
    ++Work;
    if (Storages[Id].Persistent || held(S, Id, /*Owning=*/false))
      return;
    if (const TensorState *T = S.Tensors.lookup(Id);
        T && ((T->Freed && !T->CrossStreamUses.empty()) ||
              (T->Left && !T->Writes.empty())))
      return; // a freed block, judged at its stream's next allocation; a
              // held tensor let go of, at the exit
    S.Tensors.erase(Id);
    if (S.Uncaptured)
      S.Uncaptured->erase(Id);
  };
  if (S.CollectAll) {
    std::vector<StorageId> All;
    S.Tensors.forEach(
        [&](StorageId Id, const TensorState &) { All.push_back(Id); });
    llvm::for_each(All, Collect);
  } else {
    llvm::sort(S.Unheld);
    S.Unheld.erase(std::unique(S.Unheld.begin(), S.Unheld.end()),
                   S.Unheld.end());
    llvm::for_each(S.Unheld, Collect);
  }
  S.Unheld.clear();
  S.CollectAll = false;
}

void Transfer::apply(const Fact &F, StreamState &S) {
  auto Visit = [&] {
    std::visit([&](const auto &X) { apply(F, X, S); }, F.What);
  };
  // Functions that capture nothing pay one test per fact.
  if (!S.Capture.active())
    return Visit();
  followCapture(F, S);
  if (!S.Uncaptured)
    return Visit();
  // Work that runs now acts on the tensors as they are now; a record_stream
  // tells the allocator of both its work now and at the replays, and a host
  // allocation makes memory both kinds of work may copy to.
  bool Both = F.as<fact::RecordStream>() ||
              (F.as<fact::Allocate>() && !isDeviceWork(F, S));
  if (Both)
    Visit();
  if (Both || runsNow(F, S)) {
    std::swap(S.Tensors, *S.Uncaptured);
    Visit();
    std::swap(S.Tensors, *S.Uncaptured);
    return;
  }
  Visit();
}

} // namespace streamsafe
