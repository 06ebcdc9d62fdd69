//===--- LowerRegions.cpp - Parts of a storage and lists of pieces --------===//
//
// Which part of its storage a tensor operand touches (lib/ir/Region.h), and
// the std::vector of views that chunk(), split() and unbind() return. A
// region is computed relative to the storage's own first dimension, so it is
// only known through names that certainly denote the whole storage: a local
// or a field never rebound, a parameter of the analysed function. A
// parameter of a helper run in place may be bound to a caller's view, and
// anything rebound may name a view: both cover an unknown part.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/lower/Regions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace streamsafe {

namespace {

/// Variables of one function that may be rebound after their
/// initialisation: assigned with `=`, or passed by non-const reference.
class Rebinds : public RecursiveASTVisitor<Rebinds> {
public:
  explicit Rebinds(llvm::SmallPtrSetImpl<const VarDecl *> &Out) : Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      note(OC->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXOperatorCallExpr>(CE))
      return true;
    unsigned Shift = isa<CXXMethodDecl>(FD) && !isa<CXXMemberCallExpr>(CE);
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      unsigned P = I - Shift;
      QualType T =
          P < FD->getNumParams() ? FD->getParamDecl(P)->getType() : QualType();
      if (!T.isNull() && T->isReferenceType() &&
          !T.getNonReferenceType().isConstQualified())
        note(CE->getArg(I));
    }
    return true;
  }

private:
  void note(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(V);
  }
  llvm::SmallPtrSetImpl<const VarDecl *> &Out;
};

std::optional<int64_t> constant(const Expr *E, const ASTContext &Ctx) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return std::nullopt;
  // c10::optional<int64_t> / SymInt arguments are built from the integer.
  for (int Depth = 0; Depth < 4; ++Depth) {
    E = E->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1)
      E = CE->getArg(0);
    else
      break;
  }
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

/// An argument that is absent or defaulted takes \p Default; a
/// non-constant one is unknown.
std::optional<int64_t> constantOr(const CallExpr *CE, unsigned I,
                                  int64_t Default, const ASTContext &Ctx) {
  if (I >= CE->getNumArgs() || isa<CXXDefaultArgExpr>(CE->getArg(I)))
    return Default;
  return constant(CE->getArg(I), Ctx);
}

StringRef methodName(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  return MD && MD->getIdentifier() ? MD->getName() : StringRef();
}

} // namespace

const CXXMemberCallExpr *Lowering::pieceListCall(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(stripValue(E, Table));
  if (MC && MC->getMethodDecl() &&
      Table.classify(MC->getImplicitObjectArgument()->getType()) ==
          ValueClass::Tensor &&
      Table.lookup(MC->getMethodDecl()).Effect == ApiEffect::TensorViewList)
    return MC;
  return nullptr;
}

bool Lowering::isPieceListVar(const VarDecl *V) {
  if (!V || Table.classify(V->getType()) != ValueClass::None)
    return false;
  // Assigned again, it may hold the pieces of another tensor: not followed.
  return V->hasLocalStorage() && V->getInit() && pieceListCall(V->getInit()) &&
         !rebound(V);
}

bool Lowering::isPieceList(const Expr *E) {
  if (pieceListCall(E))
    return true;
  const auto *DR = dyn_cast_or_null<DeclRefExpr>(stripValue(E, Table));
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && isPieceListVar(V);
}

const Expr *Lowering::rangeOfLoopVar(const VarDecl *V) {
  // `for (auto &p : pieces)`: the loop variable's DeclStmt is a child of
  // the range-for statement.
  if (!Parents || !V->getInit())
    return nullptr;
  const Stmt *DS = Parents->getParent(V->getInit());
  const auto *FR =
      dyn_cast_or_null<CXXForRangeStmt>(DS ? Parents->getParent(DS) : nullptr);
  if (!FR || FR->getLoopVariable() != V || !isPieceList(FR->getRangeInit()))
    return nullptr;
  return FR->getRangeInit();
}

bool Lowering::rebound(const VarDecl *V) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody())
    return true;
  auto [It, New] = Regions.Rebound.try_emplace(FD);
  if (New)
    Rebinds(It->second).TraverseStmt(FD->getBody());
  return It->second.count(V);
}

Region Lowering::varRegion(const VarDecl *V) {
  auto It = Regions.VarRegions.find(V);
  if (It != Regions.VarRegions.end())
    return It->second;
  // A cycle through initialisers cannot happen, but an unknown part is the
  // safe answer while this one is being computed.
  Regions.VarRegions[V] = Region::some();
  Region R = Region::some();
  if (V->hasGlobalStorage()) {
    R = Region::whole();
  } else if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    // Only the analysed function's own parameters are storages of their
    // own; a helper's are bound to whatever its caller passed.
    if (P->getDeclContext() == Root && !rebound(V))
      R = Region::whole();
  } else if (!rebound(V) && !rangeOfLoopVar(V)) {
    R = V->getInit() ? regionOf(V->getInit()) : Region::whole();
  }
  return Regions.VarRegions[V] = R;
}

Region Lowering::pieceRegion(const Expr *List, const Expr *Index) {
  std::optional<int64_t> I = constant(Index, Ctx);
  const CXXMemberCallExpr *MC = pieceListCall(List);
  if (!MC)
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(stripValue(List, Table)))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && !rebound(V))
        MC = pieceListCall(V->getInit());
  if (!I || *I < 0 || !MC ||
      regionOf(MC->getImplicitObjectArgument()).K != Region::Whole)
    return Region::some();
  return streamsafe::pieceRegion(
      methodName(MC), *I, [&](unsigned Position, StringRef, int64_t Default) {
        return constantOr(MC, Position, Default, Ctx);
      });
}

// The region a view call adds to a tensor that is its whole storage.
Region Lowering::viewRegion(const CallExpr *CE, StringRef Name,
                            unsigned First) {
  return streamsafe::viewRegion(
      Name, [&](unsigned Position, StringRef, int64_t Default) {
        return constantOr(CE, First + Position, Default, Ctx);
      });
}

Region Lowering::regionOf(const Expr *E) {
  E = stripValue(E, Table);
  if (!E)
    return Region::some();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    return V ? varRegion(V) : Region::some();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) ? Region::whole()
                                               : Region::some();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getMethodDecl() &&
      Table.classify(MC->getImplicitObjectArgument()->getType()) ==
          ValueClass::Tensor) {
    return methodResultRegion(Table.lookup(MC->getMethodDecl()).Effect,
                              regionOf(MC->getImplicitObjectArgument()), [&] {
                                return viewRegion(MC, methodName(MC), 0);
                              });
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getNumArgs()) {
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        isPieceList(OC->getArg(0)))
      return pieceRegion(OC->getArg(0), OC->getArg(1));
    if (Table.classify(OC->getArg(0)->getType()) == ValueClass::Tensor) {
      Region Base = regionOf(OC->getArg(0));
      if (OC->getOperator() != OO_Subscript)
        return Base; // t += u, t = u
      return Base.K == Region::Whole ? viewRegion(OC, "operator[]", 1) : Base;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    ApiEffect Effect = Table.lookup(CE->getDirectCallee()).Effect;
    if (Inlined.Results.count(CE))
      return Region::some(); // a helper may return a view
    if (CE->getNumArgs() > 0 &&
        (Effect == ApiEffect::AtenInPlace || Effect == ApiEffect::AtenOutFirst))
      return regionOf(CE->getArg(0));
    if (CE->getNumArgs() > 0 && Effect == ApiEffect::AtenOutLast)
      return regionOf(CE->getArg(CE->getNumArgs() - 1));
  }
  return Region::whole();
}

} // namespace streamsafe
