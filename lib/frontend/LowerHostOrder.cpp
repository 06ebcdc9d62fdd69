//===--- LowerHostOrder.cpp - Host-side ordering between threads ----------===//
//
// A thread's host code is ordered after another's only by a wait on what
// the other signalled: its end (join(), the task's future), a promise, a
// latch, a condition variable (docs/api-model.md, threads). The object a
// call waits on or signals is its channel; a future made by
// `p.get_future()` is the promise's channel. Code the analysis does not see
// may wait on anything: it is taken to (precision first).
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/model/HostOrder.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace streamsafe {

VarId Lowering::channelOf(const Expr *E) {
  if (!E)
    return NoVar;
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return varOf(ME->getMemberDecl());
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V)
    return NoVar;
  // std::future<void> done = ran.get_future(): ran's channel.
  if (const Expr *Init = V->getInit())
    if (const auto *MC =
            dyn_cast<CXXMemberCallExpr>(Init->IgnoreImplicitAsWritten()))
      if (const CXXMethodDecl *M = MC->getMethodDecl();
          M && M->getDeclName().isIdentifier() && M->getName() == "get_future")
        if (VarId P = channelOf(MC->getImplicitObjectArgument()); P != NoVar)
          return P;
  return varOf(V);
}

VarId Lowering::joinableOf(const Stmt *At) {
  // pool.run(task): waitWorkComplete() on the pool waits for it.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(At))
    return channelOf(MC->getImplicitObjectArgument());
  // std::thread th(...), auto f = std::async(...), th = std::thread(...).
  const Stmt *Child = At;
  for (const Stmt *P = Parents ? Parents->getParent(At) : nullptr; P;
       Child = P, P = Parents->getParent(P)) {
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, ParenExpr, CXXFunctionalCastExpr,
            CXXConstructExpr>(P))
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      const auto *V =
          DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      return V ? varOf(V) : NoVar;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->isAssignmentOp() && BO->getRHS() == Child)
      return channelOf(BO->getLHS());
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      return channelOf(OC->getArg(0));
    break;
  }
  return NoVar;
}

bool Lowering::lowerHostOrderCall(const CallExpr *CE, const ApiEntry &A,
                                  FactList &Out) {
  ApiEffect E = A.Effect;
  if (!isHostOrder(E))
    return false;
  VarId Channel = NoVar;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && E != ApiEffect::HostWaitAny)
    Channel = channelOf(MC->getImplicitObjectArgument());
  hostOrder(E, Channel, site(SiteKind::Other, CE), Out);
  return true;
}

void Lowering::hostOrder(ApiEffect E, VarId Channel, SiteId At, FactList &Out) {
  for (Fact::Op &Op : hostOrderFacts(E, Channel))
    emit(Out, At, std::move(Op));
}

} // namespace streamsafe
