//===--- Collectives.cpp - torch.distributed calls, lowered ---------------===//

#include "lib/python/Collectives.h"
#include "lib/model/ApiRows.h"
#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

const ApiEntry *collectiveRow(llvm::StringRef Qualified) {
  const ApiRow *R = pythonApi(Qualified);
  if (!R || (R->Entry.Effect != ApiEffect::Collective &&
             R->Entry.Effect != ApiEffect::CollectiveAsync &&
             R->Entry.Effect != ApiEffect::CollectiveFunctional))
    return nullptr;
  return &R->Entry;
}

TSNode callArgument(TSNode Call, int Position, const char *Name,
                    const SourceFile &F) {
  int K = 0;
  TSNode ByName{};
  for (TSNode C : children(field(Call, "arguments"))) {
    if (is(C, "keyword_argument")) {
      if (Name && F.text(field(C, "name")) == Name)
        ByName = field(C, "value");
      continue;
    }
    if (is(C, "list_splat") || is(C, "dictionary_splat"))
      return TSNode{}; // where the rest goes is not written out
    if (K++ == Position)
      return C;
  }
  return ByName;
}

CollectiveMode collectiveMode(TSNode Call, const ApiEntry &Row,
                              const SourceFile &F) {
  if (Row.Effect == ApiEffect::CollectiveFunctional)
    return CollectiveMode::Functional;
  if (Row.Effect == ApiEffect::CollectiveAsync)
    return CollectiveMode::Async;
  if (Row.AsyncOp < 0)
    return CollectiveMode::Sync;
  TSNode A = unparen(callArgument(Call, Row.AsyncOp, "async_op", F));
  if (ts_node_is_null(A) || is(A, "false"))
    return CollectiveMode::Sync;
  if (is(A, "true"))
    return CollectiveMode::Async;
  return CollectiveMode::Unknown;
}

StreamRef Builder::groupStream(TSNode Group) {
  // One stream per group as written (`None` and no group: the default
  // group); two spellings of one group may be one stream (StreamTable).
  std::string Key = ts_node_is_null(Group) || is(unparen(Group), "none")
                        ? std::string()
                        : F.text(unparen(Group)).str();
  auto [It, New] = Memo.Groups.try_emplace(Key, NoVar);
  if (New)
    It->second = newSyntheticVar(Key, VarClass::Other);
  return {StreamRef::Collective, It->second, It->second};
}

Value Builder::collectiveCall(TSNode N, const ApiEntry &Row, const Args &A) {
  auto Operand = [&](int8_t Position, const char *Name) {
    return Position < 0 ? TSNode{} : A.get(Position, Name ? Name : "");
  };
  TSNode OutArg = Operand(Row.Dest, Row.DestName);
  TSNode InArg = Operand(Row.Source, Row.SourceName);
  bool InPlace = Row.Dest >= 0 && Row.Dest == Row.Source;
  Value Out = ts_node_is_null(OutArg) ? Value() : expr(OutArg);
  Value In = InPlace || ts_node_is_null(InArg) ? Out : expr(InArg);
  for (const auto &[K, P] : A.Keywords)
    if (P.id != OutArg.id && P.id != InArg.id)
      expr(P);
  std::vector<BatchOp> Batch;
  if (Row.SourceName && llvm::StringRef(Row.SourceName) == "p2p_op_list")
    Batch = batchOps(InArg);
  CollectiveMode Mode = collectiveMode(N, Row, F);
  if (Mode == CollectiveMode::Functional)
    return functionalCollective(N, Row, A, In, InArg);
  // Where it runs and what it does: lib/lower/Collectives.h. The handle
  // is followed where a local name (an event, for the scope) takes it, or
  // where it is dropped.
  lower::CollectiveCall C;
  C.Mode = Mode;
  TSNode P = ts_node_parent(N);
  TSNode Left = is(P, "assignment") && field(P, "right").id == N.id
                    ? field(P, "left")
                    : TSNode{};
  // (A helper run in place that returns it hands it to its caller, whose
  // value it is.)
  if (is(P, "expression_statement"))
    C.Use = lower::WorkUse::Dropped;
  else if ((is(Left, "identifier") &&
            St->S->classOf(F.text(Left)) == VarClass::Event) ||
           (is(P, "return_statement") && St->ReturnEvent != NoVar))
    C.Use = lower::WorkUse::Bound;
  // batch_isend_irecv([P2POp(isend, a, peer), P2POp(irecv, b, peer)]):
  // each op's tensor, on the group of the first; ops the analysis cannot
  // read make the whole batch ordered on the current stream.
  bool BatchKnown = !Batch.empty();
  if (Row.SourceName && llvm::StringRef(Row.SourceName) == "p2p_op_list") {
    In = Value();
    if (!BatchKnown)
      C.Mode = CollectiveMode::Sync;
  }
  if (C.Mode == CollectiveMode::Async &&
      C.Use != lower::WorkUse::HandedOn) { // its stream and ready event
    C.Group = groupStream(BatchKnown ? Batch.front().Group
                                     : Operand(Row.Group, "group"));
    C.Ready = syntheticVar("collective", VarClass::Event, TSNode{});
  }
  std::vector<TSNode> Nodes{N};
  auto Each = [&](const Value &V, TSNode At, bool Write) {
    std::vector<TensorRef> Ts;
    if (V.Class == VarClass::Tensor && V.Tensor)
      Ts.push_back(V.Tensor);
    if (V.List)
      for (const TensorRef &T : elements(V))
        if (T)
          Ts.push_back(T);
    for (const TensorRef &T : Ts) {
      (Write ? C.Writes : C.Reads).push_back({T, unsigned(Nodes.size())});
      Nodes.push_back(At);
    }
  };
  for (const BatchOp &Op : Batch)
    Each(Op.Tensor, Op.At, Op.Receive);
  if (!ts_node_is_null(InArg) && !(InPlace && ts_node_is_null(OutArg)))
    Each(In, InArg, /*Write=*/false);
  if (!ts_node_is_null(OutArg))
    Each(Out, OutArg, /*Write=*/true);
  lower::LoweredCollective L = lower::lowerCollective(C);
  emitRecipe(L.Steps, Nodes);
  Value R;
  R.Node = N;
  if (L.Handle) {
    // The handle: an event recorded on the group's stream after the work.
    R.Class = VarClass::Event;
    R.RecordOn = true;
    R.RecordStream = L.On;
  }
  return R;
}

std::vector<Builder::BatchOp> Builder::batchOps(TSNode List) {
  // The list as written, or a name bound once to one.
  List = unparen(List);
  if (is(List, "identifier")) {
    const Scope *Owner = St->S->owner(F.text(List));
    auto It = Owner ? Owner->Bindings.find(F.text(List))
                    : decltype(Owner->Bindings.end()){};
    if (!Owner || It == Owner->Bindings.end() || It->second.size() != 1 ||
        ts_node_is_null(It->second.front()))
      return {};
    List = unparen(It->second.front());
  }
  if (!is(List, "list") && !is(List, "tuple"))
    return {};
  std::vector<BatchOp> Ops;
  for (TSNode E : children(List)) {
    if (is(E, "comment"))
      continue;
    E = unparen(E);
    if (!is(E, "call") ||
        I.qualify(field(E, "function")) != "torch.distributed.P2POp")
      return {};
    Args A = argsOf(E);
    std::string Op = I.qualify(A.get(0, "op"));
    TSNode T = A.get(1, "tensor");
    if ((Op != "torch.distributed.isend" && Op != "torch.distributed.irecv") ||
        ts_node_is_null(T))
      return {};
    BatchOp B;
    B.Receive = Op == "torch.distributed.irecv";
    B.At = T;
    B.Tensor = expr(T);
    B.Group = A.get(3, "group");
    if (!Ops.empty() && F.text(B.Group) != F.text(Ops.front().Group))
      return {}; // one batch, one group
    Ops.push_back(B);
  }
  return Ops;
}

Value Builder::functionalCollective(TSNode N, const ApiEntry &Row,
                                    const Args &A, const Value &In,
                                    TSNode InArg) {
  // Its input is read on the group's stream after the current stream, and
  // held by the work; the result is not followed (lib/lower/Collectives.h).
  lower::CollectiveCall C;
  C.Mode = CollectiveMode::Functional;
  C.Group = groupStream(A.get(Row.Group, "group"));
  C.Ready = syntheticVar("collective", VarClass::Event, TSNode{});
  std::vector<TSNode> Nodes{N};
  if (In.Class == VarClass::Tensor && In.Tensor && !ts_node_is_null(InArg)) {
    C.Reads.push_back({In.Tensor, 1});
    Nodes.push_back(InArg);
  }
  emitRecipe(lower::lowerCollective(C).Steps, Nodes);
  return Value();
}

bool Builder::holdsWork(TSNode Name) const {
  const Scope *Owner = St->S->owner(F.text(Name));
  if (!Owner)
    return false;
  auto It = Owner->Bindings.find(F.text(Name));
  if (It == Owner->Bindings.end())
    return false;
  return llvm::any_of(It->second, [&](TSNode B) {
    B = unparen(B);
    if (!is(B, "call"))
      return false;
    TSNode Fn = field(B, "function");
    if (collectiveRow(I.qualify(Fn)))
      return true;
    // `fut = work.get_future()`: the work's future waits as the work does.
    TSNode Of = unparen(field(Fn, "object"));
    return is(Fn, "attribute") &&
           F.text(field(Fn, "attribute")) == "get_future" &&
           is(Of, "identifier") && Of.id != Name.id &&
           F.text(Of) != F.text(Name) && holdsWork(Of);
  });
}

void Builder::workUse(TSNode Name, const Value &V) {
  // `w.wait()` and its kin are the handle's own methods (eventMethod).
  // Any other use hands it to code that may wait on it there (a list of
  // pending works, `self.pending = w`, a helper, `w is not None`, the
  // analysed def's return): taken as a wait at that point, so nothing it
  // may order is reported.
  TSNode P = ts_node_parent(Name);
  if (is(P, "attribute") && field(P, "object").id == Name.id)
    return;
  // Returned by a helper run in place: the caller holds it, and its wait
  // is the caller's.
  if (is(P, "return_statement") && St->ReturnEvent != NoVar)
    return;
  if (V.Class != VarClass::Event || V.Event == NoVar || !holdsWork(Name))
    return;
  emit(site(SiteKind::EventWait, Name),
       fact::EventWait{V.Event, StreamRef::current(), false});
}

} // namespace streamsafe::py
