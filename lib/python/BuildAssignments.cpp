//===--- BuildAssignments.cpp - Python bindings to facts ------------------===//
//
// What an assignment binds: a name, an attribute of an object followed
// here, a dict entry, the names of a tuple pattern (a list's elements, a
// tuple op's new tensors), a tensor's storage (`t.data = v`), or nothing
// known (the value escapes). Also the binding of names and events to values
// and the new tensors calls make on the current stream.
//
//===----------------------------------------------------------------------===//

#include "lib/model/TensorMethods.h"
#include "lib/model/UseEvidence.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

void Builder::assignment(TSNode N) {
  TSNode Left = unparen(field(N, "left"));
  TSNode Right = field(N, "right");
  if (ts_node_is_null(Right))
    return; // an annotation alone
  // a = b = value: bind every target to the value.
  std::vector<TSNode> Targets{Left};
  while (is(Right, "assignment")) {
    Targets.push_back(unparen(field(Right, "left")));
    Right = field(Right, "right");
  }
  if (Targets.size() == 1 && bindStreamList(Left, Right))
    return; // LoopCounters.cpp
  // x = a if flag else b, on a flag that never changes: two paths, each
  // binding its own value (BranchConditions.cpp), not one unknown value.
  if (is(unparen(Right), "conditional_expression")) {
    std::vector<TSNode> Arms = children(unparen(Right));
    if (Arms.size() == 3 && testsAnything(Arms[1])) {
      branchOn(
          Arms[1], [&] { assignValue(Targets, Arms[0]); },
          [&] { assignValue(Targets, Arms[2]); });
      return;
    }
  }
  // x = a or b (a if a else b), x = a and b (b if a else a), on a name a
  // whose test the analysis can tell: `device = stream or other`.
  if (is(unparen(Right), "boolean_operator")) {
    TSNode A = unparen(field(unparen(Right), "left"));
    TSNode B = field(unparen(Right), "right");
    TSNode Op = field(unparen(Right), "operator");
    if (is(A, "identifier") && testsAnything(A) && !ts_node_is_null(Op)) {
      bool And = F.text(Op) == "and";
      branchOn(
          A, [&] { assignValue(Targets, And ? B : A); },
          [&] { assignValue(Targets, And ? A : B); });
      return;
    }
  }
  assignValue(Targets, Right);
}

/// \p Name is a local of \p S that the inference says holds a tensor (as
/// a def's annotation or returns say, or its uses): given the value of code
/// the analysis does not run, it is a tensor made there.
static bool tensorLocal(const Scope &S, const SourceFile &F, TSNode Name) {
  return S.owner(F.text(Name)) == &S &&
         S.Locals.lookup(F.text(Name)) == VarClass::Tensor;
}

void Builder::assignValue(const std::vector<TSNode> &Targets, TSNode Right) {
  TSNode Left = Targets.front();
  Value V = expr(Right);
  // A name or attribute only ever used as a tensor, given the value of code
  // the analysis does not see: a tensor made there.
  Value Attr;
  bool HeldAsTensor = is(Left, "identifier")
                          ? heldByUse(Left) || tensorLocal(*St->S, F, Left)
                          : is(Left, "attribute") &&
                                attributeValue(Left, Attr) &&
                                Attr.Class == VarClass::Tensor;
  // (Not a class's constructor: `Buffer(...)` makes an object of the
  // class, whatever it lets code do with it.)
  if (Targets.size() == 1 && HeldAsTensor && V.Class != VarClass::Tensor &&
      is(unparen(Right), "call") && infer::opaqueValue(Right, F, I) &&
      !namesClass(field(unparen(Right), "function")))
    V = unknownResult(Right);
  for (TSNode T : Targets) {
    if (is(T, "identifier")) {
      bindName(T, V);
    } else if (storeWindowElement(T, V, Right)) {
      continue; // xs[i] = v of a counter loop's window (LoopCounters.cpp)
    } else if (is(T, "subscript") &&
               (storeDictEntry(T, V) || dictAttributeStore(T, V))) {
      continue;
    } else if (is(T, "subscript")) {
      // t[i] = v: a write into t that reads v, and reads i when i is a
      // tensor. An index tensor also says what the base is: only a tensor
      // (or an array or distributed tensor, which put v's values there
      // now) is indexed by one, never a list or dict of the code's.
      Value Base = expr(field(T, "value"));
      bool TensorIndex = false;
      for (TSNode S : fieldChildren(T, "subscript"))
        if (Value Index = expr(S); Index.Class == VarClass::Tensor) {
          TensorIndex = true;
          readTensor(Index, S);
        }
      if (Base.Class == VarClass::Tensor) {
        readTensor(V, Right);
        access(true, Base, T);
      } else if (TensorIndex && !Base.List &&
                 !namesOwnContainer(field(T, "value"), *St->S, F))
        readTensor(V, Right);
      else
        escape(V, T);
    } else if ((is(T, "pattern_list") || is(T, "tuple_pattern") ||
                is(T, "list_pattern")) &&
               V.List) {
      // a, b = xs: each name is bound to its element (chunk()'s views: to
      // the storage they share).
      std::vector<TSNode> Names = children(T);
      for (size_t K = 0; K < Names.size(); ++K) {
        Value E;
        TensorRef R = K < V.Items.size() && V.Unplaced.empty() ? V.Items[K]
                      : V.Items.empty() && V.Unplaced.size() == 1
                          ? V.Unplaced.front()
                          : TensorRef();
        if (R) {
          E.Class = VarClass::Tensor;
          E.Tensor = R;
        }
        if (is(Names[K], "identifier"))
          bindName(Names[K], E);
        else if (storeWindowElement(Names[K], E, TSNode{}))
          continue;
        else
          escape(E, Names[K]);
      }
    } else if ((is(T, "pattern_list") || is(T, "tuple_pattern") ||
                is(T, "list_pattern")) &&
               newTensorTuple(T, V, Right)) {
      continue;
    } else {
      // self.x = v of an object followed here binds its attribute; else
      // self.x = v, a, b = v: kept where it is not followed.
      if (bindAttribute(T, V) || swapStorage(T, V))
        continue;
      if (is(T, "attribute"))
        expr(field(T, "object"));
      escape(V, T, /*Returned=*/handsToCaller(T));
      // (A name only ever used as a tensor is one made there: `dev, cpu =
      // state` of a state not followed.)
      if (is(T, "pattern_list") || is(T, "tuple_pattern") ||
          is(T, "list_pattern"))
        for (TSNode Name : children(T)) {
          if (is(Name, "identifier"))
            bindName(Name, elementByUse(Name, Right));
          else
            storeWindowElement(Name, Value(), TSNode{});
        }
    }
  }
}

bool Builder::newTensorTuple(TSNode Targets, const Value &V, TSNode Right) {
  // values, indices = x.sort() (or torch.topk(x, k), ...): each name a new
  // tensor of the op, made on the current stream where its input lives.
  TSNode Call = unparen(Right);
  if (!is(Call, "call"))
    return false;
  TSNode Fn = field(Call, "function");
  TensorRef Like;
  // (`a, b = x.sort()` says x is a tensor: a list's sort() gives None.)
  if (is(Fn, "attribute") &&
      (classOfExpr(field(Fn, "object"), *St->S, F, I) == VarClass::Tensor ||
       pyUnpackedResultProvesTensor(F.text(field(Fn, "attribute"))))) {
    if (!returnsTensorTuple(F.text(field(Fn, "attribute"))))
      return false;
    if (V.Class == VarClass::Tensor)
      Like = V.Tensor;
  } else {
    llvm::StringRef Bare = torchBareName(I.qualify(Fn));
    if (Bare.empty() || !returnsTensorTuple(Bare))
      return false;
    std::vector<TSNode> A = children(field(Call, "arguments"));
    if (!A.empty() && is(unparen(A[0]), "identifier"))
      if (VarId In = varOf(F.text(unparen(A[0])));
          In != NoVar && IR->var(In).Class == VarClass::Tensor)
        Like = TensorRef::var(In);
  }
  for (TSNode Name : children(Targets)) {
    if (!is(Name, "identifier")) {
      escape(Value(), Name);
      continue;
    }
    bindName(Name, newTensor(Name, /*Unowned=*/false, Like));
  }
  return true;
}

bool Builder::handsToCaller(TSNode Target) const {
  // `batch.seeds = t` of a parameter `batch` of the analysed def (not a
  // method's own object, whose fields are followed as such): the caller
  // holds the object, so it is handed t as by a return.
  if (!is(Target, "attribute") || St->S != Root || Root->K != Scope::Def ||
      St->ReturnTensor != NoVar)
    return false;
  TSNode Of = unparen(field(Target, "object"));
  if (!is(Of, "identifier") || Root->Bindings.count(F.text(Of)))
    return false;
  bool Method = !ts_node_is_null(classOf(Root->Node));
  for (size_t K = Method ? 1 : 0; K < Root->Params.size(); ++K)
    if (F.text(Root->Params[K]) == F.text(Of))
      return true;
  return false;
}

bool Builder::swapStorage(TSNode Target, const Value &V) {
  if (!is(Target, "attribute") ||
      !swapsStorage(F.text(field(Target, "attribute"))))
    return false;
  TSNode Of = unparen(field(Target, "object"));
  if (classOfExpr(Of, *St->S, F, I) != VarClass::Tensor)
    return false;
  Value Old = expr(Of);
  if (Old.Class != VarClass::Tensor || !Old.Tensor)
    return false;
  // The swap moves storages and reads none (a pinned buffer a copy still
  // fills is not read by the host here).
  emit(site(SiteKind::StorageFree, Target), fact::Free{Old.Tensor});
  // The name now holds the new storage (other names of the same tensor
  // object do too; the analysis only knows their old storage is gone).
  VarId Var = is(Of, "identifier") ? varOf(F.text(Of)) : NoVar;
  if (Var != NoVar && IR->var(Var).Class == VarClass::Tensor &&
      !IR->var(Var).Persistent && V.Class == VarClass::Tensor)
    emit(site(SiteKind::Other, Target), fact::BindTensor{Var, V.Tensor});
  else
    escape(V, Target);
  return true;
}

void Builder::augmentedAssignment(TSNode N) {
  TSNode Left = unparen(field(N, "left"));
  Value R = expr(field(N, "right"));
  Value L = is(Left, "subscript") ? expr(field(Left, "value")) : expr(Left);
  if (L.Class != VarClass::Tensor)
    return;
  // t += x: an in-place op on t.
  readTensor(R, field(N, "right"));
  access(true, L, Left);
}

Value Builder::newTensor(TSNode At, bool Unowned, TensorRef Like, bool Held) {
  ObjectId O = objectOf(At);
  fact::Allocate A;
  A.Result = O;
  A.Stream = StreamRef::current();
  A.Unowned = Unowned;
  A.Held = Held;
  A.Like = Like;
  emit(site(SiteKind::Allocation, At), A);
  Value V;
  V.Node = At;
  V.Class = VarClass::Tensor;
  V.Tensor = TensorRef::result(O);
  return V;
}

bool Builder::heldByUse(TSNode Name) {
  return St->S->ByUse.contains(F.text(Name)) &&
         St->S->owner(F.text(Name)) == St->S &&
         St->S->Locals.lookup(F.text(Name)) == VarClass::Tensor;
}

Value Builder::elementByUse(TSNode Name, TSNode Container) {
  if (!heldByUse(Name) && !tensorLocal(*St->S, F, Name))
    return Value();
  Container = unparen(Container);
  // A parameter of the analysed def, from its own code or a closure of it
  // run in place (listOwner).
  bool OfParameter = is(Container, "identifier") &&
                     (St->S == Root ? St->SiteScope == 0
                                    : listOwner(F.text(Container)) == Root) &&
                     llvm::any_of(Root->Params, [&](TSNode P) {
                       return F.text(P) == F.text(Container);
                     });
  // An element of an object's container (`for p, e in self.queue.items()`):
  // made by code not seen, held by the object beyond the call.
  if (!OfParameter)
    return is(Container, "attribute")
               ? newTensor(Name, /*Unowned=*/true, TensorRef(), /*Held=*/true)
               : unknownResult(Name);
  auto [It, New] = Synthetic.try_emplace(
      {"element " + F.text(Name).str(), Root->Node.id}, NoVar);
  if (New) {
    It->second = newSyntheticVar(F.text(Name).str(), VarClass::Tensor);
    ElementParams.push_back({It->second, site(SiteKind::ParamReady, Name)});
  }
  Value V;
  V.Node = Name;
  V.Class = VarClass::Tensor;
  V.Tensor = TensorRef::var(It->second);
  return V;
}

VarId Builder::callerElements(TSNode Name) {
  if (!holdsCallerElements(Name))
    return NoVar;
  Name = unparen(Name);
  llvm::StringRef Text = F.text(Name);
  auto Param =
      llvm::find_if(Root->Params, [&](TSNode P) { return F.text(P) == Text; });
  auto [It, New] =
      Synthetic.try_emplace({"element of " + Text.str(), Root->Node.id}, NoVar);
  if (New) {
    It->second = newSyntheticVar(Text.str() + "[]", VarClass::Tensor);
    ElementParams.push_back({It->second, site(SiteKind::ParamReady, *Param)});
  }
  return It->second;
}

bool Builder::holdsCallerElements(TSNode Name) {
  Name = unparen(Name);
  if (!is(Name, "identifier") || St->S != Root || St->SiteScope != 0 ||
      Root->owner(F.text(Name)) != Root)
    return false;
  llvm::StringRef Text = F.text(Name);
  auto Param =
      llvm::find_if(Root->Params, [&](TSNode P) { return F.text(P) == Text; });
  if (Param == Root->Params.end() || Root->Elements.count(Text))
    return false;
  if (classOfExpr(Name, *Root, F, I) != VarClass::Other)
    return false;
  // Rebound only to a part of itself (`inputs = inputs[0]`): still the
  // caller's.
  if (auto B = Root->Bindings.find(Text); B != Root->Bindings.end())
    for (TSNode V : B->second) {
      TSNode Of = is(unparen(V), "subscript")
                      ? unparen(field(unparen(V), "value"))
                      : TSNode{};
      if (ts_node_is_null(Of) || !is(Of, "identifier") || F.text(Of) != Text)
        return false;
    }
  return true;
}

Value Builder::parameterElement(TSNode N) {
  N = unparen(N);
  if (!is(N, "subscript"))
    return Value();
  VarId Elements = callerElements(field(N, "value"));
  if (Elements == NoVar)
    return Value();
  Value V;
  V.Node = N;
  V.Class = VarClass::Tensor;
  V.Tensor = TensorRef::var(Elements);
  return V;
}

Value Builder::unknownResult(TSNode Call) {
  // Produced by code the analysis does not see, on the current stream; the
  // caching allocator's part in it is not known (no record_stream owed).
  return newTensor(Call, /*Unowned=*/true);
}

void Builder::bindEvent(VarId Var, const Value &V, TSNode At) {
  fact::BindEvent B{Var, V.FreshEvent || V.RecordOn};
  // Another name of an event followed here is that event.
  if (!B.Fresh && V.Class == VarClass::Event && V.Event != NoVar)
    B.From = V.Event;
  emit(site(SiteKind::EventDecl, At), B);
  if (V.RecordOn)
    emit(site(SiteKind::EventRecord, V.Node),
         fact::EventRecord{Var, V.RecordStream});
}

void Builder::bindName(TSNode Target, const Value &V) {
  if (V.Object)
    nameObject(Target, V.Object);
  if (ListSlots *L = listSlots(F.text(Target)))
    return bindList(Target, *L, V);
  if (std::vector<ListSlots *> C = tupleColumns(F.text(Target)); !C.empty())
    return bindTupleList(Target, C, V);
  VarId Var = varOf(F.text(Target));
  if (Var == NoVar || IR->var(Var).Persistent) {
    // Stored where the analysis does not follow it.
    escape(V, Target);
    return;
  }
  switch (IR->var(Var).Class) {
  case VarClass::Tensor:
    emit(site(SiteKind::Other, Target),
         fact::BindTensor{Var, V.Class == VarClass::Tensor ? V.Tensor
                                                           : TensorRef()});
    return;
  case VarClass::Stream: {
    StreamRef R = V.Class == VarClass::Stream ? V.Stream : StreamRef::unknown();
    // None, and a stream context that switches nothing (nullcontext()),
    // hold no stream; a stream context holds what its stream holds.
    bool Context =
        !ts_node_is_null(V.Node) &&
        (switchesNothing(V.Node, I) || streamContextValue(V.Node, F, I));
    bool None = !ts_node_is_null(V.Node) &&
                (is(unparen(V.Node), "none") || switchesNothing(V.Node, I));
    if (R.K == StreamRef::Unknown && !None && !Context &&
        sideLocal(Var, Target))
      R = StreamRef::side(Var);
    emit(site(SiteKind::Other, Target), fact::BindStream{Var, R, None});
    return;
  }
  case VarClass::Event:
    bindEvent(Var, V, Target);
    return;
  case VarClass::Guard:
  case VarClass::Other:
    return;
  }
}

} // namespace streamsafe::py
