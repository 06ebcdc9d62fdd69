//===--- ContainerUses.h - Each reference to a local container -*- C++ -*-===//
//
// The first half of ContainerModel::compute (Containers.cpp): what each
// reference to one local container of tensors does, read from the syntax
// around it (an Event), and whether it runs once per declaration. The
// second half simulates the events in source order to give slots.
// Internal to lib/frontend.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_CONTAINERUSES_H
#define STREAMSAFE_LIB_FRONTEND_CONTAINERUSES_H

#include "lib/frontend/ApiTable.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <vector>

namespace streamsafe::containers {

/// Every DeclRefExpr of one variable in a body.
class RefFinder : public clang::RecursiveASTVisitor<RefFinder> {
public:
  RefFinder(const clang::VarDecl *V) : V(V) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(clang::DeclRefExpr *DR) {
    if (DR->getDecl() == V)
      Refs.push_back(DR);
    return true;
  }
  bool VisitDeclStmt(clang::DeclStmt *DS) {
    for (const clang::Decl *D : DS->decls())
      if (D == V)
        DeclSt = DS;
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *LE) {
    for (const clang::LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V)
        Captured = true;
    return true;
  }
  const clang::VarDecl *V;
  llvm::SmallVector<const clang::DeclRefExpr *, 8> Refs;
  const clang::DeclStmt *DeclSt = nullptr;
  bool Captured = false;
};

/// One use of the container, before the simulation.
struct Event {
  enum Kind {
    Add,
    Clear,
    PopBack,
    Erase,
    Reassign,
    Element,       // Index: a constant, or -1; Front/Back
    ElementAssign, // Element with a new value
    Whole,         // every element (range-for, argument, copy, return)
    Decompose,
    Ignore
  } K = Ignore;
  const void *Key = nullptr;       // where the lowering finds it
  const clang::Stmt *At = nullptr; // where it happens, for source order
  int64_t Index = -1;
  bool Back = false;
  bool Straight = true; // runs once per declaration of the container
  bool InLoop = false;
  llvm::SmallVector<const clang::Expr *, 4> Values;
  const void *AlsoKey = nullptr; // ElementAssign: the element expression
};

llvm::StringRef nameOf(const clang::NamedDecl *D);
/// The expression without parentheses, implicit casts and temporaries.
const clang::Expr *strip(const clang::Expr *E);
/// The tensors a braced list, a list-constructor, std::make_pair/make_tuple
/// or a pair/tuple constructor of tensors gives, in order (\p Nodes: the
/// nodes that only build them); false when \p E is something else (a copy
/// of another container, a size).
bool listElements(const clang::Expr *E, ApiTable &Table,
                  llvm::SmallVectorImpl<const clang::Expr *> &Out,
                  llvm::SmallVectorImpl<const void *> &Nodes);

/// Reads each reference to the local container \p V of \p Body as an
/// Event; the declaration's own statement is in \p Scope.
class UseReader {
public:
  UseReader(clang::ASTContext &Ctx, ApiTable &Table, const clang::VarDecl *V,
            clang::Stmt *Body, const clang::ParentMap &PM,
            const clang::Stmt *Scope,
            const clang::ClassTemplateSpecializationDecl *Spec,
            llvm::DenseSet<const void *> &Consumed)
      : Ctx(Ctx), Table(Table), V(V), Body(Body), PM(PM), Scope(Scope),
        Spec(Spec), Consumed(Consumed) {}

  /// Whether \p S runs once per declaration (E.Straight) and whether it
  /// may repeat (E.InLoop); false when it is inside a lambda.
  bool placement(const clang::Stmt *S, Event &E) const;
  /// The events of \p Refs, in the order given; false when one is a use
  /// the model does not follow (the container is then not followed).
  bool read(llvm::ArrayRef<const clang::DeclRefExpr *> Refs,
            std::vector<Event> &Events);

private:
  /// An element expression: plain, or assigned a new tensor.
  bool elementAt(std::vector<Event> &Events, const clang::Expr *Elem,
                 int64_t Index, bool Back);

  clang::ASTContext &Ctx;
  ApiTable &Table;
  const clang::VarDecl *V;
  clang::Stmt *Body;
  const clang::ParentMap &PM;
  const clang::Stmt *Scope;
  const clang::ClassTemplateSpecializationDecl *Spec;
  llvm::DenseSet<const void *> &Consumed;
};

} // namespace streamsafe::containers

#endif // STREAMSAFE_LIB_FRONTEND_CONTAINERUSES_H
