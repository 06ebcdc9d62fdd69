//===--- Regions.cpp - Which part of its storage a Python view touches ----===//
//
// The Python rendering of lib/frontend/LowerRegions.cpp: `t[0]`, `t[1:3]`,
// `t.select(0, k)`, `t.narrow(0, a, n)` and the elements of `t.chunk(n)`,
// `t.split(k)`, `t.unbind()` with constant integers touch rows of the first
// dimension of t's storage (lib/ir/Region.h). A region is relative to the
// storage itself, so it is only known through a name that certainly
// denotes the whole storage or one fixed view of it: a parameter of the
// analysed function or a global (never rebound), or a local bound exactly
// once. Anything else covers an unknown part (precision first: regions
// only remove conflicts that cannot happen).
//
//===----------------------------------------------------------------------===//

#include "lib/lower/Regions.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdint>

namespace streamsafe::py {

std::optional<int64_t> Builder::constantInt(TSNode N) {
  N = unparen(N);
  if (ts_node_is_null(N))
    return std::nullopt;
  if (is(N, "unary_operator")) {
    std::optional<int64_t> V = constantInt(field(N, "argument"));
    llvm::StringRef Op = F.text(N).ltrim().take_front(1);
    if (V && Op == "-")
      return -*V;
    return Op == "+" ? V : std::nullopt;
  }
  if (!is(N, "integer"))
    return std::nullopt;
  int64_t V = 0;
  std::string Text = F.text(N).str();
  llvm::erase(Text, '_');
  if (llvm::StringRef(Text).getAsInteger(0, V))
    return std::nullopt;
  return V;
}

// An argument absent takes \p Default; present but not constant: unknown.
std::optional<int64_t> Builder::constantArg(const Args &A, unsigned Index,
                                            llvm::StringRef Name,
                                            int64_t Default) {
  TSNode N = A.get(Index, Name);
  if (ts_node_is_null(N))
    return Default;
  return constantInt(N);
}

Region Builder::nameRegion(llvm::StringRef Name) {
  const Scope *Owner = St->S->owner(Name);
  if (!Owner)
    return Region::some();
  // A global seen from a function: one storage, never rebound by it.
  if (Owner->K == Scope::Module && Root->K != Scope::Module)
    return Region::whole();
  // A closure's variable may be bound to anything by the time it runs.
  if (Owner != St->S)
    return Region::some();
  auto Key = std::make_pair(Owner, Name.str());
  if (auto It = Memo.NameRegions.find(Key); It != Memo.NameRegions.end())
    return It->second;
  Memo.NameRegions[Key] = Region::some(); // while this one is computed
  Region R = Region::some();
  auto B = Owner->Bindings.find(Name);
  auto E = Owner->Elements.find(Name);
  size_t Binds = (B == Owner->Bindings.end() ? 0 : B->second.size()) +
                 (E == Owner->Elements.end() ? 0 : E->second.size());
  bool Param =
      llvm::any_of(Owner->Params, [&](TSNode P) { return F.text(P) == Name; });
  if (Param) {
    // Only the analysed function's own parameters are storages of their
    // own; a thread body's are bound to what its starter passed.
    if (Binds == 0 && Owner == Root)
      R = Region::whole();
  } else if (Binds == 1 && B != Owner->Bindings.end()) {
    if (!ts_node_is_null(B->second.front()))
      R = exprRegion(B->second.front());
  } else if (Binds == 1) {
    auto [Container, Index] = E->second.front();
    if (Index >= 0)
      R = elementRegion(Container, Index);
  }
  return Memo.NameRegions[Key] = R;
}

Region Builder::exprRegion(TSNode N) {
  N = unparen(N);
  if (ts_node_is_null(N))
    return Region::some();
  auto ClassOf = [&](TSNode X) { return classOfExpr(X, *St->S, F, I); };
  llvm::StringRef T = type(N);
  if (T == "identifier")
    return ClassOf(N) == VarClass::Tensor ? nameRegion(F.text(N))
                                          : Region::some();
  if (T == "attribute") {
    // x.data is all of x; x.T and the others are not rows of it.
    if (F.text(field(N, "attribute")) == "data")
      return exprRegion(field(N, "object"));
    return Region::some();
  }
  if (T == "subscript") {
    TSNode Value = field(N, "value");
    if (ClassOf(Value) == VarClass::Tensor) {
      Region Base = exprRegion(Value);
      return Base.K == Region::Whole ? subscriptRegion(N) : Base;
    }
    std::vector<TSNode> Index = fieldChildren(N, "subscript");
    std::optional<int64_t> K =
        Index.size() == 1 ? constantInt(Index[0]) : std::nullopt;
    return K && *K >= 0 ? elementRegion(Value, *K) : Region::some();
  }
  if (T == "call") {
    TSNode Fn = field(N, "function");
    if (is(Fn, "attribute") &&
        ClassOf(field(Fn, "object")) == VarClass::Tensor) {
      TSNode Self = field(Fn, "object");
      llvm::StringRef Method = F.text(field(Fn, "attribute"));
      return methodResultRegion(py::tensorMethod(Method), exprRegion(Self),
                                [&] { return viewRegion(N, Method); });
    }
  }
  // A new tensor (an op, an operator, a factory) is all of its storage.
  if ((T == "call" || T == "binary_operator" || T == "unary_operator" ||
       T == "comparison_operator") &&
      ClassOf(N) == VarClass::Tensor)
    return Region::whole();
  return Region::some();
}

Region Builder::viewRegion(TSNode Call, llvm::StringRef Method) {
  Args A = argsOf(Call);
  return streamsafe::viewRegion(
      Method, [&](unsigned Position, llvm::StringRef Keyword, int64_t Default) {
        return constantArg(A, Position, Keyword, Default);
      });
}

Region Builder::subscriptRegion(TSNode Subscript) {
  std::vector<TSNode> Items = fieldChildren(Subscript, "subscript");
  if (Items.empty())
    return Region::some();
  // t[..., 0], t[None]: the first index is not the first dimension.
  for (TSNode Item : Items)
    if (is(Item, "ellipsis") || is(Item, "none"))
      return Region::some();
  TSNode First = unparen(Items.front());
  if (std::optional<int64_t> K = constantInt(First))
    return *K >= 0 ? Region::rows(*K, *K + 1) : Region::some();
  if (!is(First, "slice"))
    return Region::some();
  // start:stop:step, each part optional; a step touches a subset.
  std::optional<int64_t> Parts[3] = {0, INT64_MAX, 1};
  unsigned Part = 0;
  uint32_t Count = ts_node_child_count(First);
  for (uint32_t K = 0; K < Count; ++K) {
    TSNode C = ts_node_child(First, K);
    if (!ts_node_is_named(C)) {
      if (F.text(C) == ":")
        ++Part;
      continue;
    }
    if (Part < 3 && !is(C, "comment"))
      Parts[Part] = constantInt(C);
  }
  if (Parts[0] && *Parts[0] >= 0 && Parts[1] && *Parts[1] >= *Parts[0] &&
      Parts[2] && *Parts[2] > 0)
    return Region::rows(*Parts[0], *Parts[1]);
  return Region::some();
}

Region Builder::elementRegion(TSNode Container, int64_t Index) {
  Container = unparen(Container);
  auto ClassOf = [&](TSNode X) { return classOfExpr(X, *St->S, F, I); };
  if (is(Container, "list") || is(Container, "tuple") ||
      is(Container, "expression_list")) {
    std::vector<TSNode> Items = children(Container);
    return size_t(Index) < Items.size() ? exprRegion(Items[Index])
                                        : Region::some();
  }
  if (is(Container, "identifier")) {
    // A list bound once and never reshaped: its binding says.
    llvm::StringRef Name = F.text(Container);
    const Scope *Owner = St->S->owner(Name);
    if (Owner != St->S || !Owner->TensorLists.contains(Name) ||
        listReshaped(Name))
      return Region::some();
    auto B = Owner->Bindings.find(Name);
    if (B == Owner->Bindings.end() || B->second.size() != 1 ||
        ts_node_is_null(B->second.front()))
      return Region::some();
    return elementRegion(B->second.front(), Index);
  }
  TSNode Base = pieceListBase(Container, F, I, ClassOf);
  if (ts_node_is_null(Base) || Index < 0 || exprRegion(Base).K != Region::Whole)
    return Region::some();
  // chunk(chunks, dim=0), split(split_size, dim=0), unbind(dim=0); as
  // torch.chunk(t, ...), the arguments come after the tensor.
  TSNode Fn = field(Container, "function");
  bool Method = is(Fn, "attribute") && field(Fn, "object").id == Base.id;
  std::string Name =
      Method ? F.text(field(Fn, "attribute")).str()
             : llvm::StringRef(I.qualify(Fn)).rsplit('.').second.str();
  Args A = argsOf(Container);
  if (!Method && !A.Positional.empty())
    A.Positional.erase(A.Positional.begin());
  return streamsafe::pieceRegion(
      Name, Index,
      [&](unsigned Position, llvm::StringRef Keyword, int64_t Default) {
        return constantArg(A, Position, Keyword, Default);
      });
}

} // namespace streamsafe::py
