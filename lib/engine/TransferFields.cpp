//===--- TransferFields.cpp - Object fields across methods ----------------===//
//
// A method starts from what the other methods of its object's class leave
// in the object's tensor fields (docs/design.md, "Object fields across
// methods"): the front end analyses each method once, reads what it leaves
// in flight at its exit (fieldsLeft), and hands the union to the others as
// carried writes, which their entry state binds (bindFields). Streams are
// carried by what names them across methods: the caller's current stream
// (every method of an object is taken to be called on the same one), a
// field stream (`self.copy_stream`), or else a stream of that method's own
// that no other method can name, which differs from every stream here.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Solver.h"
#include "lib/engine/Transfer.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe {

void Transfer::bindFields(StreamState &S) {
  unsigned Others = 0;
  for (const ObjectField &F : IR.Fields) {
    if (F.ViewOf != NoVar)
      continue;
    // Bound even when nothing is carried: a path that does not touch the
    // field still holds it where paths meet, so what another path leaves
    // in flight in it is not lost there.
    StorageId Id = storageFor(keyOf(KeySpace::Var, F.Var), F.Var, true);
    TensorState T;
    T.Escaped = true; // the object owns it
    T.Host = F.Host;
    T.Pinned = F.Pinned;
    for (const CarriedWrite &W : F.Carried) {
      Access A;
      A.Site = W.Site;
      A.Via = W.Exit;
      A.Mode = W.Read         ? AccessMode::Read
               : W.Allocation ? AccessMode::Allocate
                              : AccessMode::Write;
      if (W.OnOther)
        // Past the objects the facts use: a stream of its own.
        A.Stream =
            Streams.get(StreamKind::Pool,
                        keyOf(KeySpace::Object, IR.ObjectCount + Others++));
      else if (W.Stream != NoVar)
        A.Stream = streamOf(StreamRef::var(W.Stream), S);
      else
        A.Stream = StreamTable::EntryCurrent;
      if (A.Stream == StreamTable::Unknown)
        continue;
      A.OnCurrent = A.Stream == StreamTable::EntryCurrent;
      if (W.VisibleToEntry)
        A.VisibleTo |= StreamTable::bit(StreamTable::EntryCurrent);
      // Where the block was allocated: whose pool it belongs to, no work.
      // (Methods that disagree: no one stream.)
      if (W.Complete) {
        bool First = T.AllocSite == NoSite;
        T.AllocStream = First || T.AllocStream == A.Stream
                            ? A.Stream
                            : StreamTable::Unknown;
        T.AllocSite = First ? A.Site : T.AllocSite;
        continue;
      }
      AccessList &Into = W.Read ? T.Reads : T.Writes;
      if (!llvm::is_contained(Into, A))
        Into.push_back(A);
    }
    S.Tensors.set(Id, T);
    bindVar(S, F.Var, Id);
  }
  // Views of another field name its storage (what is carried is carried
  // there).
  for (const ObjectField &F : IR.Fields)
    if (F.ViewOf != NoVar)
      if (const StorageId *Base = S.TensorVars.lookup(F.ViewOf))
        bindVar(S, F.Var, *Base);
}

/// Whether an event field of the object was recorded after the access
/// at \p Site (on every path that recorded it).
static bool orderedByFieldEvent(const Function &IR, const StreamState &Exit,
                                SiteId Site) {
  for (VarId E : IR.FieldEvents) {
    auto It = Exit.Events.find(E);
    if (It == Exit.Events.end() || !It->second.MayRecorded)
      continue;
    EventState Copy = It->second;
    Copy.materialize();
    if (Copy.CoversAll || llvm::any_of(Copy.Covers, [&](CoveredAccess C) {
          return C.second == Site;
        }))
      return true;
  }
  return false;
}

std::vector<LeftWrite> Transfer::fieldsLeft(const StreamState &Exit) const {
  std::vector<LeftWrite> Out;
  if (!Exit.Reachable)
    return Out;
  // The stream as every method names it (false: one the next call cannot
  // tell from its own).
  auto Portable = [&](StreamId Id, LeftWrite &L) {
    if (Id == StreamTable::EntryCurrent)
      return true;
    // A stream the method stored in a field stream (`self.side =
    // torch.cuda.Stream()` in __init__): the field names it.
    for (const auto &[V, Held] : Exit.StreamVars)
      if (Held == Id && IR.var(V).Persistent &&
          IR.var(V).Proof != StreamProof::None) {
        L.Stream = V;
        return true;
      }
    StreamDesc D = Streams.describe(Id);
    if (isHeldFresh(D.Kind) && D.Named != NoVar)
      L.Stream = D.Named;
    else if (D.Kind == StreamKind::Pool || D.Kind == StreamKind::Created)
      L.OnOther = true;
    else
      return false;
    return true;
  };
  // An access of field \p Field still in flight at the exit.
  auto Leave = [&](VarId Field, const Access &A, bool Read) {
    LeftWrite L;
    L.Field = Field;
    L.Site = A.Site;
    L.Exit = IR.EntrySite;
    L.Read = Read;
    L.Allocation = A.Mode == AccessMode::Allocate;
    L.VisibleToEntry = A.visibleTo(StreamTable::EntryCurrent);
    if (Portable(A.Stream, L))
      Out.push_back(L);
  };
  for (const ObjectField &F : IR.Fields) {
    const StorageId *Id = Exit.TensorVars.lookup(F.Var);
    const TensorState *T = Id ? Exit.Tensors.lookup(*Id) : nullptr;
    if (!T)
      continue;
    for (const Access &A : T->Writes) {
      // Host memory an async copy fills is handed on under a contract the
      // next method cannot see (sync the event the copy recorded before
      // reading it): its copies are not carried, only device work.
      if (A.Mode == AccessMode::EntryReady ||
          A.Stream == StreamTable::Unknown || (T->Host && !A.DeviceOnly) ||
          orderedByFieldEvent(IR, Exit, A.Site))
        continue;
      Leave(F.Var, A, /*Read=*/false);
    }
    // Reads still in flight (a reduction on a side stream, an async copy
    // out of a pinned buffer): the next call may write the field under
    // them. One on the caller's current stream orders the next call's
    // device work, not its host writes.
    for (const Access &A : T->Reads) {
      if (A.Stream == StreamTable::Unknown ||
          (A.Stream == StreamTable::EntryCurrent && !T->Host) ||
          orderedByFieldEvent(IR, Exit, A.Site))
        continue;
      Leave(F.Var, A, /*Read=*/true);
    }
    // Where its block was allocated: the block stays that stream's, and a
    // caller it is handed to must record it on its own stream.
    if (T->AllocSite != NoSite && !T->Host &&
        T->AllocStream != StreamTable::EntryCurrent &&
        T->AllocStream != StreamTable::Unknown) {
      LeftWrite L;
      L.Field = F.Var;
      L.Site = T->AllocSite;
      L.Exit = IR.EntrySite;
      L.Allocation = L.Complete = true;
      if (Portable(T->AllocStream, L))
        Out.push_back(L);
    }
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](const LeftWrite &A, const LeftWrite &B) {
                          return !(A < B) && !(B < A);
                        }),
            Out.end());
  return Out;
}

} // namespace streamsafe
