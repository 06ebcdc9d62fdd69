//===--- ValueExprs.h - Which value a Clang expression denotes --*- C++ -*-===//
//
// The small syntactic helpers the lowering and the unit's scans share: what
// an expression denotes once copies, casts and temporaries are looked
// through, the lambda a callable argument is, and a literal non_blocking.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_VALUEEXPRS_H
#define STREAMSAFE_LIB_FRONTEND_VALUEEXPRS_H

#include "lib/frontend/ApiTable.h"

namespace clang {
class CallExpr;
class Expr;
class LambdaExpr;
} // namespace clang

namespace streamsafe {

/// Strips what does not change which value an expression denotes: parens,
/// implicit casts, temporaries, copies, std::move.
const clang::Expr *stripValue(const clang::Expr *E, ApiLookup &Table);
/// The expression a temporary's wrapper holds (a materialized or bound
/// temporary, cleanups, a functional cast), or null when \p E is none.
const clang::Expr *temporaryInside(const clang::Expr *E);
/// The lambda a callable argument denotes (directly, through a variable or a
/// std::function), or null.
const clang::LambdaExpr *lambdaOf(const clang::Expr *E, ApiTable &Table);
/// True when the call binds a parameter named non_blocking to literal true.
bool nonBlocking(const clang::CallExpr *CE);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_VALUEEXPRS_H
