//===--- BranchConditions.cpp - What a branch tells about a variable ------===//

#include "lib/frontend/BranchConditions.h"
#include "lib/frontend/VariableChanges.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace streamsafe {

namespace {

class Scan : public VariableChanges<Scan> {
public:
  std::vector<const VarDecl *> Candidates;

  bool VisitVarDecl(VarDecl *V) {
    if (!isa<ParmVarDecl>(V))
      Candidates.push_back(V);
    return true;
  }
  void finish() { finishChanges(); }
};

bool scalarByValue(const VarDecl &V) {
  QualType T = V.getType();
  return !T->isReferenceType() && !T.isVolatileQualified() && T->isScalarType();
}

bool isZero(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  return false;
}

} // namespace

BranchConditions::BranchConditions(const FunctionDecl &FD) {
  if (!FD.getBody())
    return;
  Scan S;
  S.TraverseStmt(FD.getBody());
  S.finish();
  for (const ParmVarDecl *P : FD.parameters())
    if (scalarByValue(*P) && !S.mayChange(*P))
      Stable.insert(P);
  for (const VarDecl *V : S.Candidates)
    if (V->hasLocalStorage() && V->getInit() && scalarByValue(*V) &&
        !S.mayChange(*V))
      Stable.insert(V);
}

std::optional<Assumption> BranchConditions::whenTrue(
    const Expr *Cond,
    const std::function<VarId(const VarDecl *)> &VarOf) const {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Cond)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (V && Stable.count(V))
      return Assumption{VarOf(V), true};
    return std::nullopt;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot) {
    std::optional<Assumption> A = whenTrue(U->getSubExpr(), VarOf);
    if (A)
      A->Value = !A->Value;
    return A;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && (B->getOpcode() == BO_EQ || B->getOpcode() == BO_NE)) {
    const Expr *Tested = isZero(B->getRHS())   ? B->getLHS()
                         : isZero(B->getLHS()) ? B->getRHS()
                                               : nullptr;
    std::optional<Assumption> A = whenTrue(Tested, VarOf);
    if (A && B->getOpcode() == BO_EQ)
      A->Value = !A->Value;
    return A;
  }
  return std::nullopt;
}

} // namespace streamsafe
