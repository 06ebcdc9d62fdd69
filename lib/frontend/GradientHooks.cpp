//===--- GradientHooks.cpp - Lambdas registered as gradient hooks ---------===//

#include "lib/frontend/GradientHooks.h"
#include "lib/model/GradientHooks.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace streamsafe {

namespace {

/// Finds a call of a gradient-hook registration given the lambda whose
/// call operator is \p Op.
class Registration : public RecursiveASTVisitor<Registration> {
public:
  explicit Registration(const CXXMethodDecl &Op) : Op(Op) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !gradient_hooks::registersGradientHook(Callee->getName()))
      return true;
    for (const Expr *A : C->arguments())
      if (const auto *L =
              dyn_cast<LambdaExpr>(A->IgnoreUnlessSpelledInSource()))
        Found |= L->getCallOperator() == &Op;
    return !Found;
  }
  bool Found = false;

private:
  const CXXMethodDecl &Op;
};

/// Whether a return of \p FD's own body (nested lambdas aside) drops
/// \p Gradient.
class Returns : public RecursiveASTVisitor<Returns> {
public:
  explicit Returns(const ParmVarDecl &G) : G(G) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *RS) {
    Drops |= dropsGradient(*RS, G);
    return true;
  }
  bool Drops = false;

private:
  const ParmVarDecl &G;
};

} // namespace

bool dropsGradient(const ReturnStmt &RS, const ParmVarDecl &Gradient) {
  const Expr *V = RS.getRetValue();
  const Expr *Plain = V ? V->IgnoreUnlessSpelledInSource() : nullptr;
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Plain);
  return gradient_hooks::atReturn(V != nullptr,
                                  Plain && isa<CXXNullPtrLiteralExpr>(Plain),
                                  Ref && Ref->getDecl() == &Gradient) ==
         gradient_hooks::AtReturn::Dropped;
}

const ParmVarDecl *droppedGradientParameter(const FunctionDecl &FD) {
  const auto *Op = dyn_cast<CXXMethodDecl>(&FD);
  if (!Op || !Op->getParent()->isLambda() || FD.param_empty() || !FD.getBody())
    return nullptr;
  const auto *Writer =
      dyn_cast<FunctionDecl>(Op->getParent()->getDeclContext());
  if (!Writer || !Writer->getBody())
    return nullptr;
  Registration R(*Op);
  R.TraverseStmt(Writer->getBody());
  if (!R.Found)
    return nullptr;
  const ParmVarDecl *G =
      FD.getParamDecl(gradient_hooks::gradientParameter(FD.getNumParams()));
  Returns Rs(*G);
  Rs.TraverseStmt(FD.getBody());
  return Rs.Drops ? G : nullptr;
}

} // namespace streamsafe
