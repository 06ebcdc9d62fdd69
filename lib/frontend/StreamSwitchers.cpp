//===--- StreamSwitchers.cpp - Hand-written RAII stream guards ------------===//

#include "lib/frontend/StreamSwitchers.h"
#include "lib/frontend/ApiTable.h"
#include "lib/frontend/MemberCode.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace streamsafe {

namespace {

std::vector<const CallExpr *> callsIn(const Stmt *Body, ApiLookup &Table,
                                      ApiEffect Wanted) {
  return streamsafe::callsIn(Body, [&](const CallExpr *CE) {
    return Table.lookup(CE->getDirectCallee()).Effect == Wanted;
  });
}

/// The stream argument of a set-current call, through accessors.
const Expr *setArgument(const CallExpr *CE) {
  return CE->getNumArgs() ? CE->getArg(0) : nullptr;
}

bool asksForCurrentStream(const Expr *E, ApiLookup &Table) {
  return !callsIn(E, Table, ApiEffect::CurrentStream).empty() ||
         !callsIn(E, Table, ApiEffect::ConfiguredCurrentStream).empty();
}

/// Fields the constructor sets from getCurrentCUDAStream(), in its
/// initialiser list or its body.
llvm::SmallPtrSet<const FieldDecl *, 2> savedFields(const CXXConstructorDecl &C,
                                                    ApiLookup &Table) {
  llvm::SmallPtrSet<const FieldDecl *, 2> Saved;
  for (const CXXCtorInitializer *Init : C.inits())
    if (Init->isMemberInitializer() &&
        asksForCurrentStream(Init->getInit(), Table))
      Saved.insert(Init->getMember());
  struct Assignments : RecursiveASTVisitor<Assignments> {
    ApiLookup &Table;
    llvm::SmallPtrSet<const FieldDecl *, 2> &Saved;
    Assignments(ApiLookup &Table, llvm::SmallPtrSet<const FieldDecl *, 2> &S)
        : Table(Table), Saved(S) {}
    void assigned(const Expr *LHS, const Expr *RHS) {
      if (const FieldDecl *F = thisField(LHS, Table))
        if (asksForCurrentStream(RHS, Table))
          Saved.insert(F);
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Assign)
        assigned(B->getLHS(), B->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *O) {
      if (O->getOperator() == OO_Equal && O->getNumArgs() == 2)
        assigned(O->getArg(0), O->getArg(1));
      return true;
    }
  } A(Table, Saved);
  if (C.getBody())
    A.TraverseStmt(C.getBody());
  return Saved;
}

} // namespace

std::optional<unsigned> streamSwitcherParameter(const CXXRecordDecl &Class,
                                                ApiLookup &Table) {
  const CXXRecordDecl *RD = Class.getDefinition();
  if (!RD || RD->isLambda())
    return std::nullopt;
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  const FunctionDecl *DtorDef = nullptr;
  if (!Dtor || !Dtor->hasBody(DtorDef))
    return std::nullopt;
  // The destructor sets back streams kept in fields.
  llvm::SmallPtrSet<const FieldDecl *, 2> Restored;
  for (const CallExpr *Set :
       callsIn(DtorDef->getBody(), Table, ApiEffect::SetCurrentStream))
    if (const FieldDecl *F = thisField(setArgument(Set), Table))
      Restored.insert(F);
  if (Restored.empty())
    return std::nullopt;
  // A constructor saves one of them from the current stream and sets a
  // stream it was given.
  for (const CXXConstructorDecl *Ctor : RD->ctors()) {
    const FunctionDecl *Def = nullptr;
    if (!Ctor->hasBody(Def) || Ctor->isCopyOrMoveConstructor())
      continue;
    const auto &C = *cast<CXXConstructorDecl>(Def);
    if (llvm::none_of(savedFields(C, Table),
                      [&](const FieldDecl *F) { return Restored.count(F); }))
      continue;
    for (const CallExpr *Set :
         callsIn(C.getBody(), Table, ApiEffect::SetCurrentStream)) {
      const auto *DR =
          dyn_cast_or_null<DeclRefExpr>(stripValue(setArgument(Set), Table));
      const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      if (P && P->getDeclContext() == &C)
        return P->getFunctionScopeIndex();
    }
  }
  return std::nullopt;
}

} // namespace streamsafe
