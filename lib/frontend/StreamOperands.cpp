//===--- StreamOperands.cpp - What a stream operand is, as written --------===//

#include "lib/frontend/StreamOperands.h"
#include "lib/frontend/ApiTable.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {

const Expr *streamOperand(const Expr *E, ApiLookup &Table) {
  E = stripValue(E, Table);
  while (E) {
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      E = stripValue(Cast->getSubExpr(), Table);
      continue;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (MC && MC->getMethodDecl() &&
        Table.lookup(MC->getMethodDecl()).Effect == ApiEffect::StreamIdentity) {
      E = stripValue(MC->getImplicitObjectArgument(), Table);
      continue;
    }
    break;
  }
  return E;
}

StreamLiteral streamLiteral(const Expr *E) {
  if (!E)
    return StreamLiteral::NotLiteral;
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return StreamLiteral::Null;
  const auto *IL = dyn_cast<IntegerLiteral>(E);
  if (!IL)
    return StreamLiteral::NotLiteral;
  switch (IL->getValue().getZExtValue()) {
  case 0:
    return StreamLiteral::Null;
  case 1:
    return StreamLiteral::Legacy;
  case 2:
    return StreamLiteral::PerThread;
  default:
    return StreamLiteral::Other;
  }
}

ApiEffect streamCallEffect(const Expr *E, ApiLookup &Table) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  return CE ? Table.lookup(CE->getDirectCallee()).Effect : ApiEffect::None;
}

} // namespace streamsafe
