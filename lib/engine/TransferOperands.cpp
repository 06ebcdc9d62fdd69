//===--- TransferOperands.cpp - Operands against the state ----------------===//
//
// Which storage a tensor operand denotes and which stream symbol a stream
// operand denotes, on the path a state describes. The front end resolved
// all the syntax (views, casts, accessors); what is left depends on the path.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe {

Transfer::Transfer(const Function &IR) : IR(IR) {
  if (IR.EntrySideSetAt != NoSite)
    Streams.entryIsSide(IR.EntrySideSetAt);
  // The side streams (parameters, locals) an event is recorded on and then
  // waited by in one block: `s2.wait_stream(s1)` anywhere in the function
  // says s1 and s2 differ, on every path (they are bound once).
  auto SideVar = [&](const StreamRef &R) {
    if (R.K == StreamRef::Side)
      return VarId(R.Id);
    if (R.K != StreamRef::Var)
      return NoVar;
    StreamProof P = IR.var(R.Id).Proof;
    bool Side = P == StreamProof::SideLocal ||
                (P == StreamProof::SideParameter &&
                 llvm::is_contained(IR.Params, VarId(R.Id)));
    return Side ? VarId(R.Id) : NoVar;
  };
  for (const Body &B : IR.Bodies)
    for (const Block &Bl : B.Blocks) {
      llvm::SmallDenseMap<VarId, VarId, 4> RecordedOn;
      for (const Fact &F : Bl.Facts) {
        if (const auto *A = F.as<fact::Allocate>();
            A && A->Stream.Device != StreamRef::NoDevice)
          TensorsOnDevices = true;
        if (const auto *R = F.as<fact::EventRecord>(); R && R->Event != NoVar)
          RecordedOn[R->Event] = SideVar(R->Stream);
        if (const auto *W = F.as<fact::EventWait>(); W && W->Event != NoVar) {
          auto On = RecordedOn.find(W->Event);
          VarId By = SideVar(W->Stream);
          if (On != RecordedOn.end() && On->second != NoVar && By != NoVar)
            Streams.orderedApart(On->second, By, F.Site);
        }
      }
    }
}

StorageId Transfer::storageFor(uint64_t Key, VarId Named, bool Persistent) {
  auto It = StorageByKey.find(Key);
  if (It != StorageByKey.end())
    return It->second;
  Storages.push_back({Key, Named, Persistent, {}});
  StorageId Id = static_cast<StorageId>(Storages.size() - 1);
  StorageByKey[Key] = Id;
  return Id;
}

StorageId Transfer::phiFor(VarId V, VarId SameAs, StorageId From) {
  VarId Key = SameAs == NoVar ? V : SameAs;
  StorageId Id =
      storageFor(keyOf(KeySpace::Phi, Key), Key, /*Persistent=*/false);
  if (SameAs == NoVar)
    Storages[Id].Named = Key;
  if (Storages[From].Named == V)
    Storages[Id].Named = V;
  if (!llvm::is_contained(Storages[Id].Binders, V))
    Storages[Id].Binders.push_back(V);
  return Id;
}

void Transfer::bindVar(StreamState &S, VarId V, StorageId Id) {
  S.TensorVars.set(V, Id);
  if (!llvm::is_contained(Storages[Id].Binders, V))
    Storages[Id].Binders.push_back(V);
}

bool Transfer::held(const StreamState &S, StorageId Id, bool Owning) const {
  for (VarId V : Storages[Id].Binders) {
    const StorageId *Bound = S.TensorVars.lookup(V);
    if (Bound && *Bound == Id && !(Owning && IR.var(V).Reference))
      return true;
  }
  return false;
}

StreamState Transfer::entryState() {
  StreamState S;
  S.Reachable = true;
  S.Current =
      IR.EntryOnNewThread ? StreamTable::Default : StreamTable::EntryCurrent;
  S.CurrentSetAt = IR.EntrySite;
  for (const VarId &P : IR.Params) {
    const Variable &V = IR.var(P);
    if (V.Class == VarClass::Tensor) {
      StorageId Id = storageFor(keyOf(KeySpace::Var, P), P, true);
      TensorState T;
      SiteId At = IR.ParamSites[&P - IR.Params.data()];
      // The caller made it on its current stream, where it is ready; it
      // keeps a reference unless it hands this one over.
      T.Escaped = !V.HandedOver;
      T.AllocStream = StreamTable::EntryCurrent;
      T.AllocSite = At;
      T.AllocAssumed = !V.HandedOver; // autograd made that one there
      T.Held = !V.HandedOver;
      Access Ready;
      Ready.Site = At;
      Ready.Stream = StreamTable::EntryCurrent;
      Ready.Mode = AccessMode::EntryReady;
      Ready.StreamSetAt = IR.EntrySite;
      T.Writes.push_back(Ready);
      S.Tensors.set(Id, T);
      bindVar(S, P, Id);
    } else if (V.Class == VarClass::Stream) {
      StreamId Id = Streams.get(V.Proof == StreamProof::SideParameter
                                    ? StreamKind::SideParameter
                                    : StreamKind::Parameter,
                                keyOf(KeySpace::Var, P));
      Streams.nameBy(Id, P);
      Streams.setProvenAt(Id, V.ProvenAt);
      S.StreamVars[P] = Id;
    }
  }
  bindFields(S);
  return S;
}

std::optional<StorageId> Transfer::storageOf(const TensorRef &T,
                                             const StreamState &S) {
  switch (T.K) {
  case TensorRef::None:
    return std::nullopt;
  case TensorRef::Var:
    if (const StorageId *Bound = S.TensorVars.lookup(T.Id))
      return *Bound;
    if (IR.var(T.Id).Persistent)
      return storageFor(keyOf(KeySpace::Var, T.Id), T.Id, true);
    return std::nullopt;
  case TensorRef::Result: {
    auto It = StorageByKey.find(keyOf(KeySpace::Object, T.Id));
    if (It != StorageByKey.end() && S.Tensors.contains(It->second))
      return It->second;
    return std::nullopt;
  }
  }
  llvm_unreachable("every tensor operand kind is handled");
}

VarId Transfer::nameOf(const TensorRef &T, std::optional<StorageId> Id) const {
  VarId Storage = Id ? Storages[*Id].Named : NoVar;
  // What a helper returned (`h.result()`) is named by what it holds, when
  // that has a name of its own (`self.buf`).
  if (T.Named != NoVar && IR.var(T.Named).Synthetic && Storage != NoVar &&
      !IR.var(Storage).Synthetic)
    return Storage;
  if (T.Named != NoVar)
    return T.Named;
  return Storage;
}

/// The symbol kind of a persistent stream variable (a member, a global).
static StreamKind heldKind(StreamProof P) {
  switch (P) {
  case StreamProof::Member:
    return StreamKind::Member;
  case StreamProof::Attribute:
  case StreamProof::SideAttribute:
  case StreamProof::SharedAttribute:
    return StreamKind::Attribute;
  case StreamProof::Global:
    return StreamKind::Global;
  case StreamProof::None:
  case StreamProof::SideParameter: // a parameter is never persistent
  case StreamProof::SideLocal:     // nor is a local
    return StreamKind::Other;
  }
  llvm_unreachable("every proof is handled");
}

StreamId Transfer::streamOf(const StreamRef &R, const StreamState &S) {
  switch (R.K) {
  case StreamRef::Current:
  case StreamRef::Queried:
    if (R.Device != StreamRef::NoDevice)
      return deviceCurrent(R.Device, S).first;
    return S.Current;
  case StreamRef::Unknown:
    return StreamTable::Unknown;
  case StreamRef::Default:
    return StreamTable::Default;
  case StreamRef::Var: {
    auto It = S.StreamVars.find(R.Id);
    if (It != S.StreamVars.end())
      return It->second;
    if (!IR.var(R.Id).Persistent)
      return StreamTable::Unknown;
    const Variable &V = IR.var(R.Id);
    StreamId Id = Streams.get(heldKind(V.Proof), keyOf(KeySpace::Var, R.Id));
    Streams.nameBy(Id, R.Id);
    Streams.setProvenAt(Id, V.ProvenAt);
    return Id;
  }
  case StreamRef::Pool: {
    StreamId Id = Streams.get(StreamKind::Pool, keyOf(KeySpace::Object, R.Id));
    if (R.Device >= 0)
      Streams.setDevice(Id, R.Device);
    return Id;
  }
  case StreamRef::Created:
    return Streams.get(StreamKind::Created, keyOf(KeySpace::Object, R.Id));
  case StreamRef::Collective: {
    StreamId Id =
        Streams.get(StreamKind::Collective, keyOf(KeySpace::Var, R.Id));
    Streams.nameBy(Id, R.Id);
    return Id;
  }
  case StreamRef::Side: {
    // One symbol per local: the function binds it once.
    StreamId Id =
        Streams.get(StreamKind::SideLocal, keyOf(KeySpace::Var, R.Id));
    Streams.nameBy(Id, R.Id);
    Streams.setProvenAt(Id, IR.var(R.Id).ProvenAt);
    return Id;
  }
  case StreamRef::Other: {
    StreamId Id = Streams.get(StreamKind::Other, keyOf(KeySpace::Object, R.Id));
    if (R.Named != NoVar)
      Streams.nameBy(Id, R.Named);
    return Id;
  }
  }
  llvm_unreachable("every stream operand kind is handled");
}

Access Transfer::accessOf(const Fact &F, const StreamState &S) {
  Access A;
  A.Site = F.Site;
  A.Via = OuterCall;
  StreamRef Ref;
  if (const auto *Acc = F.as<fact::Access>()) {
    A.Mode = Acc->Write ? AccessMode::Write : AccessMode::Read;
    A.Part = Acc->Tensor.Part;
    if (Acc->FillsIfBlank && !Acc->Write)
      if (std::optional<StorageId> Id = storageOf(Acc->Tensor, S))
        if (const TensorState *T = S.Tensors.lookup(*Id);
            T && !T->Host && T->blank(A.Part))
          A.Mode = AccessMode::Fill;
    Ref = Acc->Stream;
    // An ATen op runs on the current stream of its tensor's device.
    if (Ref.K == StreamRef::Current && TensorsOnDevices)
      Ref.Device = tensorDevice(F, S);
  } else if (const auto *Alloc = F.as<fact::Allocate>()) {
    A.Mode = Alloc->AllocateOnly ? AccessMode::Allocate : AccessMode::Write;
    Ref = Alloc->Stream;
    // No device stated: where the source lives (empty_like(src)).
    if (Ref.Device == StreamRef::NoDevice && Alloc->Like && TensorsOnDevices)
      if (std::optional<StorageId> Src = storageOf(Alloc->Like, S))
        if (const TensorState *T = S.Tensors.lookup(*Src); T && T->Device >= 0)
          Ref.Device = T->Device;
  } else if (const auto *R = F.as<fact::GraphReplay>()) {
    Ref = R->Stream;
  }
  if ((Ref.K == StreamRef::Current || Ref.K == StreamRef::Queried) &&
      Ref.Device != StreamRef::NoDevice && Ref.Device != S.CurrentDevice) {
    auto [Stream, SetAt] = deviceCurrent(Ref.Device, S);
    A.Stream = Stream;
    A.StreamSetAt = SetAt;
    return A;
  }
  A.Stream = streamOf(Ref, S);
  A.OnCurrent = Ref.K == StreamRef::Current;
  A.StreamSetAt = A.OnCurrent ? S.CurrentSetAt : NoSite;
  return A;
}

int8_t Transfer::tensorDevice(const Fact &F, const StreamState &S) {
  const auto *X = F.as<fact::Access>();
  std::optional<StorageId> Id = X ? storageOf(X->Tensor, S) : std::nullopt;
  const TensorState *T = Id ? S.Tensors.lookup(*Id) : nullptr;
  return T && T->Device >= 0 ? T->Device : StreamRef::NoDevice;
}

std::pair<StreamId, SiteId> Transfer::deviceCurrent(int8_t D,
                                                    const StreamState &S) {
  if (D == S.CurrentDevice)
    return {S.Current, S.CurrentSetAt};
  if (D == UnknownDevice || S.CurrentDevice == UnknownDevice)
    return {StreamTable::Unknown, NoSite};
  for (const DeviceStream &O : S.OtherDevices)
    if (O.Device == D)
      return {O.Stream, O.SetAt};
  if (D == EntryDevice)
    return {StreamTable::Unknown, NoSite};
  // Device D was not made current here. Its current stream is the one it
  // had at entry, unless D is the entry device (its index is not known) and
  // the entry device's stream was changed: then it cannot be told.
  StreamId Entry =
      S.CurrentDevice == EntryDevice ? S.Current : StreamTable::EntryCurrent;
  for (const DeviceStream &O : S.OtherDevices)
    if (O.Device == EntryDevice)
      Entry = O.Stream;
  if (Entry != StreamTable::EntryCurrent)
    return {StreamTable::Unknown, NoSite};
  return {Streams.deviceCurrent(D), NoSite};
}

void Transfer::switchDevice(int8_t D, StreamState &S) {
  if (D == S.CurrentDevice)
    return;
  auto [Stream, SetAt] = deviceCurrent(D, S);
  llvm::erase_if(S.OtherDevices,
                 [&](const DeviceStream &O) { return O.Device == D; });
  if (S.CurrentDevice != UnknownDevice)
    S.OtherDevices.push_back({S.CurrentDevice, S.Current, S.CurrentSetAt});
  S.CurrentDevice = D;
  S.Current = Stream;
  S.CurrentSetAt = SetAt;
}

} // namespace streamsafe
