//===--- MemberCode.cpp - Questions about a class's own code --------------===//

#include "lib/frontend/MemberCode.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace streamsafe {

std::vector<const CallExpr *>
callsIn(const Stmt *Body, llvm::function_ref<bool(const CallExpr *)> Wanted) {
  struct Calls : RecursiveASTVisitor<Calls> {
    llvm::function_ref<bool(const CallExpr *)> Wanted;
    std::vector<const CallExpr *> Found;
    bool VisitCallExpr(CallExpr *CE) {
      if (Wanted(CE))
        Found.push_back(CE);
      return true;
    }
  } C{{}, Wanted, {}};
  if (Body)
    C.TraverseStmt(const_cast<Stmt *>(Body));
  return C.Found;
}

const FieldDecl *thisField(const Expr *E, ApiLookup &Table) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(stripValue(E, Table));
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

} // namespace streamsafe
