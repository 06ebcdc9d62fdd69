//===--- SpawnWrappers.cpp - A project's own thread spawners --------------===//

#include "lib/frontend/SpawnWrappers.h"
#include "lib/frontend/ApiTable.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace streamsafe {

namespace {

/// The parameter of \p FD that \p E is, as it is handed on: through
/// std::move / std::forward, a conversion (to std::function), a copy.
const ParmVarDecl *parameterOf(const Expr *E, const FunctionDecl &FD) {
  for (int Steps = 0; E && Steps < 8; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      E = C->getNumArgs() >= 1 ? C->getArg(0) : nullptr;
      continue;
    }
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = F->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Callee && CE->getNumArgs() == 1 && Callee->getIdentifier() &&
          (Callee->getName() == "move" || Callee->getName() == "forward") &&
          Callee->isInStdNamespace()) {
        E = CE->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
      return P && llvm::is_contained(FD.parameters(), P) ? P : nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

bool isSpawn(ApiEffect E) {
  return E == ApiEffect::SpawnThread || E == ApiEffect::ConfiguredThreadSpawn;
}

} // namespace

bool spawnsParameter(const FunctionDecl &FD, ApiLookup &Table) {
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def->getBody() || Def->parameters().empty())
    return false;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Callee && Callee != &FD && isSpawn(Table.lookup(Callee).Effect))
        for (const Expr *A : CE->arguments())
          if (parameterOf(A, *Def))
            return true;
    }
    // Not into lambdas: a lambda's body runs where it is called.
    if (isa<LambdaExpr>(S))
      continue;
    for (const Stmt *C : S->children())
      if (C)
        Work.push_back(C);
  }
  return false;
}

} // namespace streamsafe
