//===--- VariableChanges.h - Which local variables a body may change -*- C++
//-*-===//
//
// A mixin for a RecursiveASTVisitor over a function body that tells which
// local variables may change after their initialisation: every use must be
// a plain read (an lvalue-to-rvalue conversion, a const view of the object
// such as a const method call or a const reference, a copy, `(void)v`), also
// inside nested lambdas; anything else (assignment, increment, address
// taken, non-const reference) counts as a change. Much cheaper than clang's
// ExprMutationAnalyzer, which costs seconds on a LibTorch translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_VARIABLECHANGES_H
#define STREAMSAFE_LIB_FRONTEND_VARIABLECHANGES_H

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <vector>

namespace streamsafe {

/// Derived is the visitor; it calls finishChanges() after its traversal.
/// A Derived that defines a Visit method of its own for one of these node
/// kinds must call this class's.
template <typename Derived>
class VariableChanges : public clang::RecursiveASTVisitor<Derived> {
public:
  bool mayChange(const clang::VarDecl &V) const { return Changed.count(&V); }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *C) {
    if (C->getCastKind() == clang::CK_LValueToRValue ||
        (C->getCastKind() == clang::CK_NoOp && C->getType().isConstQualified()))
      Reads.insert(C->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitExplicitCastExpr(clang::ExplicitCastExpr *C) {
    if (C->getCastKind() == clang::CK_ToVoid)
      Reads.insert(C->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *C) {
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyConstructor())
      Reads.insert(C->getArg(0)->IgnoreParens());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *R) {
    if (const auto *V = clang::dyn_cast<clang::VarDecl>(R->getDecl()))
      if (V->hasLocalStorage() || static_cast<Derived *>(this)->tracks(*V))
        Refs.push_back(R);
    return true;
  }
  /// Variables of static storage whose changes are tracked too (a Derived
  /// that scans a whole unit shadows this).
  bool tracks(const clang::VarDecl &) const { return false; }

protected:
  /// Call after the traversal: a use that is not a read changes its
  /// variable.
  void finishChanges() {
    for (const clang::DeclRefExpr *R : Refs)
      if (!Reads.count(R))
        Changed.insert(R->getDecl());
  }

private:
  std::vector<const clang::DeclRefExpr *> Refs;
  llvm::SmallPtrSet<const clang::Expr *, 32> Reads;
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> Changed;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_VARIABLECHANGES_H
