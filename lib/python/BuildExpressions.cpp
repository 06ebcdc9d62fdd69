//===--- BuildExpressions.cpp - Python expressions to facts ---------------===//
//
// An expression is lowered once, operands first, left to right, as Python
// evaluates it; its value says what it is as far as streams go (a tensor's
// storage, a stream, an event). Operators on tensors are ATen ops on the
// current stream: they read their tensor operands and allocate the result.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ClassesByUse.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

VarId Builder::varOf(llvm::StringRef Name) {
  const Scope *Owner = St ? St->S->owner(Name) : Root->owner(Name);
  if (!Owner)
    return NoVar;
  VarClass C = Owner->Locals.lookup(Name);
  if (C == VarClass::Other)
    return NoVar;
  auto [It, New] = Vars.try_emplace({Owner, Name.str()}, NoVar);
  if (New) {
    Variable V;
    V.Name = Name.str();
    V.Class = C;
    // A module's global, seen from a function: one storage for the whole
    // function, never bound or unbound by it.
    V.Persistent = Owner->K == Scope::Module && Root->K != Scope::Module;
    if (V.Persistent)
      proveGlobal(Name, *Owner, V);
    IR->Vars.push_back(std::move(V));
    It->second = IR->Vars.size() - 1;
  }
  return It->second;
}

VarId Builder::syntheticVar(const char *Name, VarClass C, TSNode Key) {
  auto [It, New] = Synthetic.try_emplace({Name, Key.id}, NoVar);
  if (New)
    It->second = newSyntheticVar(Name, C);
  return It->second;
}

VarId Builder::newSyntheticVar(std::string Name, VarClass C) {
  Variable V;
  V.Name = std::move(Name);
  V.Class = C;
  V.Synthetic = true;
  IR->Vars.push_back(std::move(V));
  return IR->Vars.size() - 1;
}

ObjectId Builder::objectOf(TSNode N) {
  auto [It, New] = Objects.try_emplace({N.id, St ? St->Counters.Copy : 0}, 0);
  if (New)
    It->second = IR->newObject();
  return It->second;
}

SiteId Builder::siteAt(SiteKind K, Position P, uint64_t Order) {
  Site S;
  S.Kind = K;
  S.Order = Order;
  S.Line = P.Line;
  S.Loc = packLoc(P);
  S.Scope = St ? St->SiteScope : 0;
  return IR->Sites.add(S);
}

SiteId Builder::site(SiteKind K, TSNode N) {
  SiteId Id = siteAt(K, start(N), ts_node_start_byte(N));
  // The function a call site calls, for messages that name it.
  if (is(N, "call")) {
    Out->CallSpans[Id] = {ts_node_start_byte(N), ts_node_end_byte(N)};
    TSNode Fn = field(N, "function");
    if (is(Fn, "attribute"))
      Fn = field(Fn, "attribute");
    if (is(Fn, "identifier"))
      Out->Callees[Id] = F.text(Fn).str();
  }
  return Id;
}

void Builder::emit(SiteId At, Fact::Op What) {
  Fact X;
  X.Site = At;
  X.What = std::move(What);
  St->B.Blocks[St->Cur].Facts.push_back(std::move(X));
}

void Builder::access(bool Write, const Value &T, TSNode At, bool Async,
                     bool Copy) {
  if (T.Class != VarClass::Tensor || !T.Tensor)
    return;
  emit(site(SiteKind::Access, At),
       fact::Access{Write, T.Tensor, StreamRef::current(), Async, Copy});
}

void Builder::readTensor(const Value &V, TSNode At) { access(false, V, At); }

void Builder::escape(const Value &V, TSNode At, bool Returned) {
  if (V.Class == VarClass::Tensor && V.Tensor)
    emit(site(SiteKind::Other, At), fact::EscapeTensor{V.Tensor, Returned});
  for (const TensorRef &T : V.Held)
    emit(site(SiteKind::Other, At), fact::EscapeTensor{T, Returned});
  if (V.Class == VarClass::Event && V.Event != NoVar)
    emit(site(SiteKind::Other, At), fact::EscapeEvent{V.Event});
  // `return s.record_event()`: recorded now, waited by whoever gets it.
  if (V.Class == VarClass::Event && V.RecordOn)
    emit(site(SiteKind::EventRecord, At),
         fact::EventRecord{NoVar, V.RecordStream});
  if (V.Class == VarClass::Stream)
    emit(site(SiteKind::Other, At), fact::EscapeEvent{NoVar});
}

void Builder::escapeCaptured(TSNode Body, const Scope &Inner, bool Events) {
  // Every identifier the body names that is not its own: a tensor of an
  // enclosing scope, kept alive by the closure.
  std::vector<TSNode> Work{Body};
  while (!Work.empty()) {
    TSNode N = Work.back();
    Work.pop_back();
    if (ts_node_is_null(N))
      continue;
    if (is(N, "identifier")) {
      llvm::StringRef Name = F.text(N);
      if (!Inner.Locals.count(Name)) {
        if (ListSlots *L = listSlots(Name)) {
          escape(listValue(N, *L), N);
          continue;
        }
        if (std::vector<ListSlots *> C = tupleColumns(Name); !C.empty()) {
          escape(tupleListValue(N, C), N);
          continue;
        }
        VarId V = varOf(Name);
        if (V != NoVar && IR->var(V).Class == VarClass::Tensor)
          emit(site(SiteKind::Other, N), fact::EscapeTensor{TensorRef::var(V)});
        else if (V != NoVar && Events && IR->var(V).Class == VarClass::Event)
          emit(site(SiteKind::Other, N), fact::EscapeEvent{V});
      }
      continue;
    }
    if (is(N, "attribute")) {
      Work.push_back(field(N, "object"));
      continue;
    }
    if (is(N, "keyword_argument")) {
      Work.push_back(field(N, "value"));
      continue;
    }
    uint32_t Count = ts_node_named_child_count(N);
    for (uint32_t K = 0; K < Count; ++K)
      Work.push_back(ts_node_named_child(N, K));
  }
}

void Builder::escapeCallable(TSNode Arg) {
  Arg = unparen(Arg);
  if (!is(Arg, "identifier"))
    return;
  llvm::StringRef Name = F.text(Arg);
  for (const Scope *S = St->S; S; S = S->Parent) {
    if (auto It = S->Defs.find(Name); It != S->Defs.end()) {
      auto Inner = makeScope(It->second, Scope::Def, S, F, I);
      escapeCaptured(field(It->second, "body"), *Inner, /*Events=*/true);
      return;
    }
    if (S->Locals.count(Name))
      return;
  }
}

Value Builder::name(TSNode N) {
  Value V;
  V.Node = N;
  // A comprehension's variable: the element it stands for.
  if (const Value *S = ListVars.substituted(F.text(N).str())) {
    Value E = *S;
    E.Node = N;
    return E;
  }
  if (ListSlots *L = listSlots(F.text(N)))
    return listValue(N, *L);
  if (std::vector<ListSlots *> C = tupleColumns(F.text(N)); !C.empty())
    return tupleListValue(N, C);
  // A dict followed, handed on as a whole: what happens to its entries
  // there is not known.
  if (const Instance *D = objectNamed(N); D && D->Keyed)
    forgetEntries(*D, N);
  VarId Var = varOf(F.text(N));
  if (Var == NoVar)
    return V;
  V.Class = IR->var(Var).Class;
  switch (V.Class) {
  case VarClass::Tensor:
    V.Tensor = TensorRef::var(Var);
    V.Tensor.Part = nameRegion(F.text(N), N);
    break;
  case VarClass::Stream:
    V.Stream = StreamRef::var(Var);
    break;
  case VarClass::Event:
    V.Event = Var;
    break;
  default:
    break;
  }
  return V;
}

Value Builder::binary(TSNode N, const std::vector<TSNode> &Operands) {
  std::vector<Value> Vs;
  bool AnyTensor = false;
  for (TSNode O : Operands) {
    Vs.push_back(expr(O));
    AnyTensor |= Vs.back().Class == VarClass::Tensor;
  }
  Value R;
  R.Node = N;
  if (!AnyTensor)
    return R;
  // An ATen op on the current stream: reads its operands, writes a new
  // tensor.
  for (size_t K = 0; K < Vs.size(); ++K)
    readTensor(Vs[K], Operands[K]);
  fact::Allocate A;
  A.Result = objectOf(N);
  A.Stream = StreamRef::current();
  emit(site(SiteKind::Allocation, N), A);
  R.Class = VarClass::Tensor;
  R.Tensor = TensorRef::result(A.Result);
  return R;
}

/// Whether the tensor index \p S is a mask of booleans as written: a
/// comparison (`x > 0`), `~m`, `a & b`, `a | b` of masks, or a local whose
/// every binding is one.
static bool boolMask(TSNode S, const Scope &Sc, const SourceFile &F,
                     unsigned Depth) {
  S = unparen(S);
  if (Depth > 4)
    return false;
  if (is(S, "comparison_operator"))
    return !identityComparison(F, S);
  if (is(S, "unary_operator"))
    return F.text(field(S, "operator")) == "~" &&
           boolMask(field(S, "argument"), Sc, F, Depth + 1);
  if (is(S, "binary_operator")) {
    llvm::StringRef Op = F.text(field(S, "operator"));
    return (Op == "&" || Op == "|") &&
           boolMask(field(S, "left"), Sc, F, Depth + 1) &&
           boolMask(field(S, "right"), Sc, F, Depth + 1);
  }
  if (!is(S, "identifier"))
    return false;
  auto B = Sc.Bindings.find(F.text(S));
  return B != Sc.Bindings.end() && !B->second.empty() &&
         llvm::all_of(B->second, [&](TSNode V) {
           return !ts_node_is_null(V) && boolMask(V, Sc, F, Depth + 1);
         });
}

Value Builder::expr(TSNode N) {
  Value V;
  if (ts_node_is_null(N))
    return V;
  N = unparen(N);
  V.Node = N;
  llvm::StringRef T = type(N);
  if (T == "identifier") {
    Value Named = name(N);
    if (Named.Class == VarClass::Event)
      workUse(N, Named);
    return Named;
  }
  if (T == "call")
    return call(N);
  if (T == "attribute") {
    if (attributeValue(N, V))
      return V;
    // `bucket.grad_data` of a parameter object: the caller's tensor
    // (Scope::ParamFields), ready at entry as a tensor parameter is.
    if (St->S == Root && St->SiteScope == 0 &&
        Root->ParamFields.contains(useKey(N, F))) {
      auto [It, New] = Synthetic.try_emplace(
          {"field " + useKey(N, F), Root->Node.id}, NoVar);
      if (New) {
        It->second = newSyntheticVar(useKey(N, F), VarClass::Tensor);
        // Declared at the parameter that holds the object, or the
        // container it is an element of.
        llvm::StringRef Object = F.text(unparen(field(N, "object")));
        TSNode At = N;
        for (const auto &Of : Root->Elements.lookup(Object))
          At = Of.first;
        for (TSNode P : Root->Params)
          if (F.text(P) == Object || F.text(P) == F.text(unparen(At)))
            At = P;
        ElementParams.push_back({It->second, site(SiteKind::ParamReady, At)});
      }
      V.Class = VarClass::Tensor;
      V.Tensor = TensorRef::var(It->second);
      return V;
    }
    Value Obj = expr(field(N, "object"));
    if (Obj.Class == VarClass::Tensor &&
        isViewAttribute(F.text(field(N, "attribute")))) {
      Obj.Node = N;
      if (Obj.Tensor.K == TensorRef::Var)
        Obj.Tensor.Part = exprRegion(N);
      return Obj; // a view of the same storage
    }
    return V;
  }
  if (T == "subscript") {
    if (dictEntry(N, V) || dictAttributeRead(N, V) || attributeElement(N, V) ||
        streamListElement(N, V))
      return V;
    if (VarId E = windowElement(N); E != NoVar) {
      V.Class = VarClass::Tensor;
      V.Tensor = TensorRef::var(E);
      return V;
    }
    Value Base = expr(field(N, "value"));
    bool Gather = false, Masked = false;
    // A dict's key is hashed, not read (`self.optim[p]`).
    bool Hashed = Base.Class != VarClass::Tensor && madeDict(field(N, "value"));
    for (TSNode S : fieldChildren(N, "subscript")) {
      Value Index = expr(S);
      if (Index.Class == VarClass::Tensor && Index.Tensor && !Hashed) {
        Gather = true;
        Masked |= boolMask(S, *St->S, F, 0);
        readTensor(Index, S);
      }
    }
    if (Base.Class == VarClass::Tensor && Gather) {
      // t[idx], t[mask] with a tensor index: a gather on the current stream
      // that reads t and makes a new tensor, not a view. A mask's result
      // is as long as the mask has true elements: the host waits to read
      // that count first, as nonzero() does.
      readTensor(Base, field(N, "value"));
      if (Masked) {
        SiteId At = site(SiteKind::Other, N);
        llvm::StringRef Text = F.text(N);
        Out->Callees[At] = Text.size() <= 32 && !Text.contains('\n')
                               ? Text.str()
                               : std::string("t[mask]");
        fact::StreamSync Wait{StreamRef::current(), false, {}, {}, false};
        Wait.A = Base.Tensor;
        Wait.UnlessHost = true;
        emit(At, Wait);
      }
      fact::Allocate A;
      A.Result = objectOf(N);
      A.Stream = StreamRef::current();
      emit(site(SiteKind::Allocation, N), A);
      V.Class = VarClass::Tensor;
      V.Tensor = TensorRef::result(A.Result);
      return V;
    }
    if (Base.Class == VarClass::Tensor) {
      Base.Node = N;
      if (Base.Tensor.K == TensorRef::Var)
        Base.Tensor.Part = exprRegion(N);
      return Base; // t[i]: a view
    }
    if (Base.List)
      return listElement(N, Base);
    return V;
  }
  if (T == "binary_operator")
    return binary(N, {field(N, "left"), field(N, "right")});
  if (T == "comparison_operator" && identityComparison(F, N)) {
    for (TSNode C : children(N))
      expr(C);
    return Value(); // a host bool: no tensor op runs
  }
  if (T == "comparison_operator")
    return binary(N, children(N));
  if (T == "unary_operator")
    return binary(N, {field(N, "argument")});
  if (T == "tuple" || T == "list" || T == "expression_list")
    return containerLiteral(N);
  if (T == "set") {
    for (TSNode C : children(N)) {
      Value E = expr(C);
      if (E.Class == VarClass::Tensor && E.Tensor)
        V.Held.push_back(E.Tensor);
      V.Held.append(E.Held.begin(), E.Held.end());
    }
    return V;
  }
  if (T == "dictionary")
    return dictLiteral(N);
  if (T == "lambda") {
    // It may run later, anywhere: the tensors it names are kept alive by
    // it, and the events it names may be recorded there.
    auto Inner = makeScope(N, Scope::Lambda, St->S, F, I);
    escapeCaptured(field(N, "body"), *Inner, /*Events=*/true);
    return V;
  }
  if (T == "list_comprehension" || T == "set_comprehension" ||
      T == "generator_expression")
    return comprehension(N);
  if (T == "dictionary_comprehension") {
    comprehension(N); // its keys and values are computed; the dict is opaque
    return V;
  }
  if (T == "named_expression") {
    Value Val = expr(field(N, "value"));
    bindName(field(N, "name"), Val);
    return Val;
  }
  if (T == "conditional_expression" || T == "boolean_operator" ||
      T == "not_operator" || T == "await" || T == "starred_expression" ||
      T == "list_splat" || T == "yield") {
    for (TSNode C : children(N))
      expr(C);
    return V;
  }
  return V;
}

} // namespace streamsafe::py
