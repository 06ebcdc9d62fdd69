//===--- LoopCounters.cpp - Counter loops, double buffers, stream pairs ---===//
//
// Real code alternates two streams and two buffers by a loop counter:
//
//   streams = [torch.cuda.current_stream(), side]
//   for i in range(n + 1):
//       with torch.cuda.stream(streams[i % 2]):
//           out[i] = attention(q, kv[i % 2])
//       if i > 0:
//           out[i - 1].transpose(0, 1).contiguous()  # races when i - 1 odd
//
// The body of a loop whose counter steps by one and that tests its parity
// (or indexes lists by it) is lowered twice in sequence, once per parity,
// the loop's back edge after the second copy: `(i + c) % 2` is decided in
// each copy (or, where the start is not known, a test remembered for the
// first copy and its opposite in the second), and what each copy allocates
// is a storage of its own, so the element an odd iteration made is not the
// one the next even iteration makes at the same line. The elements a loop
// indexes by its counter plus a constant (`out[i - 1]`, `out[i]`, `out[i +
// 1]`) are a window of variables that each iteration shifts: what `out[i]`
// held is `out[i - 1]` in the next one. A list of streams bound once is a
// stream variable per element; `streams[k]` is one of them and
// `streams[(i + c) % 2]` the one the copy's parity picks.
//
// Tests of the counter against constants (`if i > 1:`, `if i == 0:`) tell
// the first iterations apart: those up to the largest such constant are
// lowered one by one with the counter's value known (each test decided),
// and the loop after them knows the counter is past every constant. A test
// against the loop's stop that fails only in the last iteration (`i < n`
// of `range(n + 1)`) is remembered: the path that found it failing has no
// next iteration.
//
//===----------------------------------------------------------------------===//

#include "lib/model/UseEvidence.h"
#include "lib/python/Builder.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/CounterSyntax.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/Scope.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <set>

namespace streamsafe::py {

bool Builder::beginCounterLoop(TSNode For) {
  TSNode Counter = counterOf(For, *St->S, F);
  if (ts_node_is_null(Counter))
    return false;
  CounterLoop L;
  L.Name = F.text(Counter).str();
  std::vector<TSNode> Range =
      children(field(unparen(field(For, "right")), "arguments"));
  L.Start =
      Range.size() == 1 ? std::optional<int64_t>(0) : literalInt(Range[0], F);
  std::tie(L.StopBase, L.StopOffset) = splitOffset(Range.back(), F);
  TSNode Body = field(For, "body");
  // The tests of the counter: of its parity; against constants (the
  // iterations to lower one by one); against the stop's base (remembered).
  int64_t Peel = -1;
  ownCode(Body, [&](TSNode X) {
    if (auto P = parityCond(X, F); P && P->Counter == L.Name)
      L.ByParity = true;
    for (bool Right : {false, true}) {
      auto C = compareOf(X, F, Right);
      if (!C || C->Name != L.Name)
        continue;
      if (auto K = literalInt(C->Other, F)) {
        if (L.Start && *K >= *L.Start && *K <= *L.Start + MaxPeeled - 1)
          Peel = std::max(Peel, *K);
      } else if (L.StopOffset == 1 &&
                 splitOffset(C->Other, F) ==
                     std::pair{L.StopBase, int64_t(0)} &&
                 !L.Bounds.count(L.StopBase)) {
        L.Bounds[L.StopBase] =
            newSyntheticVar(L.Name + " < " + L.StopBase, VarClass::Other);
      }
      break;
    }
  });
  // Not inside another loop lowered in copies, nor in a helper run in
  // place (a recursive one, or one called in a loop): the copies would
  // multiply. Those loops are lowered once, as any loop.
  bool InCopies = St->S != Root || St->SiteScope != 0 ||
                  llvm::any_of(St->Counters.Loops, [](const CounterLoop &O) {
                    return O.PeelTo || O.ByParity;
                  });
  if (Peel >= 0 && !InCopies)
    L.PeelTo = Peel;
  // A few iterations the code fixes (`range(len(ids) + 1)` of a display of
  // two), the body using the counter: each lowered on its own with the
  // counter known (`streams[i]` the stream it picks), and no loop after.
  std::optional<int64_t> Stop = L.Start ? constantInt(Range.back()) : L.Start;
  bool UsesCounter = false;
  ownCode(Body, [&](TSNode X) {
    UsesCounter |= is(X, "identifier") && F.text(X) == L.Name;
  });
  if (!InCopies && Stop && *Stop > *L.Start && *Stop - *L.Start <= MaxExact &&
      UsesCounter) {
    L.PeelTo = *Stop - 1;
    L.Exact = true;
  }
  // The lists the body indexes by the counter plus a constant, reading an
  // element a later iteration than the one that stored it (`xs[i] = v`,
  // then `xs[i - 1]`), each a window of element variables named after the
  // list. (`tgt[i] = src[i]` alone carries nothing from one iteration to
  // the next.)
  std::map<std::string, int> MaxStored, MinRead;
  ownCode(Body, [&](TSNode X) {
    if (!is(X, "subscript") || !is(unparen(field(X, "value")), "identifier"))
      return;
    std::vector<TSNode> Index = fieldChildren(X, "subscript");
    auto Off = Index.size() == 1 ? counterOffset(Index[0], F) : std::nullopt;
    if (!Off || Off->first != L.Name)
      return;
    std::string List = F.text(unparen(field(X, "value"))).str();
    if (assigned(X)) {
      auto [It, New] = MaxStored.try_emplace(List, Off->second);
      It->second = std::max(It->second, Off->second);
    } else {
      auto [It, New] = MinRead.try_emplace(List, Off->second);
      It->second = std::min(It->second, Off->second);
    }
  });
  std::set<std::string> Stored;
  for (const auto &[List, Max] : MaxStored)
    if (auto R = MinRead.find(List); R != MinRead.end() && R->second < Max)
      Stored.insert(List);
  ownCode(Body, [&](TSNode X) {
    if (!is(X, "subscript"))
      return;
    TSNode Base = unparen(field(X, "value"));
    std::vector<TSNode> Index = fieldChildren(X, "subscript");
    if (!is(Base, "identifier") || Index.size() != 1)
      return;
    auto Off = counterOffset(Index[0], F);
    std::string List = F.text(Base).str();
    if (InCopies || !Off || Off->first != L.Name || Off->second < MinOffset ||
        Off->second > MaxOffset || List == L.Name || !Stored.count(List) ||
        St->Counters.StreamLists.count(List) || !listReshaped(List) ||
        rebinds(Body, List, F))
      return;
    auto [It, New] = L.Windows.try_emplace(List);
    if (New)
      It->second.Carried = windowVariables(List);
  });
  // `out[i - 1].transpose(0, 1)`, `out[i].dtype`: a tensor's element.
  ownCode(Body, [&](TSNode X) {
    TSNode Of = is(X, "attribute") ? unparen(field(X, "object")) : TSNode{};
    if (!is(Of, "subscript") || !is(unparen(field(Of, "value")), "identifier"))
      return;
    std::string List = F.text(unparen(field(Of, "value"))).str();
    TSNode Call = ts_node_parent(X);
    llvm::StringRef Name = F.text(field(X, "attribute"));
    bool Proves = is(Call, "call") && ts_node_eq(field(Call, "function"), X)
                      ? callProvesTensor(Call, Name, F)
                      : pyAttributeProvesTensor(Name);
    if (Proves && L.Windows.count(List))
      L.TensorWindows.insert(List);
  });
  // `torch.maximum(m, out[i - 1])`: an operand only a tensor can be.
  ownCode(Body, [&](TSNode X) {
    if (is(X, "subscript") && is(unparen(field(X, "value")), "identifier") &&
        L.Windows.count(F.text(unparen(field(X, "value"))).str()) &&
        operandProvesTensor(X, I))
      L.TensorWindows.insert(F.text(unparen(field(X, "value"))).str());
  });
  L.ByParity = (L.ByParity || !L.Windows.empty()) && !InCopies;
  if (L.ByParity && !L.Start)
    L.Parity = syntheticVar("parity of loop counter", VarClass::Other, For);
  // An earlier run of the loop (inside another) told nothing of this one.
  SiteId At = site(SiteKind::Other, Counter);
  if (L.Parity != NoVar)
    emit(At, fact::Forget{fact::Forget::Step::None, L.Parity});
  for (const auto &[Base, Var] : L.Bounds)
    emit(At, fact::Forget{fact::Forget::Step::None, Var});
  St->Counters.Loops.push_back(std::move(L));
  return true;
}

CounterLoop::Elements Builder::windowVariables(const std::string &List) {
  CounterLoop::Elements Out;
  for (VarId &E : Out) {
    Variable V;
    V.Name = List;
    V.Class = VarClass::Tensor;
    IR->Vars.push_back(std::move(V));
    E = IR->Vars.size() - 1;
  }
  return Out;
}

void Builder::stepCounter(TSNode Counter) {
  CounterLoop &L = St->Counters.Loops.back();
  SiteId At = site(SiteKind::Other, Counter);
  if (!L.Bounds.empty()) {
    // A path that failed `i < n` (of range(n + 1)) ended the loop: it
    // goes no further than this block.
    for (const auto &[Base, Var] : L.Bounds)
      emit(At, fact::Forget{fact::Forget::Step::Last, Var});
    unsigned Next = newBlock();
    edge(St->Cur, Next);
    St->Cur = Next;
  }
  // This copy's window: what the previous iteration left, shifted by one.
  for (auto &[List, W] : L.Windows) {
    auto [It, New] = W.ByCopy.try_emplace(L.Copy);
    if (New)
      It->second = windowVariables(List);
    const CounterLoop::Elements &E = It->second;
    for (size_t K = 0; K + 1 < E.size(); ++K)
      emit(At, fact::BindTensor{E[K], TensorRef::var(W.Carried[K + 1])});
    emit(At, fact::BindTensor{E.back(), TensorRef()});
  }
}

void Builder::carryCounter(TSNode Counter) {
  const CounterLoop &L = St->Counters.Loops.back();
  SiteId At = site(SiteKind::Other, Counter);
  for (const auto &[List, W] : L.Windows) {
    auto It = W.ByCopy.find(L.Copy);
    if (It == W.ByCopy.end())
      continue;
    // Every element stays in its list, whatever the window holds next.
    for (VarId E : It->second)
      emit(At, fact::EscapeTensor{TensorRef::var(E)});
    for (size_t K = 0; K < It->second.size(); ++K)
      emit(At, fact::BindTensor{W.Carried[K], TensorRef::var(It->second[K])});
  }
}

void Builder::inCopy(unsigned Id, const std::function<void()> &Lower) {
  uint64_t Outer = St->Counters.Copy;
  unsigned OuterCopy = St->Counters.Loops.back().Copy;
  St->Counters.Copy = Outer * 8 + Id;
  St->Counters.Loops.back().Copy = Id;
  Lower();
  St->Counters.Copy = Outer;
  St->Counters.Loops.back().Copy = OuterCopy;
}

void Builder::peelCounterLoop(const std::function<void(unsigned)> &Iteration,
                              unsigned Exhausted, TSNode Counter) {
  CounterLoop &L = St->Counters.Loops.back();
  if (!L.PeelTo)
    return;
  for (int64_t V = *L.Start; V <= *L.PeelTo; ++V) {
    // The range may end before this iteration.
    if (!L.Exact)
      edge(St->Cur, Exhausted);
    unsigned Start = newBlock();
    edge(St->Cur, Start);
    St->Cur = Start;
    St->Counters.Loops.back().Known = V;
    inCopy(1 + unsigned(V - *L.Start), [&] {
      unsigned Next = newBlock();
      Iteration(Next);
      edge(St->Cur, Next);
      St->Cur = Next;
      carryCounter(Counter);
    });
  }
  CounterLoop &After = St->Counters.Loops.back();
  After.Known.reset();
  After.AtLeast = *After.PeelTo + 1;
}

void Builder::counterIterations(const std::function<void(unsigned)> &Iteration,
                                unsigned Head, unsigned Exhausted,
                                TSNode Counter) {
  if (!St->Counters.Loops.back().ByParity) {
    Iteration(Head);
    return;
  }
  // The first value the loop runs with, when known.
  const CounterLoop &L = St->Counters.Loops.back();
  std::optional<int64_t> First = L.PeelTo ? *L.PeelTo + 1 : L.Start;
  for (unsigned K = 0; K < 2; ++K) {
    CounterLoop &C = St->Counters.Loops.back();
    if (First)
      C.Odd = (*First + K) % 2 != 0;
    C.Opposite = K == 1;
    // The second copy follows the first (the range may end between them);
    // the loop's head, the second.
    inCopy(MaxPeeled + 1 + K, [&] {
      unsigned Continue = newBlock();
      Iteration(Continue);
      edge(St->Cur, Continue);
      St->Cur = Continue;
      carryCounter(Counter);
    });
    if (K == 0) {
      edge(St->Cur, Exhausted);
      unsigned Second = newBlock();
      edge(St->Cur, Second);
      St->Cur = Second;
    }
  }
}

void Builder::endCounterLoop(TSNode For) {
  const CounterLoop &L = St->Counters.Loops.back();
  // The window's elements stay in their lists after the loop.
  SiteId At = site(SiteKind::Other, For);
  for (const auto &[List, W] : L.Windows) {
    for (VarId E : W.Carried)
      emit(At, fact::EscapeTensor{TensorRef::var(E)});
    for (const auto &[Copy, Elements] : W.ByCopy)
      for (VarId E : Elements)
        emit(At, fact::EscapeTensor{TensorRef::var(E)});
  }
  St->Counters.Loops.pop_back();
}

std::optional<bool> Builder::counterConstant(TSNode Cond) {
  if (auto P = parityCond(Cond, F)) {
    const CounterLoop *L = St->Counters.loop(P->Counter);
    if (L && L->Known)
      return (*L->Known % 2 != 0) == P->Odd;
    if (L && L->Odd)
      return *L->Odd == P->Odd;
    return std::nullopt;
  }
  if (auto [C, L] = counterCompare(Cond); L) {
    if (auto K = constantInt(C.Other)) {
      if (L->Known)
        return holds(*L->Known, C.Op, *K);
      if (L->AtLeast)
        return holdsFrom(*L->AtLeast, C.Op, *K);
      return std::nullopt;
    }
    // `i < n` of range(n): always.
    if (L->StopOffset == 0 &&
        splitOffset(C.Other, F) == std::pair{L->StopBase, int64_t(0)} &&
        (C.Op == "<" || C.Op == ">="))
      return C.Op == "<";
  }
  return std::nullopt;
}

std::pair<Compare, const CounterLoop *>
Builder::counterCompare(TSNode Cond) const {
  for (bool Right : {false, true})
    if (auto C = compareOf(Cond, F, Right))
      if (const CounterLoop *L = St->Counters.loop(C->Name))
        return {*C, L};
  return {Compare(), nullptr};
}

std::optional<Assumption> Builder::parityTest(TSNode Cond) {
  if (auto P = parityCond(Cond, F)) {
    // In the copy of the opposite parity, the test holds where the first
    // copy's would fail.
    const CounterLoop *L = St->Counters.loop(P->Counter);
    if (L && L->Parity != NoVar && !L->Known && !L->Odd)
      return Assumption{L->Parity, P->Odd != L->Opposite};
    return std::nullopt;
  }
  // `i < n` of range(n + 1): it fails in the last iteration only.
  auto [C, L] = counterCompare(Cond);
  if (!L)
    return std::nullopt;
  auto [Base, Offset] = splitOffset(C.Other, F);
  auto It = L->Bounds.find(Base);
  if (It == L->Bounds.end() || Offset != 0 || (C.Op != "<" && C.Op != ">="))
    return std::nullopt;
  Assumption A{It->second, C.Op == "<"};
  A.PerIteration = true;
  return A;
}

VarId Builder::windowElement(TSNode Subscript) {
  TSNode Base = unparen(field(Subscript, "value"));
  std::vector<TSNode> Index = fieldChildren(Subscript, "subscript");
  if (!is(Base, "identifier") || Index.size() != 1)
    return NoVar;
  auto Off = counterOffset(Index[0], F);
  if (!Off)
    return NoVar;
  const CounterLoop *L = St->Counters.loop(Off->first);
  return L ? L->element(F.text(Base).str(), Off->second) : NoVar;
}

bool Builder::storeWindowElement(TSNode Target, const Value &V, TSNode Right) {
  VarId E = is(Target, "subscript") ? windowElement(Target) : NoVar;
  if (E == NoVar)
    return false;
  TSNode Base = unparen(field(Target, "value"));
  auto Off = counterOffset(fieldChildren(Target, "subscript")[0], F);
  const CounterLoop *L = St->Counters.loop(Off->first);
  TensorRef Stored = V.Class == VarClass::Tensor ? V.Tensor : TensorRef();
  // A value of code the analysis does not see (an extension's result, an
  // element of one), stored where the body uses only tensors: a tensor
  // that code made on the current stream.
  Right = unparen(Right);
  bool Opaque =
      ts_node_is_null(Right) ||
      (V.Class == VarClass::Other && !V.List && !V.Object && V.Held.empty() &&
       (is(Right, "subscript") ||
        (is(Right, "call") && infer::opaqueValue(Right, F, I))));
  if (!Stored && Opaque && L->TensorWindows.count(F.text(Base).str()))
    Stored = newTensor(Target, /*Unowned=*/false).Tensor;
  emit(site(SiteKind::Other, Target), fact::BindTensor{E, Stored});
  return true;
}

bool Builder::bindStreamList(TSNode Target, TSNode Right) {
  Right = unparen(Right);
  if (!is(Target, "identifier") || St->S != Root ||
      (!is(Right, "list") && !is(Right, "tuple")))
    return false;
  std::vector<TSNode> Items = children(Right);
  llvm::StringRef Name = F.text(Target);
  const Scope *Owner = St->S->owner(Name);
  // Bound once here, its elements never replaced: `streams[k] = s`,
  // `streams.append(s)` make it a list the analysis does not follow.
  if (Items.empty() || Items.size() > 4 || Owner != St->S ||
      Owner->Bindings.lookup(Name).size() != 1 || !listReshaped(Name) ||
      llvm::any_of(Items, [&](TSNode X) {
        return classOfExpr(X, *St->S, F, I) != VarClass::Stream;
      }))
    return false;
  bool Changed = false;
  ownCode(field(Owner->Node, "body"), [&](TSNode X) {
    if (is(X, "subscript") && F.text(unparen(field(X, "value"))) == Name) {
      TSNode P = ts_node_parent(X);
      Changed |= (is(P, "assignment") || is(P, "augmented_assignment")) &&
                 ts_node_eq(field(P, "left"), X);
    }
    if (is(X, "call") && is(field(X, "function"), "attribute") &&
        F.text(unparen(field(field(X, "function"), "object"))) == Name)
      Changed = true; // append, insert, pop, ...
  });
  if (Changed)
    return false;
  std::vector<VarId> Slots;
  for (TSNode X : Items) {
    Value S = expr(X);
    VarId Slot = newSyntheticVar(F.text(X).str(), VarClass::Stream);
    emit(site(SiteKind::Other, X), fact::BindStream{Slot, S.Stream});
    Slots.push_back(Slot);
  }
  St->Counters.StreamLists[Name.str()] = std::move(Slots);
  return true;
}

bool Builder::streamListElement(TSNode Subscript, Value &V) {
  TSNode Base = unparen(field(Subscript, "value"));
  std::vector<TSNode> Index = fieldChildren(Subscript, "subscript");
  if (!is(Base, "identifier") || Index.size() != 1)
    return false;
  auto It = St->Counters.StreamLists.find(F.text(Base).str());
  if (It == St->Counters.StreamLists.end())
    return false;
  const std::vector<VarId> &Slots = It->second;
  V = Value();
  V.Node = Subscript;
  if (std::optional<int64_t> K = constantInt(Index[0])) {
    int64_t At = *K < 0 ? int64_t(Slots.size()) + *K : *K;
    if (At >= 0 && size_t(At) < Slots.size()) {
      V.Class = VarClass::Stream;
      V.Stream = StreamRef::var(Slots[At]);
    }
    return true;
  }
  if (Slots.size() != 2)
    return true; // some element: not known which
  if (auto Odd = counterConstant(Index[0])) {
    V.Class = VarClass::Stream;
    V.Stream = StreamRef::var(Slots[*Odd ? 1 : 0]);
    return true;
  }
  if (!parityTest(Index[0]))
    return true;
  // `streams[(i + c) % 2]`: a branch on the counter's parity.
  VarId Chosen =
      syntheticVar("stream chosen by parity", VarClass::Stream, Subscript);
  SiteId At = site(SiteKind::Other, Subscript);
  branchOn(
      Index[0],
      [&] { emit(At, fact::BindStream{Chosen, StreamRef::var(Slots[1])}); },
      [&] { emit(At, fact::BindStream{Chosen, StreamRef::var(Slots[0])}); });
  V.Class = VarClass::Stream;
  V.Stream = StreamRef::var(Chosen);
  return true;
}

} // namespace streamsafe::py
