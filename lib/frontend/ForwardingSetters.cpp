//===--- ForwardingSetters.cpp - Setters of a stream they are given -------===//

#include "lib/frontend/ForwardingSetters.h"
#include "lib/frontend/ApiTable.h"
#include "lib/frontend/StreamOperands.h"
#include "lib/lower/LeavesStreamSet.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace streamsafe {

namespace {

/// Whether \p E, looked through like a stream operand, names a parameter
/// of \p FD.
bool isParameter(const Expr *E, const FunctionDecl &FD, ApiLookup &Table) {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(E ? streamOperand(E, Table) : nullptr);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && llvm::is_contained(FD.parameters(), P);
}

/// forwardsStreamParameters, \p Depth calls deep; \p Sets: some stream is
/// made current.
bool forwards(const FunctionDecl &FD, ApiLookup &Table, unsigned Depth,
              bool &Sets, bool &ReadsCurrent) {
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def->getBody())
    return false;
  if (Depth > lower::MaxForwardingDepth) {
    Sets = true; // too deep to tell: judged as it is
    return false;
  }
  bool OnlyParams = true;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Work.push_back(Init->getInit());
  while (!Work.empty() && OnlyParams) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *CE = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
    if (!Callee)
      continue;
    ApiEffect E = Table.lookup(Callee).Effect;
    if (E == ApiEffect::CurrentStream ||
        E == ApiEffect::ConfiguredCurrentStream) {
      ReadsCurrent = true;
      continue;
    }
    if (E == ApiEffect::SetCurrentStream ||
        E == ApiEffect::ConfiguredSetCurrent) {
      Sets = true;
      OnlyParams &=
          CE->getNumArgs() >= 1 && isParameter(CE->getArg(0), *Def, Table);
      continue;
    }
    if (E != ApiEffect::None ||
        Callee->getCanonicalDecl() == Def->getCanonicalDecl())
      continue;
    // (Only the function's own code tells whether it keeps the current
    // stream: the callee's answer is not asked for.)
    bool Inner = false, CalleeReads = false;
    bool Forwards = forwards(*Callee, Table, Depth + 1, Inner, CalleeReads);
    if (Inner) {
      Sets = true;
      OnlyParams &=
          Forwards && llvm::all_of(CE->arguments(), [&](const Expr *A) {
            return isParameter(A, *Def, Table);
          });
    }
  }
  return OnlyParams;
}

} // namespace

bool forwardsStreamParameters(const FunctionDecl &FD, ApiLookup &Table,
                              bool &ReadsCurrent) {
  bool Sets = false;
  return forwards(FD, Table, 0, Sets, ReadsCurrent) && Sets;
}

} // namespace streamsafe
