//===--- Containers.cpp - Lists and tuples of tensors ---------------------===//
//
// A name that holds a list or tuple of tensors (Scope::TensorLists) is
// followed element by element: each element is a synthetic tensor variable
// of the list (one per literal position, one per append() site, one for
// the elements of no known position: a comprehension's results, the views
// chunk() returns), bound and unbound as the list changes. Holding an
// element keeps its storage alive; rebinding the list, clear(), `del` and
// the end of the function let go of them. `xs[k]` with a constant k is
// the element itself while no call moves elements around; `for x in xs`
// runs its body once per element; torch.stack(xs) and torch.cat(xs) read
// every element. A list passed to code the analysis does not see lets its
// elements escape, as a tuple always did.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ScopeBindings.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

/// Loops over more elements than this are not unrolled (not followed).
constexpr size_t MaxUnrolled = 8;

llvm::SmallVector<TensorRef, 4> Builder::elements(const Value &V) {
  llvm::SmallVector<TensorRef, 4> Out(V.Items.begin(), V.Items.end());
  Out.append(V.Unplaced.begin(), V.Unplaced.end());
  return Out;
}

// Calls of methods of \p Name in \p N: its own code's and, where they
// name the list, its nested defs' (closures run in place share it).
// \p Captured: a nested def or lambda names it (it outlives the scope).
static void listUses(TSNode N, llvm::StringRef Name, const SourceFile &F,
                     std::vector<TSNode> &Appends, bool &Reshaped,
                     bool &Captured) {
  if (ts_node_is_null(N))
    return;
  llvm::StringRef T = type(N);
  if (T == "class_definition")
    return;
  if (T == "function_definition" || T == "lambda") {
    if (T == "function_definition" && defBinds(N, Name, F))
      return;
    bool Named = false;
    everyNode(N, [&](TSNode X) {
      Named |= is(X, "identifier") && F.text(X) == Name;
    });
    Captured |= Named;
    if (!Named || T == "lambda")
      return;
  }
  auto IsName = [&](TSNode X) {
    return is(unparen(X), "identifier") && F.text(unparen(X)) == Name;
  };
  if (T == "call" && is(field(N, "function"), "attribute") &&
      IsName(field(field(N, "function"), "object"))) {
    llvm::StringRef M = F.text(field(field(N, "function"), "attribute"));
    if (M == "append")
      Appends.push_back(N);
    else if (M != "clear" && M != "index" && M != "count" && M != "copy")
      Reshaped = true; // pop, insert, remove, extend, sort, reverse, ...
  } else if (T == "delete_statement" || T == "assignment" ||
             T == "augmented_assignment") {
    // del xs[k], xs[k] = v, xs += ys.
    std::vector<TSNode> Targets = T == "delete_statement"
                                      ? children(N)
                                      : std::vector<TSNode>{field(N, "left")};
    for (TSNode Target : Targets) {
      std::vector<TSNode> Items =
          is(Target, "expression_list") || is(Target, "pattern_list")
              ? children(Target)
              : std::vector<TSNode>{Target};
      for (TSNode X : Items)
        if ((is(X, "subscript") && IsName(field(X, "value"))) ||
            (T == "augmented_assignment" && IsName(X)))
          Reshaped = true;
    }
  }
  uint32_t Count = ts_node_named_child_count(N);
  for (uint32_t K = 0; K < Count; ++K)
    listUses(ts_node_named_child(N, K), Name, F, Appends, Reshaped, Captured);
}

const Scope *Builder::listOwner(llvm::StringRef Name) {
  const Scope *Owner = St->S->owner(Name);
  if (!Owner || Owner == St->S)
    return Owner;
  // A closure of the analysed def, run in place, shares its lists.
  if (Owner != Root || St->SiteScope == 0)
    return nullptr;
  for (const Scope *S = St->S; S; S = S->Parent) {
    if (S == Root)
      return Owner;
    if (S->K != Scope::Def)
      return nullptr;
  }
  return nullptr;
}

ListSlots *Builder::listSlots(llvm::StringRef Name) {
  const Scope *Owner = listOwner(Name);
  if (!Owner || !Owner->TensorLists.contains(Name))
    return nullptr;
  return makeListSlots(Owner, Name, Name.str());
}

ListSlots *Builder::makeListSlots(const Scope *Owner, llvm::StringRef Name,
                                  const std::string &Key) {
  bool New = false;
  ListSlots &L = ListVars.slots(Owner, Key, New);
  if (!New)
    return &L;
  // Every slot the list will ever have, made now: a binding unbinds them
  // all, whatever was lowered before it.
  // Each slot is named after the list: a storage first held by the list
  // (an appended temporary, a comprehension's result) is the list's.
  auto Slot = [&](std::string SlotName) {
    Variable V;
    V.Name = std::move(SlotName);
    V.Class = VarClass::Tensor;
    IR->Vars.push_back(std::move(V));
    return VarId(IR->Vars.size() - 1);
  };
  Variable Named;
  Named.Name = Name.str();
  IR->Vars.push_back(std::move(Named));
  L.Name = IR->Vars.size() - 1;
  size_t Positions = 0;
  bool Unplaced = false;
  L.Pieces = true;
  for (TSNode B : Owner->Bindings.lookup(Name)) {
    B = unparen(B);
    if (is(B, "list") || is(B, "tuple") || is(B, "expression_list"))
      Positions = std::max(Positions, children(B).size());
    else
      Unplaced = true;
    L.Pieces &= !ts_node_is_null(pieceListBase(
        B, F, I, [&](TSNode X) { return classOfExpr(X, *St->S, F, I); }));
  }
  for (size_t K = 0; K < Positions; ++K)
    L.Positions.push_back(Slot(Name.str()));
  std::vector<TSNode> Appends;
  bool Moves = false;
  TSNode Body =
      Owner->K == Scope::Module ? Owner->Node : field(Owner->Node, "body");
  for (TSNode S : children(Body))
    listUses(S, Name, F, Appends, Moves, L.Captured);
  for (TSNode A : Appends)
    L.Appends.push_back({A.id, Slot(Name.str())});
  if (Unplaced)
    L.Rest = Slot(Name.str());
  L.Reshaped = Moves;
  return &L;
}

bool Builder::listReshaped(llvm::StringRef Name) {
  ListSlots *L = listSlots(Name);
  return !L || L->Reshaped;
}

Value Builder::listValue(TSNode N, ListSlots &L) {
  Value V;
  V.Node = N;
  V.List = true;
  // An element is named by its storage; chunk()'s views, as in C++, by
  // the list ('pieces' (a view of 'x')).
  auto Ref = [&](VarId Slot) {
    TensorRef R = TensorRef::var(Slot);
    R.Named = L.Pieces ? L.Name : NoVar;
    R.Part = Region::some();
    return R;
  };
  for (VarId P : L.Positions)
    V.Items.push_back(Ref(P));
  for (const auto &[Site, Slot] : L.Appends)
    V.Unplaced.push_back(Ref(Slot));
  if (L.Rest != NoVar)
    V.Unplaced.push_back(Ref(L.Rest));
  V.Held = elements(V);
  return V;
}

Value Builder::containerLiteral(TSNode N) {
  Value V;
  V.Node = N;
  V.List = true;
  bool Tuples = true;
  for (TSNode C : children(N)) {
    Value E = expr(C);
    // [(a, b), (c, d)]: a list of tuples, followed item by item.
    Tuples &= is(unparen(C), "tuple") && E.List;
    if (Tuples)
      V.Tuples.emplace_back(E.Items.begin(), E.Items.end());
    if (is(C, "list_splat") || is(C, "starred_expression") || E.List)
      V.List = false; // *xs, nested lists: not followed by position
    V.Items.push_back(E.Class == VarClass::Tensor ? E.Tensor : TensorRef());
    if (E.Class == VarClass::Tensor && E.Tensor)
      V.Held.push_back(E.Tensor);
    V.Held.append(E.Held.begin(), E.Held.end());
  }
  if (!V.List)
    V.Items.clear();
  if (!Tuples)
    V.Tuples.clear();
  return V;
}

Value Builder::comprehension(TSNode N) {
  // Lowered once per element of what it iterates (or once, when that is
  // not a list followed): the element's value stands for the results.
  Value R;
  R.Node = N;
  // An element of a parameter annotated as a container of tensors (\p
  // Annotated): one of the caller's tensors.
  auto CallerElement = [&](TSNode Of, const llvm::StringSet<> &Annotated) {
    Value E;
    Of = unparen(Of);
    if (!is(Of, "identifier") || St->S != Root ||
        !Annotated.contains(F.text(Of)))
      return E;
    if (VarId Elements = callerElements(Of); Elements != NoVar) {
      E.Class = VarClass::Tensor;
      E.Tensor = TensorRef::var(Elements);
    }
    return E;
  };
  // A dict comprehension's `key: value` computes both; its dict is opaque.
  auto Body = [&](TSNode B) {
    if (!is(B, "pair"))
      return expr(B);
    expr(field(B, "key"));
    expr(field(B, "value"));
    return Value();
  };
  TSNode Clause = {};
  for (TSNode C : children(N))
    if (is(C, "for_in_clause")) {
      if (!ts_node_is_null(Clause))
        return R; // nested loops: opaque
      Clause = C;
    }
  if (ts_node_is_null(Clause))
    return R;
  TSNode Left = unparen(field(Clause, "left"));
  // `v for k, v in d.items()`, `v for v in d.values()`: some value of d,
  // the caller's when d is a parameter holding the caller's tensors.
  if (TSNode Dict = dictLoopOf(Clause, F); !ts_node_is_null(Dict)) {
    expr(field(Clause, "right"));
    std::vector<TSNode> Names =
        is(Left, "identifier") ? std::vector<TSNode>{Left} : children(Left);
    Value Element = CallerElement(Dict, Root->TensorDictParams);
    for (TSNode Name : Names)
      ListVars.substitute(F.text(Name).str(),
                          Name.id == Names.back().id ? Element : Value());
    for (TSNode C : children(N))
      if (is(C, "if_clause"))
        for (TSNode X : children(C))
          expr(X);
    Body(field(N, "body"));
    for (size_t K = 0; K < Names.size(); ++K)
      ListVars.endSubstitution();
    return R;
  }
  if (!is(Left, "identifier"))
    return R;
  Value Source = expr(field(Clause, "right"));
  llvm::SmallVector<TensorRef, 4> Each = elements(Source);
  bool Known = Source.List && !Each.empty() && Each.size() <= MaxUnrolled;
  if (!Known)
    Each = {TensorRef()};
  std::vector<Value> Results;
  for (const TensorRef &E : Each) {
    Value Element;
    if (E) {
      Element.Class = VarClass::Tensor;
      Element.Tensor = E;
    } else if (!Known) {
      // `[t.cpu() for t in xs]` of `xs: List[torch.Tensor]`: the caller's.
      Element = CallerElement(field(Clause, "right"), Root->TensorListParams);
    }
    ListVars.substitute(F.text(Left).str(), Element);
    for (TSNode C : children(N))
      if (is(C, "if_clause"))
        for (TSNode X : children(C))
          expr(X);
    Results.push_back(Body(field(N, "body")));
    ListVars.endSubstitution();
  }
  R.List = true;
  bool Same = llvm::all_of(Results, [&](const Value &X) {
    return X.Class == VarClass::Tensor && X.Tensor.K == TensorRef::Result &&
           X.Tensor.Id == Results.front().Tensor.Id;
  });
  for (const Value &X : Results)
    if (X.Class == VarClass::Tensor && X.Tensor)
      R.Held.push_back(X.Tensor);
  if (Same) {
    // One allocation per element: one storage stands for them all.
    R.Unplaced.push_back(Results.front().Tensor);
  } else if (Known && Source.Unplaced.empty()) {
    for (const Value &X : Results)
      R.Items.push_back(X.Class == VarClass::Tensor ? X.Tensor : TensorRef());
  } else {
    R.List = false;
  }
  return R;
}

Value Builder::pieceList(TSNode N, const Value &Self) {
  // Views of Self's storage: one unplaced element names all of them.
  Value V;
  V.Node = N;
  V.List = true;
  if (Self.Class == VarClass::Tensor && Self.Tensor) {
    TensorRef R = Self.Tensor;
    R.Part = Region::some();
    V.Unplaced.push_back(R);
    V.Held.push_back(R);
  }
  return V;
}

Value Builder::listElement(TSNode Subscript, const Value &List) {
  Value V;
  V.Node = Subscript;
  std::vector<TSNode> Index = fieldChildren(Subscript, "subscript");
  std::optional<int64_t> K =
      Index.size() == 1 ? constantInt(Index[0]) : std::nullopt;
  if (!K || *K < 0)
    return V;
  TSNode Base = unparen(field(Subscript, "value"));
  if (is(Base, "identifier") && listReshaped(F.text(Base)))
    return V;
  // A literal's position, or one of the pieces of one storage.
  TensorRef R;
  if (size_t(*K) < List.Items.size() && List.Unplaced.empty())
    R = List.Items[*K];
  else if (List.Items.empty() && List.Unplaced.size() == 1 &&
           !is(Base, "identifier"))
    R = List.Unplaced.front(); // t.chunk(4)[1]
  else if (List.Items.empty() && List.Unplaced.size() == 1 &&
           is(Base, "identifier")) {
    // pieces[1]: a list bound once, to chunk() or its kin.
    const Scope *Owner = St->S->owner(F.text(Base));
    std::vector<TSNode> B =
        Owner ? Owner->Bindings.lookup(F.text(Base)) : std::vector<TSNode>();
    if (B.size() == 1 && !ts_node_is_null(B.front()) &&
        !ts_node_is_null(pieceListBase(B.front(), F, I, [&](TSNode X) {
          return classOfExpr(X, *St->S, F, I);
        })))
      R = List.Unplaced.front();
  }
  if (!R)
    return V;
  V.Class = VarClass::Tensor;
  V.Tensor = R;
  V.Tensor.Part =
      R.K == TensorRef::Var ? elementRegion(Base, *K) : Region::whole();
  return V;
}

void Builder::bindList(TSNode Target, ListSlots &L, const Value &V) {
  // The elements the list held go (their storages die unless held
  // elsewhere); the new ones are bound by position, or to the slot of no
  // known position. A value not followed leaves nothing bound.
  auto Bind = [&](VarId Slot, TensorRef R) {
    emit(site(SiteKind::Other, Target), fact::BindTensor{Slot, R});
  };
  // An empty slot holds None, not nothing: a loop that appends meets the
  // path before it with the slot bound on both (the engine joins them).
  auto Drop = [&](VarId Slot) {
    emit(site(SiteKind::LifetimeEnd, Target), fact::BindTensor{Slot, {}});
  };
  bool Placed =
      V.List && V.Items.size() <= L.Positions.size() &&
      (V.Unplaced.empty() || (V.Unplaced.size() == 1 && L.Rest != NoVar));
  for (size_t K = 0; K < L.Positions.size(); ++K) {
    if (Placed && K < V.Items.size() && V.Items[K])
      Bind(L.Positions[K], V.Items[K]);
    else
      Drop(L.Positions[K]);
  }
  for (const auto &[Site, Slot] : L.Appends)
    Drop(Slot);
  if (L.Rest != NoVar) {
    if (Placed && !V.Unplaced.empty())
      Bind(L.Rest, V.Unplaced.front());
    else
      Drop(L.Rest);
  }
  if (!Placed)
    escape(V, Target); // held by a list the analysis does not follow
}

Value Builder::listMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                          TSNode Object) {
  Value R;
  R.Node = N;
  ListSlots *L = listSlots(F.text(Object));
  Args A = argsOf(N);
  if (L && Method == "append" && A.Positional.size() == 1) {
    Value E = expr(A.Positional[0]);
    for (const auto &[Site, Slot] : L->Appends)
      if (Site == N.id)
        emit(site(SiteKind::Other, N),
             fact::BindTensor{Slot, E.Class == VarClass::Tensor ? E.Tensor
                                                                : TensorRef()});
    return R;
  }
  if (L && Method == "clear") {
    for (VarId Slot : L->all())
      emit(site(SiteKind::LifetimeEnd, N), fact::Unbind{Slot});
    return R;
  }
  if (tupleListMethod(N, Method, Object))
    return R;
  if (Method == "index" || Method == "count" || Method == "copy") {
    for (TSNode P : A.Positional)
      expr(P);
    if (Method == "copy")
      return Self; // the same tensors
    return R;
  }
  // pop, insert, extend, remove, ...: what goes in or out is not followed.
  escape(Self, N);
  return unknownCall(A, true);
}

void Builder::deleteFromList(TSNode Target) {
  // del xs: the list goes; del xs[k]: an element goes and the later ones
  // move down (followed for a literal's positions, with no appends).
  if (is(Target, "identifier")) {
    std::vector<ListSlots *> Lists = tupleColumns(F.text(Target));
    if (ListSlots *L = listSlots(F.text(Target)))
      Lists.push_back(L);
    for (ListSlots *L : Lists)
      for (VarId Slot : L->all())
        emit(site(SiteKind::LifetimeEnd, Target), fact::Unbind{Slot});
    return;
  }
  if (!is(Target, "subscript"))
    return;
  TSNode Base = unparen(field(Target, "value"));
  ListSlots *L = is(Base, "identifier") ? listSlots(F.text(Base)) : nullptr;
  std::vector<TSNode> Index = fieldChildren(Target, "subscript");
  std::optional<int64_t> K =
      Index.size() == 1 ? constantInt(Index[0]) : std::nullopt;
  if (!L || !K || *K < 0 || size_t(*K) >= L->Positions.size() ||
      !L->Appends.empty() || L->Rest != NoVar)
    return;
  for (size_t J = *K; J + 1 < L->Positions.size(); ++J)
    emit(
        site(SiteKind::Other, Target),
        fact::BindTensor{L->Positions[J], TensorRef::var(L->Positions[J + 1])});
  emit(site(SiteKind::LifetimeEnd, Target), fact::Unbind{L->Positions.back()});
}

void Builder::unbindLists(SiteId At) {
  // A list a closure names lives on with it: what it holds escapes.
  for (const ListSlots *L : ListVars.slotsOf(St->S))
    for (VarId Slot : L->all())
      if (L->Captured)
        emit(At, fact::EscapeTensor{TensorRef::var(Slot)});
      else
        emit(At, fact::Unbind{Slot});
}

bool Builder::unrolledLoop(TSNode N, const Value &Iterable) {
  TSNode Left = unparen(field(N, "left"));
  if (!Iterable.Tuples.empty())
    return unrolledTupleLoop(N, Iterable);
  llvm::SmallVector<TensorRef, 4> Each = elements(Iterable);
  if (!Iterable.List || Each.empty() || Each.size() > MaxUnrolled ||
      !is(Left, "identifier") ||
      St->S->classOf(F.text(Left)) != VarClass::Tensor)
    return false;
  unrollLoop(N, Each.size(), [&](size_t K) {
    Value E;
    E.Class = VarClass::Tensor;
    E.Tensor = Each[K];
    bindName(Left, E);
  });
  return true;
}

void Builder::unrollLoop(TSNode N, size_t Count,
                         llvm::function_ref<void(size_t)> Bind) {
  // The body once per element, in order: a continue goes to the next
  // element, a break after the loop; the else clause runs after the last.
  unsigned After = newBlock();
  std::vector<unsigned> Starts;
  for (size_t K = 0; K <= Count; ++K)
    Starts.push_back(newBlock());
  edge(St->Cur, Starts[0]);
  for (size_t K = 0; K < Count; ++K) {
    St->Cur = Starts[K];
    Bind(K);
    Frame L;
    L.K = Frame::Loop;
    L.Break = After;
    L.Continue = Starts[K + 1];
    St->Frames.push_back(L);
    block(field(N, "body"));
    St->Frames.pop_back();
    edge(St->Cur, Starts[K + 1]);
  }
  St->Cur = Starts.back();
  if (TSNode Else = field(N, "alternative"); !ts_node_is_null(Else))
    block(field(Else, "body"));
  edge(St->Cur, After);
  St->Cur = After;
}

} // namespace streamsafe::py
