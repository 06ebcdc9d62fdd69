//===--- BuildStatements.cpp - Python statements to blocks of facts -------===//
//
// One CFG per body. Jumps (return, break, continue, raise) pass through the
// frames they leave: a `with torch.cuda.stream(s)` restores the stream
// (BuildWith.cpp), a `finally` block runs (lowered again on that path). An
// exception is modelled where a `raise` is, and after each statement directly
// in a `try` body: the handlers are reached from there.
//
//===----------------------------------------------------------------------===//

#include "lib/model/TensorMethods.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/GradientHooks.h"

namespace streamsafe::py {

LoweredFunction Builder::build(const Scope &S, std::string Name) {
  LoweredFunction Result;
  Result.IR = std::make_unique<Function>();
  Out = &Result;
  IR = Result.IR.get();
  Root = &S;
  RootUsesStreams = S.K == Scope::Def && X->usesStreams(S.Node);
  IR->Name = std::move(Name);
  TSNode NameNode = S.K == Scope::Module ? S.Node : field(S.Node, "name");
  IR->EntrySite = site(SiteKind::FunctionEntry, NameNode);
  // lib/lower/LeavesStreamSet.h: a module's, a lambda's, a forwarder's ...
  IR->MayLeaveStreamSet = lower::mayLeaveStreamSet(leaveSetEvidence(S));
  // A gradient hook that replaces its gradient owns it (GradientHooks.h).
  HookGradient = NoVar;
  if (std::string G = S.K == Scope::Def ? droppedGradientParameter(
                                              S.Node, F, X->gradientHooks())
                                        : "";
      !G.empty())
    if (VarId V = varOf(G);
        V != NoVar && IR->var(V).Class == VarClass::Tensor) {
      IR->Vars[V].HandedOver = true;
      HookGradient = V;
    }
  IR->Bodies.emplace_back();
  IR->Bodies[0] = lowerBody(S, S.K == Scope::Def);
  for (TSNode P : S.Params) {
    VarId V = varOf(F.text(P));
    if (V == NoVar)
      continue;
    IR->Params.push_back(V);
    IR->ParamSites.push_back(IR->var(V).Class == VarClass::Tensor
                                 ? site(SiteKind::ParamReady, P)
                                 : NoSite);
  }
  if (S.K == Scope::Def && SideStreamParameters)
    proveSideParameters(S);
  // Thread bodies, in the order they were found (each may find more).
  while (std::optional<PendingBody> Next = Runs.next()) {
    // A helper of another module reads that module's defs and classes.
    HelperIndex *Own = X;
    if (Next->Index)
      X = Next->Index;
    IR->Bodies[Next->Id] = lowerBody(*Next->S, true, &*Next);
    X = Own;
  }
  // The caller's tensors in parameters, found by any body (a closure run
  // in place loops over its def's list too).
  for (auto [V, At] : ElementParams) {
    IR->Params.push_back(V);
    IR->ParamSites.push_back(At);
  }
  Out = nullptr;
  IR = nullptr;
  return Result;
}

Body Builder::lowerBody(const Scope &S, bool OwnsLocals,
                        const PendingBody *Helper) {
  BodyState State;
  State.S = &S;
  State.OwnsLocals = OwnsLocals && !(Helper && Helper->KeepsLocals);
  if (Helper) {
    State.SiteScope = Helper->SiteScope;
    State.Self = Helper->Self;
    State.Constants = Helper->Constants;
    State.ReturnTensor = Helper->ReturnTensor;
    State.ReturnStream = Helper->ReturnStream;
    State.ReturnEvent = Helper->ReturnEvent;
    State.ReturnItems = Helper->ReturnItems;
  }
  BodyState *Saved = St;
  St = &State;
  State.B.Entry = newBlock();
  State.B.Exit = newBlock();
  State.Cur = newBlock();
  edge(State.B.Entry, State.Cur);
  // A module body runs where the program starts: on the default stream
  // (a function starts on its caller's current stream, whatever it is).
  if (S.K == Scope::Module && &S == Root)
    emit(siteAt(SiteKind::FunctionEntry, {1, 1}, 0),
         fact::SetCurrent{StreamRef::legacy()});
  if (OwnsLocals)
    declareLocals(S);
  if (S.K == Scope::Def && &S == Root) {
    bindClosureStreams(S);
    followSelf(S);
    optionalStreamParameters(S);
  }
  TSNode Body = S.K == Scope::Module ? S.Node : field(S.Node, "body");
  if (Helper && !Helper->Part.empty()) {
    State.SplitYield = Helper->Yield;
    State.SplitPart = Helper->PartNo;
    for (TSNode X : Helper->Part)
      statement(X);
    State.SplitYield = {};
    State.SplitPart = 0;
    exitBody(Helper->Part.back(), endOf(Helper->Part.back()));
  } else if (S.K == Scope::Lambda) {
    expr(Body);
    exitBody(Body, endOf(Body));
  } else {
    block(Body);
    exitBody(Body, endOf(Body));
  }
  // Predecessors, from the successors.
  for (unsigned B = 0; B < State.B.Blocks.size(); ++B)
    for (unsigned Succ : State.B.Blocks[B].Succs)
      State.B.Blocks[Succ].Preds.push_back(B);
  St = Saved;
  return std::move(State.B);
}

unsigned Builder::newBlock() {
  St->B.Blocks.emplace_back();
  return St->B.Blocks.size() - 1;
}

void Builder::edge(unsigned From, unsigned To) {
  St->B.Blocks[From].Succs.push_back(To);
}

void Builder::block(TSNode Block) {
  for (TSNode S : children(Block))
    statement(S);
}

void Builder::statement(TSNode N) {
  llvm::StringRef T = type(N);
  if (T == "expression_statement") {
    for (TSNode C : children(N)) {
      if (is(C, "assignment"))
        assignment(C);
      else if (is(C, "augmented_assignment"))
        augmentedAssignment(C);
      else
        expr(C);
    }
  } else if (T == "if_statement")
    ifStatement(N);
  else if (T == "for_statement")
    loop(N, true);
  else if (T == "while_statement")
    loop(N, false);
  else if (T == "try_statement")
    tryStatement(N);
  else if (T == "with_statement")
    withStatement(N);
  else if (T == "return_statement")
    returnStatement(N);
  else if (T == "raise_statement")
    raiseStatement(N);
  else if (T == "break_statement")
    jump(N, true);
  else if (T == "continue_statement")
    jump(N, false);
  else if (T == "delete_statement")
    deleteStatement(N);
  else if (T == "decorated_definition")
    statement(field(N, "definition"));
  else if (T == "function_definition") {
    // Analysed on its own; it may run later, with what it names.
    auto Inner = makeScope(N, Scope::Def, St->S, F, I);
    escapeCaptured(field(N, "body"), *Inner);
  } else if (T == "assert_statement" || T == "print_statement") {
    std::vector<TSNode> C = children(N);
    for (size_t K = 0; K < C.size(); ++K) {
      if (K == 0 && T == "assert_statement")
        truthTest(C[K]); // assert t: the host reads t's truth
      else
        expr(C[K]);
    }
  }
  // class bodies, imports, global, pass, match: nothing to lower here
  // (methods are analysed on their own).
}

void Builder::ifStatement(TSNode N) {
  unsigned After = 0;
  bool HasAfter = false;
  auto Join = [&](unsigned From) {
    if (!HasAfter) {
      After = newBlock();
      HasAfter = true;
    }
    edge(From, After);
  };
  TSNode Cond = field(N, "condition");
  TSNode Then = field(N, "consequence");
  std::vector<TSNode> Alternatives = fieldChildren(N, "alternative");
  size_t Next = 0;
  for (;;) {
    auto [Holds, Fails] = branchBlocks(Cond);
    St->Cur = Holds;
    block(Then);
    Join(St->Cur);
    St->Cur = Fails;
    if (Next == Alternatives.size())
      break;
    TSNode Alt = Alternatives[Next++];
    if (is(Alt, "elif_clause")) {
      Cond = field(Alt, "condition");
      Then = field(Alt, "consequence");
      continue;
    }
    block(field(Alt, "body"));
    break;
  }
  Join(St->Cur);
  St->Cur = After;
}

void Builder::loop(TSNode N, bool IsFor) {
  if (IsFor && unrolledLoop(N, expr(field(N, "right"))))
    return;
  bool Counter = IsFor && beginCounterLoop(N);
  unsigned After = newBlock();
  // Where the loop ends without a break: the else clause runs there.
  unsigned Exhausted = newBlock();
  // One iteration of the body, from the binding of its target; a continue
  // goes to \p Continue.
  auto Iteration = [&](unsigned Continue) {
    if (IsFor)
      bindLoopTarget(N);
    if (Counter)
      stepCounter(unparen(field(N, "left")));
    Frame L;
    L.K = Frame::Loop;
    L.Break = After;
    L.Continue = Continue;
    St->Frames.push_back(L);
    block(field(N, "body"));
    St->Frames.pop_back();
  };
  // A counter tested against constants: its first iterations one by one
  // (LoopCounters.cpp).
  if (Counter)
    peelCounterLoop(Iteration, Exhausted, unparen(field(N, "left")));
  if (Counter && St->Counters.Loops.back().Exact) {
    // Every iteration peeled: the range ends after them.
    edge(St->Cur, Exhausted);
  } else {
    unsigned Head = newBlock();
    edge(St->Cur, Head);
    St->Cur = Head;
    if (!IsFor)
      truthTest(field(N, "condition"));
    unsigned Test = St->Cur;
    unsigned Body = newBlock();
    edge(Test, Body);
    St->Cur = Body;
    if (Counter)
      counterIterations(Iteration, Head, Exhausted, unparen(field(N, "left")));
    else
      Iteration(Head);
    edge(St->Cur, Head);
    edge(Test, Exhausted);
  }
  St->Cur = Exhausted;
  if (TSNode Else = field(N, "alternative"); !ts_node_is_null(Else))
    block(field(Else, "body"));
  edge(St->Cur, After);
  St->Cur = After;
  if (Counter)
    endCounterLoop(N);
}

void Builder::bindLoopTarget(TSNode N) {
  // The loop variable names an element: not followed, but for a value of a
  // dict attribute of tensors (AttributeDicts.cpp); its key, by its uses.
  TSNode Left = unparen(field(N, "left"));
  TSNode Dict = dictLoopOf(N, F);
  VarId DictVar = ts_node_is_null(Dict) ? NoVar : dictAttributeVar(Dict);
  std::vector<TSNode> Names =
      is(Left, "identifier") ? std::vector<TSNode>{Left} : children(Left);
  if (DictVar != NoVar) {
    Value Element;
    Element.Node = Names.back();
    Element.Class = VarClass::Tensor;
    Element.Tensor = TensorRef::var(DictVar);
    for (size_t K = 0; K + 1 < Names.size(); ++K)
      bindName(Names[K], elementByUse(Names[K], Dict));
    bindName(Names.back(), Element);
    return;
  }
  // An element only ever used as a tensor is one made there (`for p in
  // params: p.grad...` of params not followed), or the caller's (of a
  // parameter: `for k, v in d.items()` of `d: Dict[str, torch.Tensor]`).
  // So is a key: a dict keyed by parameters (`for p, ev in
  // self.queue.items(): p.copy_(...)`).
  for (size_t K = 0; K < Names.size(); ++K)
    if (!ts_node_is_null(Dict))
      bindName(Names[K], elementByUse(Names[K], Dict));
    else if (TSNode Name = Names[K]; is(Name, "identifier"))
      bindName(Name, elementByUse(Name, field(N, "right")));
}

void Builder::tryStatement(TSNode N) {
  std::vector<TSNode> Handlers;
  TSNode Else = {}, Finally = {};
  for (TSNode C : children(N)) {
    if (is(C, "except_clause") || is(C, "except_group_clause"))
      Handlers.push_back(C);
    else if (is(C, "else_clause"))
      Else = C;
    else if (is(C, "finally_clause"))
      Finally = C;
  }
  TSNode FinallyBlock = {};
  if (!ts_node_is_null(Finally))
    for (TSNode C : children(Finally))
      if (is(C, "block"))
        FinallyBlock = C;
  size_t Depth = St->Frames.size();
  if (!ts_node_is_null(FinallyBlock)) {
    Frame Fin;
    Fin.K = Frame::Finally;
    Fin.Node = FinallyBlock;
    St->Frames.push_back(Fin);
  }
  unsigned Dispatch = newBlock();
  if (!Handlers.empty()) {
    Frame H;
    H.K = Frame::Handler;
    H.Dispatch = Dispatch;
    St->Frames.push_back(H);
  }
  // The body may raise before any statement, and after each.
  edge(St->Cur, Dispatch);
  for (TSNode S : children(field(N, "body"))) {
    statement(S);
    edge(St->Cur, Dispatch);
  }
  if (!Handlers.empty())
    St->Frames.pop_back();
  if (!ts_node_is_null(Else))
    block(field(Else, "body"));
  unsigned After = newBlock();
  edge(St->Cur, After);
  // The handlers; an exception none of them takes goes on outward.
  bool CatchAll = false;
  for (TSNode H : Handlers) {
    St->Cur = newBlock();
    edge(Dispatch, St->Cur);
    std::vector<TSNode> C = children(H);
    if (C.size() == 1)
      CatchAll = true; // a bare `except:`
    for (TSNode X : C)
      if (is(X, "block"))
        block(X);
    edge(St->Cur, After);
  }
  if (!CatchAll) {
    St->Cur = Dispatch;
    propagate(N);
  }
  St->Frames.resize(Depth);
  St->Cur = After;
  if (!ts_node_is_null(FinallyBlock))
    block(FinallyBlock);
}

void Builder::exitBody(TSNode At, Position P) {
  // Where the frame's locals die (a new site each time).
  auto End = [&] {
    return siteAt(SiteKind::LifetimeEnd, P, ts_node_end_byte(lastToken(At)));
  };
  // Where autograd keeps a hook's gradient, the hook does not free it.
  if (St->S == Root && HookGradient != NoVar &&
      keepsGradient(At, IR->var(HookGradient).Name, F))
    emit(End(), fact::EscapeTensor{TensorRef::var(HookGradient)});
  if (St->OwnsLocals) {
    // The frame's locals die: each tensor variable lets go of its storage.
    for (const auto &E : St->S->Locals) {
      if (E.second != VarClass::Tensor)
        continue;
      VarId V = varOf(E.getKey());
      if (V != NoVar && !IR->var(V).Persistent)
        emit(End(), fact::Unbind{V});
    }
    // A local record or dict used only through its members dies with them
    // (an object of a class with methods of its own is not so read: what
    // its methods did with its fields is their story).
    for (const auto &E : St->S->Locals)
      if (const Instance *O = Objs.named(St->S, E.getKey().str());
          O && ts_node_is_null(O->Class) &&
          usedOnlyThroughMembers(St->S->Node, E.getKey(), F))
        for (const auto &A : O->Attrs)
          if (!IR->var(A.second).Persistent &&
              IR->var(A.second).Class == VarClass::Tensor)
            emit(End(), fact::Unbind{A.second});
    unbindLists(End());
  }
  if (St->B.Blocks[St->Cur].ExitSite == NoSite)
    St->B.Blocks[St->Cur].ExitSite =
        siteAt(SiteKind::FunctionExit, P, ts_node_start_byte(At));
  edge(St->Cur, St->B.Exit);
  St->Cur = newBlock(); // what follows is unreachable
}

void Builder::returnStatement(TSNode N) {
  for (TSNode C : children(N)) {
    Value V = expr(C);
    // A work handle or event it returns is the caller's, recorded as here
    // (bound before the return lets go of it).
    if (St->ReturnEvent != NoVar && V.Class == VarClass::Event)
      bindEvent(St->ReturnEvent, V, C);
    // The analysed def's own return hands the tensors to its caller.
    escape(V, C, /*Returned=*/St->S == Root && St->ReturnTensor == NoVar);
    // A helper run in place: what it returns is the call's value. What
    // code the analysis does not see made (`return self.model(x)` of a def
    // annotated `-> torch.Tensor`, or cast to a tuple of tensors) is a
    // tensor made there, on the current stream.
    TSNode Made = unparen(C);
    if (TSNode T = infer::castType(Made, F, I); !ts_node_is_null(T))
      Made = unparen(children(field(Made, "arguments"))[1]);
    bool Opaque = V.Class == VarClass::Other && !V.List && !V.Object &&
                  is(Made, "call") && infer::opaqueValue(Made, F, I);
    if (Opaque && (St->ReturnTensor != NoVar || !St->ReturnItems.empty()))
      V = unknownResult(Made);
    if (St->ReturnTensor != NoVar && V.Class == VarClass::Tensor)
      emit(site(SiteKind::Other, C),
           fact::BindTensor{St->ReturnTensor, V.Tensor});
    for (size_t K = 0; K < St->ReturnItems.size(); ++K) {
      TensorRef Item = V.List && V.Unplaced.empty() && K < V.Items.size()
                           ? V.Items[K]
                       : Opaque ? V.Tensor
                                : TensorRef();
      if (St->ReturnItems[K] != NoVar && Item)
        emit(site(SiteKind::Other, C),
             fact::BindTensor{St->ReturnItems[K], Item});
    }
    if (St->ReturnStream != NoVar && V.Class == VarClass::Stream)
      emit(site(SiteKind::Other, C),
           fact::BindStream{St->ReturnStream, V.Stream});
  }
  leaveFrames(0);
  exitBody(N, start(N));
}

void Builder::raiseStatement(TSNode N) {
  for (TSNode C : children(N))
    expr(C);
  propagate(N);
}

void Builder::propagate(TSNode N) {
  for (size_t K = St->Frames.size(); K > 0; --K) {
    if (St->Frames[K - 1].K != Frame::Handler)
      continue;
    std::vector<Frame> Saved = St->Frames;
    unsigned Dispatch = Saved[K - 1].Dispatch;
    leaveFrames(K);
    edge(St->Cur, Dispatch);
    St->Frames = std::move(Saved);
    St->Cur = newBlock();
    return;
  }
  std::vector<Frame> Saved = St->Frames;
  leaveFrames(0);
  exitBody(N, start(N));
  St->Frames = std::move(Saved);
}

void Builder::jump(TSNode, bool IsBreak) {
  for (size_t K = St->Frames.size(); K > 0; --K) {
    if (St->Frames[K - 1].K != Frame::Loop)
      continue;
    std::vector<Frame> Saved = St->Frames;
    unsigned Target = IsBreak ? Saved[K - 1].Break : Saved[K - 1].Continue;
    leaveFrames(K);
    edge(St->Cur, Target);
    St->Frames = std::move(Saved);
    St->Cur = newBlock();
    return;
  }
}

void Builder::deleteStatement(TSNode N) {
  for (TSNode C : children(N)) {
    std::vector<TSNode> Targets =
        is(C, "expression_list") ? children(C) : std::vector<TSNode>{C};
    for (TSNode T : Targets) {
      deleteFromList(T);
      // del d["k"]: the dict's entries are let go of (never freed here).
      if (is(T, "subscript"))
        if (const Instance *D = objectNamed(unparen(field(T, "value")));
            D && D->Keyed)
          forgetEntries(*D, T);
      if (!is(T, "identifier"))
        continue;
      VarId V = varOf(F.text(T));
      if (V != NoVar && IR->var(V).Class == VarClass::Tensor &&
          !IR->var(V).Persistent)
        emit(site(SiteKind::LifetimeEnd, T), fact::Unbind{V});
    }
  }
}

} // namespace streamsafe::py
