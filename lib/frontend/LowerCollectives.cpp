//===--- LowerCollectives.cpp - c10d process-group calls to facts ---------===//
//
// A c10d::ProcessGroup (or Backend) call runs on the group's internal NCCL
// stream, after making that stream wait for the stream current at the
// call; it reads its inputs and writes its outputs there and returns its
// work, c10::intrusive_ptr<c10d::Work>. `work->wait()` makes the stream
// current at the wait wait for the collective. The work keeps its tensors
// from the allocator until it is done (recordStream up to 2.7, held by the
// work from 2.8). docs/api-model.md, "Collectives"; the Python spellings
// are lowered the same way in lib/python/Collectives.cpp.
//
// The work is followed where a local takes it (`auto w = pg->allreduce(v)`)
// or where it is dropped. Handed anywhere else (a vector of pending works,
// a helper, a member), its wait is not seen: the call is then taken as
// ordered on the current stream, and a followed work handed on later is
// taken as waited there, so nothing is reported that a wait elsewhere may
// order. Options that may set `asyncOp` (PyTorch 2.8+) leave the stream
// unknown.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtVisitor.h"

using namespace clang;

namespace streamsafe {

namespace {

/// Wrappers a call's result passes through on its way to a variable or a
/// statement: temporaries, conversions, the move into a local.
bool isValueWrapper(const Stmt *S) {
  if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
    return CC->getNumArgs() == 1 &&
           CC->getConstructor()->isCopyOrMoveConstructor();
  return isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             ExprWithCleanups, ParenExpr, CXXFunctionalCastExpr>(S);
}

/// True when the function writes a field named asyncOp somewhere (an
/// options struct of PyTorch 2.8+ made synchronous).
bool writesAsyncOp(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && FD->getIdentifier() && FD->getName() == "asyncOp")
      return true;
  if (const auto *IL = dyn_cast<InitListExpr>(S))
    if (const RecordDecl *RD = IL->getType()->getAsRecordDecl())
      for (const FieldDecl *FD : RD->fields())
        if (FD->getIdentifier() && FD->getName() == "asyncOp")
          return true;
  for (const Stmt *C : S->children())
    if (writesAsyncOp(C))
      return true;
  return false;
}

} // namespace

lower::WorkUse Lowering::workUseOf(const CallExpr *CE) const {
  using lower::WorkUse;
  const Stmt *Child = CE;
  const Stmt *P = Parents ? Parents->getParent(CE) : nullptr;
  while (P && isValueWrapper(P)) {
    Child = P;
    P = Parents->getParent(P);
  }
  if (!P || !isa<Expr>(P)) {
    // `pg->allreduce(v);` drops it; `auto w = pg->allreduce(v);` keeps it
    // in a local (the declaration is the parent of its initialiser).
    const auto *DS = dyn_cast_or_null<DeclStmt>(P);
    if (!DS)
      return P ? WorkUse::Dropped : WorkUse::HandedOn;
    const auto *V =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
                   Table.classify(V->getType()) == ValueClass::Event
               ? WorkUse::Bound
               : WorkUse::HandedOn;
  }
  // `w = pg->allreduce(v);` into a local handle.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
      OC->getArg(1) == Child)
    if (const auto *DR =
            dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->hasLocalStorage() &&
          Table.classify(V->getType()) == ValueClass::Event)
        return WorkUse::Bound;
  return WorkUse::HandedOn;
}

StreamRef Lowering::groupStream(const Expr *Group) {
  // One stream per group variable or member (`pg`, `pg_`, `this->pg_`);
  // a group reached otherwise (`getGroup()->allreduce(v)`) is a stream not
  // known (the call is then taken as ordered on the current stream).
  const Expr *E = Group ? Group->IgnoreParenImpCasts() : nullptr;
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
    E = OC->getArg(0)->IgnoreParenImpCasts(); // intrusive_ptr's operator->
  const NamedDecl *Key = nullptr;
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
    Key = DR->getDecl();
  else if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    Key = ME->getMemberDecl();
  if (!Key)
    return StreamRef::unknown();
  auto [It, New] = Collective.Groups.try_emplace(Key, NoVar);
  if (New) {
    Variable V;
    V.Name = Key->getNameAsString();
    V.Class = VarClass::Other;
    V.Synthetic = true;
    IR.Vars.push_back(std::move(V));
    It->second = static_cast<VarId>(IR.Vars.size() - 1);
  }
  return {StreamRef::Collective, It->second, It->second};
}

bool Lowering::lowerCollectiveCall(const CallExpr *CE, const ApiEntry &A,
                                   FactList &Out) {
  if (A.Effect != ApiEffect::CollectiveAsync)
    return false;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  if (!MC)
    return true;
  // Where it runs and what it does: lib/lower/Collectives.h.
  lower::CollectiveCall C;
  C.Mode = lower::CollectiveMode::Async;
  C.Use = workUseOf(CE);
  if (!Collective.AsyncOpWritten.count(CurrentFunction))
    Collective.AsyncOpWritten[CurrentFunction] =
        writesAsyncOp(CurrentFunction ? CurrentFunction->getBody() : nullptr);
  if (Collective.AsyncOpWritten[CurrentFunction])
    C.Mode = lower::CollectiveMode::Unknown;
  else if (C.Use != lower::WorkUse::HandedOn)
    C.Group = groupStream(MC->getImplicitObjectArgument());
  if (C.Group.K != StreamRef::Unknown && Collective.Ready == NoVar) {
    // The group's stream waits for the current stream at the call: one
    // event variable serves them all.
    Variable V;
    V.Name = "collective";
    V.Class = VarClass::Event;
    V.Synthetic = true;
    IR.Vars.push_back(std::move(V));
    Collective.Ready = static_cast<VarId>(IR.Vars.size() - 1);
  }
  C.Ready = Collective.Ready;
  llvm::SmallVector<const Stmt *, 4> Nodes{CE};
  auto Operand = [&](int8_t Position,
                     llvm::SmallVectorImpl<SitedTensor> &Into) {
    const Expr *Arg = arg(CE, Position);
    if (!Arg)
      return;
    // A tensor, or a followed vector of them (each element); a vector of
    // vectors (allgather's outputs) is not followed.
    if (Table.classify(Arg->getType()) != ValueClass::Tensor &&
        !containerOf(Arg->IgnoreParenImpCasts()))
      return;
    Into.push_back({tensorRef(Arg), unsigned(Nodes.size())});
    Nodes.push_back(Arg);
  };
  if (A.Source >= 0 && A.Source != A.Dest)
    Operand(A.Source, C.Reads);
  if (A.Dest >= 0)
    Operand(A.Dest, C.Writes);
  else if (A.Source >= 0)
    Operand(A.Source, C.Reads);
  lower::LoweredCollective L = lower::lowerCollective(C);
  emitSteps(L.Steps, Nodes, Out);
  if (L.Handle)
    Collective.Works[CE] = L.On;
  return true;
}

bool Lowering::bindWork(VarId V, const Expr *Value, SiteId At, FactList &Out) {
  // The handle of a collective lowered before: an event recorded on the
  // group's stream after its work.
  const Expr *E = Value;
  while (E) {
    E = E->IgnoreImplicit();
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E);
        CC && CC->getNumArgs() == 1 &&
        CC->getConstructor()->isCopyOrMoveConstructor()) {
      E = CC->getArg(0);
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    break;
  }
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  auto It = CE ? Collective.Works.find(CE) : Collective.Works.end();
  if (It == Collective.Works.end())
    return false;
  emit(Out, At, fact::BindEvent{V, true});
  emit(Out, site(SiteKind::EventRecord, CE), fact::EventRecord{V, It->second});
  Collective.WorkVars.insert(V);
  return true;
}

void Lowering::handOnEvent(FactList &Out, SiteId At, const Expr *Arg) {
  // An event handed to code we do not see may be recorded there; a work
  // handle handed on may be waited there: taken as waited now.
  VarId E = eventVar(Arg);
  emit(Out, At, fact::EscapeEvent{E});
  if (E != NoVar && Collective.WorkVars.count(E))
    emit(Out, At, fact::EventWait{E, StreamRef::current(), false});
}

} // namespace streamsafe
