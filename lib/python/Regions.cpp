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
#include <algorithm>
#include <cstdint>

namespace streamsafe::py {

// An argument absent takes \p Default; present but not constant: unknown.
std::optional<int64_t> Builder::constantArg(const Args &A, unsigned Index,
                                            llvm::StringRef Name,
                                            int64_t Default) {
  TSNode N = A.get(Index, Name);
  if (ts_node_is_null(N))
    return Default;
  return constantInt(N);
}

/// bindingsOf's index of a binding of the whole value (`x = v`).
constexpr int WholeValue = -2;

/// Every place \p S binds \p Name: the value bound (WholeValue), or a
/// container and the element's position in it (-1: not known).
static std::vector<std::pair<TSNode, int>> bindingsOf(const Scope &S,
                                                      llvm::StringRef Name) {
  std::vector<std::pair<TSNode, int>> All;
  if (auto B = S.Bindings.find(Name); B != S.Bindings.end())
    for (TSNode V : B->second)
      All.push_back({V, WholeValue});
  if (auto E = S.Elements.find(Name); E != S.Elements.end())
    All.insert(All.end(), E->second.begin(), E->second.end());
  return All;
}

Region Builder::nameRegion(llvm::StringRef Name, TSNode At) {
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
  } else if (Binds > 1) {
    // Bound in several places: what the bindings that may reach the use
    // give, when they agree (the use's own arm of an if, or one region).
    Memo.NameRegions.erase(Key);
    return reachingRegion(*Owner, Name, At);
  }
  return Memo.NameRegions[Key] = R;
}

Region Builder::reachingRegion(const Scope &Owner, llvm::StringRef Name,
                               TSNode At) {
  if (ts_node_is_null(At))
    return Region::some();
  auto Key = std::make_pair(&Owner, Name.str());
  // A name bound from itself (`x = x[1:]`) while its region is computed.
  if (!Memo.ReachingNow.insert(Key).second)
    return Region::some();
  std::optional<Region> R;
  bool Agree = true;
  auto Reaches = [&](TSNode Bound) {
    // With no loop around a binding, one that ends after the use, or lies
    // in another arm of an if, does not reach it.
    return ts_node_end_byte(Bound) <= ts_node_start_byte(At) &&
           !exclusiveArms(Bound, At);
  };
  auto Meet = [&](Region Of) {
    Agree &= !R || *R == Of;
    R = Of;
  };
  for (auto [Node, Index] : bindingsOf(Owner, Name)) {
    if (ts_node_is_null(Node) || inLoopBelow(Node, Owner.Node)) {
      Agree = false;
      break;
    }
    if (!Reaches(Node))
      continue;
    Meet(Index == WholeValue ? exprRegion(Node)
         : Index >= 0        ? elementRegion(Node, Index)
                             : Region::some());
  }
  Memo.ReachingNow.erase(Key);
  return Agree && R ? *R : Region::some();
}

Region Builder::exprRegion(TSNode N) {
  N = unparen(N);
  if (ts_node_is_null(N))
    return Region::some();
  auto ClassOf = [&](TSNode X) { return classOfExpr(X, *St->S, F, I); };
  llvm::StringRef T = type(N);
  if (T == "identifier")
    return ClassOf(N) == VarClass::Tensor ? nameRegion(F.text(N), N)
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
  // t[:, :, a:b]: rows of the first dimension not taken whole, when every
  // later one is (`t[:, a:b, :]`); t[a:b, k]: rows of the first.
  size_t Dim = 0;
  while (Dim + 1 < Items.size() && wholeSlice(Items[Dim]))
    ++Dim;
  if (Dim > 0 && (Dim > UINT8_MAX ||
                  !std::all_of(Items.begin() + Dim + 1, Items.end(),
                               [&](TSNode X) { return wholeSlice(X); })))
    return Region::some();
  TSNode First = unparen(Items[Dim]);
  if (std::optional<SliceBound> K = boundOf(First))
    return K->Sym || K->Offset >= 0
               ? Region::rowsOf(Dim, K->Sym, K->Offset, K->Sym, K->Offset + 1)
               : Region::some();
  if (!is(First, "slice"))
    return Region::some();
  // start:stop:step, each part optional; a step touches a subset.
  std::optional<SliceBound> Parts[3] = {
      SliceBound{0, 0}, SliceBound{0, INT64_MAX}, SliceBound{0, 1}};
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
      Parts[Part] = boundOf(C);
  }
  // A constant bound counts from the end when negative; a name's is taken
  // as it is (a size, a count).
  if (!Parts[0] || !Parts[1] || !Parts[2] || Parts[2]->Sym ||
      Parts[2]->Offset <= 0 || (!Parts[0]->Sym && Parts[0]->Offset < 0) ||
      (!Parts[1]->Sym && Parts[1]->Offset < 0))
    return Region::some();
  if (!Parts[0]->Sym && !Parts[1]->Sym && Parts[1]->Offset < Parts[0]->Offset)
    return Region::some();
  return Region::rowsOf(Dim, Parts[0]->Sym, Parts[0]->Offset, Parts[1]->Sym,
                        Parts[1]->Offset);
}

std::optional<SliceBound> Builder::boundOf(TSNode N) {
  N = unparen(N);
  if (std::optional<int64_t> K = constantInt(N))
    return SliceBound{0, *K};
  if (is(N, "identifier")) {
    uint32_t Sym = regionSymbol(N);
    return Sym ? std::optional<SliceBound>(SliceBound{Sym, 0}) : std::nullopt;
  }
  // name + c, name - c, c + name.
  if (!is(N, "binary_operator"))
    return std::nullopt;
  llvm::StringRef Op = F.text(field(N, "operator"));
  std::optional<SliceBound> L = boundOf(field(N, "left")),
                            R = boundOf(field(N, "right"));
  if (!L || !R || (L->Sym && R->Sym))
    return std::nullopt;
  if (Op == "+")
    return SliceBound{L->Sym | R->Sym, L->Offset + R->Offset};
  if (Op == "-" && !R->Sym)
    return SliceBound{L->Sym, L->Offset - R->Offset};
  return std::nullopt;
}

uint32_t Builder::regionSymbol(TSNode Name) {
  llvm::StringRef Text = F.text(Name);
  // The analysed def's own names only: a helper run twice binds its own
  // anew each time.
  if (St->S != Root || St->SiteScope != 0 || Root->K != Scope::Def ||
      Root->owner(Text) != Root || Root->Augmented.contains(Text))
    return 0;
  auto [It, New] = Memo.RegionSymbols.try_emplace(Text.str(), 0);
  if (!New)
    return It->second;
  // One value while the def runs: a parameter it never binds, or a name
  // whose bindings lie outside loops, on paths of their own (the arms of
  // an if).
  std::vector<TSNode> Binds;
  for (auto [Node, Index] : bindingsOf(*Root, Text))
    Binds.push_back(Node);
  bool Param =
      llvm::any_of(Root->Params, [&](TSNode P) { return F.text(P) == Text; });
  if (Param != Binds.empty())
    return 0;
  if (llvm::any_of(Binds, [&](TSNode B) {
        return ts_node_is_null(B) || inLoopBelow(B, Root->Node);
      }))
    return 0;
  for (size_t A = 0; A < Binds.size(); ++A) {
    for (size_t B = A + 1; B < Binds.size(); ++B)
      if (!exclusiveArms(Binds[A], Binds[B]))
        return 0;
  }
  return It->second = uint32_t(Memo.RegionSymbols.size());
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
