//===--- TupleLists.cpp - Lists of tuples of tensors ----------------------===//
//
// `pairs.append((t, buf, n))` then `for t, _, _ in pairs:` (the shape a
// stash or a bucket of pending copies takes). A name Scope.cpp found to
// hold tuples of one arity (TupleListShapes.h) is followed as one list of
// tensors per item of its tuples, a column: the columns share the list's
// shape (its literal positions, one slot per append site, the rest), so
// element K of the list is slot K of every column. Binding, append(),
// clear(), `del` and the scope's end act on every column; `for a, b in
// pairs` runs its body once per element with each name bound to its
// column's slot. Any other use hands the tuples on as a whole.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"

namespace streamsafe::py {

/// Lists longer than this are not unrolled (as Containers.cpp's).
constexpr size_t MaxUnrolledTuples = 8;

std::vector<ListSlots *> Builder::tupleColumns(llvm::StringRef Name) {
  const Scope *Owner = listOwner(Name);
  if (!Owner || !Owner->TupleLists.count(Name))
    return {};
  std::vector<ListSlots *> Out;
  for (size_t K = 0; K < Owner->TupleLists.lookup(Name).size(); ++K)
    Out.push_back(
        makeListSlots(Owner, Name, Name.str() + "." + std::to_string(K)));
  return Out;
}

Value Builder::tupleListValue(TSNode N, llvm::ArrayRef<ListSlots *> Columns) {
  Value V;
  V.Node = N;
  std::vector<llvm::SmallVector<TensorRef, 4>> ByColumn;
  for (ListSlots *C : Columns)
    ByColumn.push_back(elements(listValue(N, *C)));
  size_t Count = ByColumn.empty() ? 0 : ByColumn.front().size();
  for (size_t E = 0; E < Count; ++E) {
    llvm::SmallVector<TensorRef, 4> Tuple;
    for (const auto &Column : ByColumn)
      Tuple.push_back(Column[E]);
    for (const TensorRef &R : Tuple)
      if (R)
        V.Held.push_back(R);
    V.Tuples.push_back(std::move(Tuple));
  }
  return V;
}

void Builder::bindTupleList(TSNode Target, llvm::ArrayRef<ListSlots *> Columns,
                            const Value &V) {
  // `[]`, or tuples of the list's arity: by column; anything else is not
  // followed (the columns are dropped and the value escapes).
  bool Followed =
      (V.List && V.Items.empty() && V.Unplaced.empty()) ||
      (!V.Tuples.empty() && llvm::all_of(V.Tuples, [&](const auto &T) {
        return T.size() == Columns.size();
      }));
  for (size_t K = 0; K < Columns.size(); ++K) {
    Value Column;
    Column.Node = V.Node;
    Column.List = Followed;
    if (Followed)
      for (const auto &T : V.Tuples) {
        Column.Items.push_back(T[K]);
        if (T[K])
          Column.Held.push_back(T[K]);
      }
    bindList(Target, *Columns[K], Column);
  }
  if (!Followed)
    escape(V, Target);
}

bool Builder::tupleListMethod(TSNode N, llvm::StringRef Method, TSNode Object) {
  std::vector<ListSlots *> Columns = is(Object, "identifier")
                                         ? tupleColumns(F.text(Object))
                                         : std::vector<ListSlots *>();
  Args A = argsOf(N);
  if (Columns.empty())
    return false;
  if (Method == "append" && A.Positional.size() == 1) {
    Value E = expr(A.Positional[0]);
    bool Tuple = E.List && E.Items.size() == Columns.size();
    if (!Tuple)
      escape(E, N);
    for (size_t K = 0; K < Columns.size(); ++K)
      for (const auto &[Site, Slot] : Columns[K]->Appends)
        if (Site == N.id)
          emit(site(SiteKind::Other, N),
               fact::BindTensor{Slot, Tuple ? E.Items[K] : TensorRef()});
    return true;
  }
  if (Method == "clear") {
    for (ListSlots *C : Columns)
      for (VarId Slot : C->all())
        emit(site(SiteKind::LifetimeEnd, N), fact::Unbind{Slot});
    return true;
  }
  return false;
}

bool Builder::unrolledTupleLoop(TSNode N, const Value &Iterable) {
  TSNode Left = unparen(field(N, "left"));
  std::vector<TSNode> Names = children(Left);
  if (!is(Left, "pattern_list") && !is(Left, "tuple_pattern"))
    return false;
  if (Iterable.Tuples.size() > MaxUnrolledTuples ||
      llvm::any_of(Names, [](TSNode X) { return !is(X, "identifier"); }) ||
      llvm::any_of(Iterable.Tuples,
                   [&](const auto &T) { return T.size() != Names.size(); }))
    return false;
  unrollLoop(N, Iterable.Tuples.size(), [&](size_t E) {
    for (size_t K = 0; K < Names.size(); ++K) {
      if (St->S->classOf(F.text(Names[K])) != VarClass::Tensor)
        continue;
      Value Item;
      Item.Node = Names[K];
      if (TensorRef R = Iterable.Tuples[E][K]) {
        Item.Class = VarClass::Tensor;
        Item.Tensor = R;
      }
      bindName(Names[K], Item);
    }
  });
  return true;
}

} // namespace streamsafe::py
