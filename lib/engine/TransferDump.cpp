//===--- TransferDump.cpp - The DebugDumpFunction trace -------------------===//
//
// A developer's trace of facts and states (the hidden DebugDumpFunction
// option), not a diagnostic: terse and unstable by design.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"

namespace streamsafe {

namespace {

const char *factName(const Fact::Op &Op) {
  if (const auto *A = std::get_if<fact::Access>(&Op))
    return A->Write ? "write" : "read";
  static const char *const Names[] = {
      "set-current",   "guard-enter",   "guard-exit",    "access",
      "allocate",      "bind-tensor",   "bind-stream",   "bind-event",
      "unbind",        "escape-tensor", "escape-event",  "event-record",
      "event-wait",    "event-sync",    "stream-sync",   "device-sync",
      "record-stream", "spawn",         "current-query", "host-access",
      "forget",        "capture-begin", "capture-end",   "restricted",
      "host-signal",   "host-wait",     "graph-replay",  "graph-instantiate",
      "capture-mode",  "host-by-use",   "free"};
  static_assert(sizeof(Names) / sizeof(Names[0]) ==
                    std::variant_size_v<Fact::Op>,
                "one name per fact kind");
  return Names[Op.index()];
}

std::string streamName(const Function &IR, StreamDesc D) {
  std::string Name = D.Named == NoVar ? "" : "'" + IR.var(D.Named).Name + "'";
  switch (D.Kind) {
  case StreamKind::Unknown:
    return "unknown";
  case StreamKind::Default:
    return "default";
  case StreamKind::EntryCurrent:
    return D.Device >= 0 ? "entry-current of device " + std::to_string(D.Device)
                         : "entry-current";
  case StreamKind::Pool:
    return "pool " + Name;
  case StreamKind::Created:
    return "created " + Name;
  case StreamKind::Executor:
    return "executor " + Name;
  case StreamKind::Member:
    return "member " + Name;
  case StreamKind::Attribute:
    return "attribute " + Name;
  case StreamKind::Global:
    return "global " + Name;
  case StreamKind::SideParameter:
    return "side-parameter " + Name;
  case StreamKind::SideLocal:
    return "side-local " + Name;
  case StreamKind::Collective:
    return "collective " + Name;
  case StreamKind::Parameter:
  case StreamKind::Other:
    return "other " + Name;
  }
  llvm_unreachable("every stream kind is handled");
}

} // namespace

void Transfer::dump(const Fact &F, const StreamState &S,
                    llvm::raw_ostream &OS) const {
  auto Stream = [&](StreamId Id) {
    return streamName(IR, Streams.describe(Id));
  };
  OS << "  fact " << factName(F.What) << " @" << IR.Sites[F.Site].Line;
  VarId Var = NoVar;
  if (const auto *X = F.as<fact::BindTensor>())
    Var = X->Var;
  else if (const auto *X = F.as<fact::BindStream>())
    Var = X->Var;
  else if (const auto *X = F.as<fact::BindEvent>())
    Var = X->Var;
  else if (const auto *X = F.as<fact::Unbind>())
    Var = X->Var;
  else if (const auto *X = F.as<fact::GuardEnter>())
    Var = X->Guard;
  else if (const auto *X = F.as<fact::GuardExit>())
    Var = X->Guard;
  if (Var != NoVar)
    OS << " var=" << IR.var(Var).Name;
  OS << "\n    current=" << Stream(S.Current);
  // The branch outcomes this path remembers (Assumption).
  for (const Assumption &A : S.Assumed)
    OS << " assumed(" << IR.var(A.Var).Name << (A.Value ? ")" : ")=false");
  // Only code that switches devices has more than one current stream.
  if (S.CurrentDevice != EntryDevice || !S.OtherDevices.empty()) {
    OS << " device=" << int(S.CurrentDevice);
    for (const DeviceStream &D : S.OtherDevices)
      OS << " current-of(" << int(D.Device) << ")=" << Stream(D.Stream);
  }
  OS << "\n";
  S.Tensors.forEach([&](StorageId Id, const TensorState &T) {
    VarId Named = Storages[Id].Named;
    OS << "    tensor " << (Named == NoVar ? "<tmp>" : IR.var(Named).Name)
       << " alloc=" << Stream(T.AllocStream) << (T.Escaped ? " escaped" : "")
       << (T.Host ? " host" : "") << (T.Pinned ? " pinned" : "");
    auto List = [&](const char *Name, const AccessList &L) {
      for (const Access &A : L) {
        OS << " " << Name << "@" << IR.Sites[A.Site].Line << "["
           << Stream(A.Stream);
        if (A.Part.K == Region::Rows || A.Part.K == Region::Piece)
          OS << (A.Part.K == Region::Rows ? ", rows " : ", piece ") << A.Part.Lo
             << (A.Part.K == Region::Rows ? ".." : "/") << A.Part.Hi;
        else if (A.Part.K == Region::Some)
          OS << ", some part";
        for (unsigned B = 0; B < StreamTable::MaxStreams; ++B)
          if (A.VisibleTo & StreamTable::bit(B))
            OS << ", visible to " << Stream(B);
        OS << "]";
      }
    };
    List("W", T.Writes);
    List("R", T.Reads);
    List("X", T.CrossStreamUses);
    OS << "\n";
  });
  for (const auto &[V, E] : S.Events)
    OS << "    event " << IR.var(V).Name
       << (E.MustRecorded  ? " recorded"
           : E.MayRecorded ? " maybe-recorded"
                           : " unrecorded")
       << " covers="
       << (E.Snapshot ? "snapshot on " + Stream(E.RecordedOn)
                      : std::to_string(E.Covers.size()))
       << (E.CoversAll ? "+all" : "") << "\n";
  for (const auto &[V, G] : S.Guards)
    OS << "    guard " << IR.var(V).Name << " saved=" << Stream(G.Saved)
       << "\n";
}

} // namespace streamsafe
