//===--- TupleListShapes.cpp - Lists of tuples, from their syntax ---------===//

#include "lib/python/TupleListShapes.h"

namespace streamsafe::py::infer {

// The items of a tuple literal (none: not one, or one with *xs).
static std::optional<std::vector<TSNode>> tupleItems(TSNode N) {
  N = unparen(N);
  if (ts_node_is_null(N) || !is(N, "tuple"))
    return std::nullopt;
  std::vector<TSNode> Items = children(N);
  for (TSNode X : Items)
    if (is(X, "list_splat") || is(X, "starred_expression"))
      return std::nullopt;
  return Items;
}

// The tuples a binding puts in the list (none: not a list literal of
// tuples).
static std::optional<std::vector<TSNode>> literalTuples(TSNode Binding) {
  Binding = unparen(Binding);
  if (ts_node_is_null(Binding) || !is(Binding, "list"))
    return std::nullopt;
  return children(Binding);
}

unsigned tupleListArity(llvm::ArrayRef<TSNode> Bindings,
                        llvm::ArrayRef<TSNode> Appends) {
  std::optional<size_t> Arity;
  auto Agree = [&](TSNode Tuple) {
    std::optional<std::vector<TSNode>> Items = tupleItems(Tuple);
    if (!Items || (Arity && *Arity != Items->size()))
      return false;
    Arity = Items->size();
    return true;
  };
  for (TSNode B : Bindings) {
    std::optional<std::vector<TSNode>> Tuples = literalTuples(B);
    if (!Tuples || !llvm::all_of(*Tuples, Agree))
      return 0;
  }
  if (!llvm::all_of(Appends, Agree))
    return 0;
  return Arity && *Arity >= 2 ? unsigned(*Arity) : 0;
}

Cls tupleListColumn(unsigned Column, llvm::ArrayRef<TSNode> Bindings,
                    llvm::ArrayRef<TSNode> Appends, const Lookup &L,
                    const SourceFile &F, const Imports &I) {
  Cls All;
  auto Add = [&](TSNode Tuple) {
    std::optional<std::vector<TSNode>> Items = tupleItems(Tuple);
    if (Items && Column < Items->size())
      All = join(All, exprClass((*Items)[Column], L, F, I));
  };
  for (TSNode B : Bindings)
    if (std::optional<std::vector<TSNode>> Tuples = literalTuples(B))
      for (TSNode T : *Tuples)
        Add(T);
  for (TSNode A : Appends)
    Add(A);
  return All;
}

} // namespace streamsafe::py::infer
