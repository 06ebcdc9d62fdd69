//===--- BranchConditions.cpp - What a branch tells about a variable ------===//

#include "lib/frontend/BranchConditions.h"
#include "lib/frontend/VariableChanges.h"
#include "clang/AST/StmtCXX.h"

#include "clang/Basic/Builtins.h"

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

/// The variable \p E names, through casts and conversion operators
/// (`CUDAStream` to `c10::Stream`).
const VarDecl *namedVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E);
      M && isa_and_nonnull<CXXConversionDecl>(M->getMethodDecl()))
    E = M->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
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
  // `TORCH_CHECK(c)` branches on `__builtin_expect(static_cast<bool>(!(c)),
  // 0)`: the hint and the cast say nothing of their own.
  Cond = Cond->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CallExpr>(Cond);
      Call && Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
      Call->getNumArgs() == 2)
    return whenTrue(Call->getArg(0), VarOf);
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

std::pair<EdgeCondition, EdgeCondition>
BranchConditions::edges(const clang::Expr *Cond,
                        const std::function<VarId(const VarDecl *)> &VarOf,
                        const std::function<bool(VarId)> &IsStream) const {
  using Edges = std::pair<EdgeCondition, EdgeCondition>;
  if (!Cond)
    return {};
  Cond = Cond->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CallExpr>(Cond);
      Call && Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
      Call->getNumArgs() == 2)
    return edges(Call->getArg(0), VarOf, IsStream);
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot) {
    Edges E = edges(U->getSubExpr(), VarOf, IsStream);
    return {E.second, E.first};
  }
  // `a && b` true: what each side's truth tells holds (TORCH_CHECK(a &&
  // b) continues with both); false: nothing is known of either. `a || b`
  // the other way round.
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr)) {
    bool And = B->getOpcode() == BO_LAnd;
    EdgeCondition Holds;
    for (const Expr *Side : {B->getLHS(), B->getRHS()}) {
      Edges E = edges(Side, VarOf, IsStream);
      Holds.append(And ? E.first : E.second);
    }
    return And ? Edges{Holds, {}} : Edges{{}, Holds};
  }
  // `a == b`, `a != b` of two stream variables (a built-in or an
  // overloaded operator): the state decides, where it knows both.
  const Expr *L = nullptr, *R = nullptr;
  bool Equal = false;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && (B->getOpcode() == BO_EQ || B->getOpcode() == BO_NE)) {
    L = B->getLHS();
    R = B->getRHS();
    Equal = B->getOpcode() == BO_EQ;
  } else if (const auto *O = dyn_cast<CXXOperatorCallExpr>(Cond);
             O && O->getNumArgs() == 2 &&
             (O->getOperator() == OO_EqualEqual ||
              O->getOperator() == OO_ExclaimEqual)) {
    L = O->getArg(0);
    R = O->getArg(1);
    Equal = O->getOperator() == OO_EqualEqual;
  }
  const VarDecl *A = L ? namedVar(L) : nullptr;
  const VarDecl *C = R ? namedVar(R) : nullptr;
  if (A && C && IsStream && IsStream(VarOf(A)) && IsStream(VarOf(C))) {
    Assumption Same;
    Same.On = Assumption::Test::SameStream;
    Same.Var = VarOf(A);
    Same.Other = VarOf(C);
    Same.Value = Equal;
    Assumption Differ = Same;
    Differ.Value = !Equal;
    return {{Same}, {Differ}};
  }
  std::optional<Assumption> True = whenTrue(Cond, VarOf);
  if (!True)
    return {};
  return {{*True}, {Assumption{True->Var, !True->Value}}};
}

} // namespace streamsafe
