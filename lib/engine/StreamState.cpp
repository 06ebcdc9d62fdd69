//===--- StreamState.cpp - The dataflow lattice ---------------------------===//

#include "lib/engine/StreamState.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <tuple>

namespace streamsafe {

bool StreamState::operator==(const StreamState &O) const {
  return Assumed == O.Assumed && sameBesidesAssumed(O);
}

bool StreamState::sameBesidesAssumed(const StreamState &O) const {
  return Reachable == O.Reachable && Current == O.Current &&
         CurrentSetAt == O.CurrentSetAt && CurrentDevice == O.CurrentDevice &&
         OtherDevices == O.OtherDevices && StreamVars == O.StreamVars &&
         NoneStreams == O.NoneStreams && TensorVars == O.TensorVars &&
         Tensors == O.Tensors && Events == O.Events && Guards == O.Guards &&
         Unrestored == O.Unrestored && Idle == O.Idle && Quiet == O.Quiet &&
         SelfWaits == O.SelfWaits && DefaultWaits == O.DefaultWaits &&
         ThreadStart == O.ThreadStart && SpawnerStream == O.SpawnerStream &&
         SpawnerSetAt == O.SpawnerSetAt && Deferred == O.Deferred &&
         Signalled == O.Signalled && Capture == O.Capture &&
         CaptureModes == O.CaptureModes && Uncaptured == O.Uncaptured &&
         Graphs == O.Graphs;
}

// Visible to one of the streams of \p Streams (bit per stream).
void TensorState::fill(const Region &Part) {
  if (!Blank || llvm::is_contained(Filled, Part))
    return;
  // A write of all of it, or of more parts than are worth keeping apart:
  // nothing of it is known blank.
  if (Part.K == Region::Whole || Part.K == Region::Some || Filled.size() >= 4) {
    Blank = false;
    Filled.clear();
    return;
  }
  Filled.push_back(Part);
}

static bool visibleToAny(const Access &A, uint64_t Streams) {
  return (StreamTable::bit(A.Stream) & Streams) || (A.VisibleTo & Streams);
}

bool EventState::covers(CoveredAccess C) const {
  if (!Snapshot)
    return std::binary_search(Covers.begin(), Covers.end(), C);
  const TensorState *T = Snapshot->lookup(C.first);
  if (!T)
    return false;
  for (const AccessList *L : {&T->Writes, &T->Reads, &T->CrossStreamUses})
    for (const Access &A : *L)
      if (A.Site == C.second && visibleToAny(A, MayBe))
        return true;
  return false;
}

void EventState::materialize() {
  if (!Snapshot)
    return;
  Covers.clear();
  Snapshot->forEachWhere([](const PendingSummary &S) { return S.Pending; },
                         [&](StorageId Id, const TensorState &T) {
                           for (const AccessList *L :
                                {&T.Writes, &T.Reads, &T.CrossStreamUses})
                             for (const Access &A : *L)
                               if (visibleToAny(A, MayBe))
                                 Covers.push_back({Id, A.Site});
                         });
  llvm::sort(Covers);
  Covers.erase(std::unique(Covers.begin(), Covers.end()), Covers.end());
  Snapshot.reset();
  RecordedOn = StreamTable::Unknown;
  MayBe = 0;
}

void EventState::forget(CoveredAccess C) {
  if (CoversAll || !covers(C))
    return;
  materialize();
  Covers.erase(std::lower_bound(Covers.begin(), Covers.end(), C));
}

// Whether access \p C is still in flight in \p Tensors.
static bool pendingIn(const TensorMap &Tensors, CoveredAccess C) {
  const TensorState *T = Tensors.lookup(C.first);
  if (!T)
    return false;
  for (const AccessList *L : {&T->Writes, &T->Reads, &T->CrossStreamUses})
    for (const Access &A : *L)
      if (A.Site == C.second)
        return true;
  return false;
}

void EventState::intersectCovers(const EventState &O, const TensorMap &Mine,
                                 const TensorMap &Theirs, bool Coarse) {
  // An access is covered after the paths meet when every path on which it
  // is in flight recorded after it; a record on an unknown stream
  // (CoversAll) is the top.
  if (O.CoversAll)
    return;
  if (CoversAll) {
    Snapshot = O.Snapshot;
    RecordedOn = O.RecordedOn;
    MayBe = O.MayBe;
    Covers = O.Covers;
    CoversAll = false;
    return;
  }
  if (Snapshot && O.Snapshot && RecordedOn == O.RecordedOn &&
      MayBe == O.MayBe && *Snapshot == *O.Snapshot)
    return;
  EventState Other = O;
  materialize();
  Other.materialize();
  // Coarse (a loop settling): only what both records covered, but for the
  // accesses of a storage the other path has no state of at all (a phi
  // made at this join, a value only one path made): once there, a storage
  // stays in a loop's growing state, so this stays monotone.
  llvm::SmallVector<CoveredAccess, 4> Both;
  for (const CoveredAccess &C : Covers)
    if (Other.covers(C) || (!Coarse && !pendingIn(Theirs, C)) ||
        (Coarse && !Theirs.lookup(C.first)))
      Both.push_back(C);
  for (const CoveredAccess &C : Other.Covers)
    if (!covers(C) && (Coarse ? !Mine.lookup(C.first) : !pendingIn(Mine, C)))
      Both.push_back(C);
  llvm::sort(Both);
  Covers = std::move(Both);
}

bool EventState::operator==(const EventState &O) const {
  return MustRecorded == O.MustRecorded && MayRecorded == O.MayRecorded &&
         CoversAll == O.CoversAll &&
         Snapshot.has_value() == O.Snapshot.has_value() &&
         (!Snapshot || (RecordedOn == O.RecordedOn && MayBe == O.MayBe &&
                        *Snapshot == *O.Snapshot)) &&
         Covers == O.Covers && LastRecord == O.LastRecord &&
         Declared == O.Declared;
}

// Two pending accesses on one stream, visible to the same streams, stay
// alike: whatever later orders or completes one does the same to the other
// (a record on their stream captures both, or, if made between them, only
// the older, which the newer then stands for). Lists are folded only when
// they grow long (a tensor read in every statement of a long function with
// no synchronisation), which keeps the blamed site of ordinary code.
void foldAlikeAccesses(AccessList &L) {
  constexpr unsigned KeepUpTo = 8;
  if (L.size() <= KeepUpTo)
    return;
  // Where the stream was set (OnCurrent, StreamSetAt) only tells the
  // story; the newer access's story is the one kept.
  auto Alike = [](const Access &A, const Access &B) {
    return A.Stream == B.Stream && A.VisibleTo == B.VisibleTo &&
           A.Mode == B.Mode && A.Part == B.Part;
  };
  AccessList Kept;
  for (auto It = L.rbegin(); It != L.rend(); ++It)
    if (llvm::none_of(Kept, [&](const Access &K) { return Alike(*It, K); }))
      Kept.push_back(*It);
  L.assign(Kept.rbegin(), Kept.rend());
}

void addOrReplaceAccess(AccessList &L, const Access &A) {
  for (Access &B : L)
    if (B.Site == A.Site) {
      B = A;
      return;
    }
  L.push_back(A);
  foldAlikeAccesses(L);
}

void joinAccesses(AccessList &Into, const AccessList &From) {
  for (const Access &A : From) {
    auto It = std::find_if(Into.begin(), Into.end(),
                           [&](const Access &B) { return B.Site == A.Site; });
    if (It == Into.end()) {
      Into.push_back(A);
      continue;
    }
    It->VisibleTo &= A.VisibleTo;
    It->DeviceOnly &= A.DeviceOnly;
    if (It->Part != A.Part)
      It->Part = Region::whole();
    if (It->Stream != A.Stream)
      It->Stream = StreamTable::Unknown;
  }
  std::sort(Into.begin(), Into.end(),
            [](const Access &L, const Access &R) { return L.Site < R.Site; });
}

// Keeps the entries of \p Into whose key is in \p From with an equal value.
template <typename Map> static void intersectEqual(Map &Into, const Map &From) {
  for (auto It = Into.begin(); It != Into.end();) {
    auto F = From.find(It->first);
    if (F == From.end() || !(F->second == It->second))
      It = Into.erase(It);
    else
      ++It;
  }
}

static void joinTensor(TensorState &Mine, const TensorState &T) {
  // One free of one block (Transfer::freedStorage) on both paths.
  if (T.Freed && Mine.Freed) {
    joinAccesses(Mine.CrossStreamUses, T.CrossStreamUses);
    return;
  }
  // One let-go of one held tensor (Transfer::leftStorage) on both paths.
  if (T.Left && Mine.Left) {
    joinAccesses(Mine.Writes, T.Writes);
    return;
  }
  if (T.Undefined)
    return;
  if (Mine.Undefined) {
    Mine = T;
    return;
  }
  // Host memory on one path, device memory on the other (`if
  // (m.is_cuda()) m = m.cpu();`, a loop that replaces a CPU tensor by an
  // op's result, an offload that keeps a chunk on either): the joined
  // tensor is host memory, whose host accesses are checked against what
  // the host path left in flight, the non_blocking copies into and out of
  // it. The device path's work is kept, marked DeviceOnly: host code never
  // races with device memory (joining it in as host work would invent a
  // pending copy), but a copy on a stream may, on that path.
  auto DeviceSide = [](AccessList L) {
    for (Access &A : L)
      A.DeviceOnly = true;
    return L;
  };
  if (Mine.Host == T.Host) {
    joinAccesses(Mine.Writes, T.Writes);
    joinAccesses(Mine.Reads, T.Reads);
    joinAccesses(Mine.CrossStreamUses, T.CrossStreamUses);
  } else if (!Mine.Host) {
    AccessList Writes = T.Writes, Reads = T.Reads;
    joinAccesses(Writes, DeviceSide(Mine.Writes));
    joinAccesses(Reads, DeviceSide(Mine.Reads));
    Mine.Writes = std::move(Writes);
    Mine.Reads = std::move(Reads);
    Mine.CrossStreamUses = T.CrossStreamUses;
  } else {
    joinAccesses(Mine.Writes, DeviceSide(T.Writes));
    joinAccesses(Mine.Reads, DeviceSide(T.Reads));
  }
  // Recorded on either path: its uses there are not reported (precision
  // first).
  Mine.RecordedOn |= T.RecordedOn;
  // Blank only where no path wrote it.
  if (!T.Blank) {
    Mine.Blank = false;
    Mine.Filled.clear();
  } else if (Mine.Blank) {
    for (const Region &R : T.Filled)
      Mine.fill(R);
  }
  // A block not made here on one path (a parameter, a field at entry) says
  // nothing of its pool: the other path's allocation is what is known of
  // it there. Two allocations on different streams: no one pool.
  auto Seen = [](const TensorState &X) {
    return X.AllocSite != NoSite && !X.AllocAssumed;
  };
  if (!Seen(Mine) && T.AllocSite != NoSite &&
      (Seen(T) || Mine.AllocSite == NoSite)) {
    Mine.AllocStream = T.AllocStream;
    Mine.AllocSite = T.AllocSite;
    Mine.AllocVia = T.AllocVia;
    Mine.AllocAssumed = T.AllocAssumed;
  } else if (Seen(T) && Mine.AllocStream != T.AllocStream) {
    Mine.AllocStream = StreamTable::Unknown;
  }
  Mine.Escaped |= T.Escaped;
  Mine.Held &= T.Held; // (a local on one path: not told apart)
  Mine.Host |= T.Host;
  Mine.Pinned |= T.Pinned;
  if (Mine.Device != T.Device)
    Mine.Device = EntryDevice;
}

// A device's current stream is known after a join only when both paths left
// the same one.
static void joinDeviceStreams(llvm::SmallVector<DeviceStream, 0> &Mine,
                              const llvm::SmallVector<DeviceStream, 0> &O) {
  for (DeviceStream &D : Mine) {
    const auto *F = llvm::find_if(
        O, [&](const DeviceStream &E) { return E.Device == D.Device; });
    if (F == O.end() || F->Stream != D.Stream) {
      D.Stream = StreamTable::Unknown;
      D.SetAt = NoSite;
    } else {
      D.SetAt = std::min(D.SetAt, F->SetAt);
    }
  }
  for (const DeviceStream &E : O)
    if (llvm::none_of(
            Mine, [&](const DeviceStream &D) { return D.Device == E.Device; }))
      Mine.push_back({E.Device, StreamTable::Unknown, NoSite});
}

// Union: a thread one path did not wait for is not waited for after the
// join. Records both paths hold of one thread: each event as either path
// may have left it (an event only one of them has is kept, which errs
// towards taking it as recorded).
static void joinHostRecords(HostRecordList &Into, const HostRecordList &From,
                            const TensorMap &Mine, const TensorMap &Theirs) {
  for (const HostRecords &R : From) {
    auto It =
        llvm::find_if(Into, [&](const HostRecords &H) { return H.sameKey(R); });
    if (It == Into.end()) {
      Into.push_back(R);
      continue;
    }
    for (const auto &[V, OE] : R.Events) {
      auto [E, New] = It->Events.try_emplace(V, OE);
      if (New || E->second == OE)
        continue;
      E->second.MustRecorded &= OE.MustRecorded;
      E->second.MayRecorded |= OE.MayRecorded;
      E->second.intersectCovers(OE, Mine, Theirs, /*Coarse=*/true);
      E->second.LastRecord = std::max(E->second.LastRecord, OE.LastRecord);
    }
  }
}

unsigned StreamState::join(
    const StreamState &O,
    const std::function<StorageId(VarId, VarId, StorageId)> &PhiFor,
    bool Coarse) {
  if (!O.Reachable)
    return 0;
  if (!Reachable) {
    *this = O;
    return 1;
  }
  if (Uncaptured || O.Uncaptured) {
    // Capturing on one path and not on the other, or two captures: the
    // capture is no longer followed (CaptureState::join), and what it
    // recorded is dropped.
    const CaptureState &C = Capture, &OC = O.Capture;
    bool Same = Uncaptured && O.Uncaptured && C.Begin == OC.Begin &&
                C.Origin == OC.Origin && C.Mode == OC.Mode;
    if (!Same) {
      if (Uncaptured)
        endCapturedTensors(*this);
      if (!O.Uncaptured)
        return join(O, PhiFor, Coarse);
      StreamState Settled = O;
      endCapturedTensors(Settled);
      return join(Settled, PhiFor, Coarse);
    }
  }
  unsigned Work = 1;
  const TensorMap MineTensors = Tensors; // as this path left them
  if (Current != O.Current) {
    Current = StreamTable::Unknown;
    CurrentSetAt = NoSite;
  } else if (CurrentSetAt != O.CurrentSetAt) {
    CurrentSetAt = std::min(CurrentSetAt, O.CurrentSetAt);
  }
  if (CurrentDevice != O.CurrentDevice)
    CurrentDevice = UnknownDevice;
  if (!OtherDevices.empty() || !O.OtherDevices.empty())
    joinDeviceStreams(OtherDevices, O.OtherDevices);
  for (SiteId U : O.Unrestored)
    if (!llvm::is_contained(Unrestored, U))
      Unrestored.push_back(U);
  llvm::sort(Unrestored);
  Idle &= O.Idle;
  Quiet.join(O.Quiet);
  for (auto [Mine, Theirs] : {std::pair{&SelfWaits, &O.SelfWaits},
                              std::pair{&DefaultWaits, &O.DefaultWaits}}) {
    for (const auto &W : *Theirs)
      if (llvm::none_of(*Mine,
                        [&](const auto &M) { return M.first == W.first; }))
        Mine->push_back(W);
    llvm::sort(*Mine);
  }
  Capture.join(O.Capture);
  CaptureModes.join(O.CaptureModes);
  // What both paths assumed still holds.
  llvm::erase_if(Assumed, [&](const Assumption &A) {
    return !llvm::is_contained(O.Assumed, A);
  });
  intersectEqual(StreamVars, O.StreamVars);
  llvm::erase_if(NoneStreams, [&](VarId V) {
    return !std::binary_search(O.NoneStreams.begin(), O.NoneStreams.end(), V);
  });
  // Variables that name different storages on the two paths (y = a on one,
  // y = b on the other; a loop's prev = prev.exp()) name a phi storage; the
  // others that differ (bound on one path only) are dropped. Only entries
  // that differ are visited: the two states share the rest.
  std::vector<std::pair<VarId, StorageId>> Phis;
  std::vector<VarId> Dropped;
  std::vector<std::pair<StorageId, TensorState>> PhiStates;
  // Variables bound to one storage on each path (a view and its base:
  // `b = torch.empty(...); v = b[1:]` in each branch) share one phi, so
  // they stay one storage after the join.
  std::map<std::pair<StorageId, StorageId>, VarId> FirstOfPair;
  // Each new phi, with the storages it joins (mine, theirs).
  std::vector<std::tuple<StorageId, StorageId, StorageId>> PhiSources;
  TensorVarMap::diff(
      TensorVars, O.TensorVars,
      [&](VarId V, const StorageId *Mine, const StorageId *Theirs) {
        ++Work;
        if (Mine)
          Unheld.push_back(*Mine);
        if (Theirs)
          Unheld.push_back(*Theirs);
        if (!Mine)
          return;
        if (!Theirs || !PhiFor) {
          Dropped.push_back(V);
          return;
        }
        // Unset on one path (a loop's first iteration, before `t =
        // self.buf`) and, on the other, a storage that both paths keep: the
        // variable names that storage, not a copy of it (whose rebinding
        // would look like the block's last reference dying).
        auto Unset = [](const TensorState *T) { return T && T->Undefined; };
        auto Kept = [&](StorageId Id) {
          return Tensors.lookup(Id) && O.Tensors.lookup(Id);
        };
        if (Unset(Tensors.lookup(*Mine)) && Kept(*Theirs)) {
          Phis.push_back({V, *Theirs});
          return;
        }
        if (Unset(O.Tensors.lookup(*Theirs)) && Kept(*Mine)) {
          Phis.push_back({V, *Mine});
          return;
        }
        auto [Pair, New] = FirstOfPair.try_emplace({*Mine, *Theirs}, V);
        if (!New) {
          Phis.push_back({V, PhiFor(V, Pair->second, *Mine)});
          return;
        }
        StorageId Phi = PhiFor(V, NoVar, *Mine);
        PhiSources.push_back({Phi, *Mine, *Theirs});
        TensorState Merged;
        bool Any = false;
        for (const TensorState *T :
             {Tensors.lookup(*Mine), O.Tensors.lookup(*Theirs)})
          if (T) {
            if (Any)
              joinTensor(Merged, *T);
            else
              Merged = *T;
            Any = true;
          }
        Phis.push_back({V, Phi});
        PhiStates.push_back({Phi, std::move(Merged)});
      });
  for (auto &[Phi, State] : PhiStates)
    Tensors.set(Phi, std::move(State));
  for (VarId V : Dropped)
    TensorVars.erase(V);
  for (const auto &[V, Phi] : Phis)
    TensorVars.set(V, Phi);
  // A guard alive on both paths restores what it saved on either: the
  // stream both saved, or an unknown one (dropping it would leave the
  // guard's own stream current after its scope).
  for (auto It = Guards.begin(); It != Guards.end();) {
    auto F = O.Guards.find(It->first);
    if (F == O.Guards.end()) {
      It = Guards.erase(It);
      continue;
    }
    GuardState &G = It->second;
    if (G.SavedDevice != F->second.SavedDevice)
      G.SavedDevice = UnknownDevice;
    G.DeviceGuard |= F->second.DeviceGuard;
    if (G.SwitchedDevice != F->second.SwitchedDevice) {
      G.SwitchedDevice = true;
      G.SavedDevice = UnknownDevice;
    }
    if (G.Saved != F->second.Saved) {
      G.Saved = StreamTable::Unknown;
      G.SavedSetAt = NoSite;
    } else {
      G.SavedSetAt = std::min(G.SavedSetAt, F->second.SavedSetAt);
    }
    ++It;
  }
  // Storages: union, joining those both paths know (not the phis, which
  // already hold both sides).
  Work += joinTensorMaps(Tensors, O.Tensors, [&](StorageId Id) {
    return llvm::any_of(PhiStates,
                        [&](const auto &P) { return P.first == Id; });
  });
  if (Uncaptured)
    Work += joinTensorMaps(*Uncaptured, *O.Uncaptured);
  joinGraphs(Graphs, O.Graphs);
  for (auto It = Events.begin(); It != Events.end();) {
    auto F = O.Events.find(It->first);
    if (F == O.Events.end()) {
      It = Events.erase(It);
      continue;
    }
    EventState &E = It->second;
    EventState OE = F->second;
    // A record after an access of a storage a phi now stands for covers
    // the phi's access at that site (`x = x.max(y)` in a loop after an
    // event chain: the phi of the first and the next value).
    if (!PhiSources.empty() && !E.CoversAll && !OE.CoversAll) {
      E.materialize();
      OE.materialize();
      auto Rename = [&](EventState &Ev, bool Mine) {
        size_t N = Ev.Covers.size();
        for (size_t K = 0; K < N; ++K)
          for (const auto &[Phi, M, T] : PhiSources)
            if (Ev.Covers[K].first == (Mine ? M : T))
              Ev.Covers.push_back({Phi, Ev.Covers[K].second});
        llvm::sort(Ev.Covers);
        Ev.Covers.erase(std::unique(Ev.Covers.begin(), Ev.Covers.end()),
                        Ev.Covers.end());
      };
      Rename(E, true);
      Rename(OE, false);
    }
    E.MustRecorded &= OE.MustRecorded;
    E.MayRecorded |= OE.MayRecorded;
    E.intersectCovers(OE, MineTensors, O.Tensors, Coarse);
    E.LastRecord = std::max(E.LastRecord, OE.LastRecord);
    ++It;
  }
  joinHostRecords(Deferred, O.Deferred, MineTensors, O.Tensors);
  joinHostRecords(Signalled, O.Signalled, MineTensors, O.Tensors);
  return Work;
}

unsigned joinTensorMaps(TensorMap &Into, const TensorMap &From,
                        const std::function<bool(StorageId)> &Skip) {
  unsigned Work = 0;
  TensorMap Before = Into; // keeps the trie being diffed alive
  TensorMap::diff(
      Before, From,
      [&](StorageId Id, const TensorState *Mine, const TensorState *Theirs) {
        ++Work;
        if (!Theirs)
          return;
        if (!Mine) {
          Into.set(Id, *Theirs);
          return;
        }
        if (Skip && Skip(Id))
          return;
        TensorState Joined = *Mine;
        joinTensor(Joined, *Theirs);
        Into.set(Id, std::move(Joined));
      });
  return Work;
}

} // namespace streamsafe
