//===--- MemberCode.h - Questions about a class's own code ------*- C++ -*-===//
//
// What the classes recognised from their code (hand-written stream guards,
// event wrappers) are asked: which calls a method body makes, and which
// field of the class an expression names.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_MEMBERCODE_H
#define STREAMSAFE_LIB_FRONTEND_MEMBERCODE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FieldDecl;
class Stmt;
} // namespace clang

namespace streamsafe {

class ApiLookup;

/// The calls in \p Body (lambdas included) for which \p Wanted holds.
std::vector<const clang::CallExpr *>
callsIn(const clang::Stmt *Body,
        llvm::function_ref<bool(const clang::CallExpr *)> Wanted);

/// The field of the enclosing class that \p E names (this->f, f), or null.
const clang::FieldDecl *thisField(const clang::Expr *E, ApiLookup &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_MEMBERCODE_H
