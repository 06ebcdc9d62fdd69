//===--- GradientHooks.h - Lambdas registered as gradient hooks -*- C++ -*-===//
//
// Reads the syntax lib/model/GradientHooks.h asks for: whether the function
// that writes a lambda hands it to a call that registers gradient hooks
// (`param.register_hook([this](at::Tensor grad) { ... })`), which parameter
// is the gradient, and whether a return replaces it. The Python twin is
// lib/python/GradientHooks.h.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_GRADIENTHOOKS_H
#define STREAMSAFE_LIB_FRONTEND_GRADIENTHOOKS_H

namespace clang {
class FunctionDecl;
class ParmVarDecl;
class ReturnStmt;
} // namespace clang

namespace streamsafe {

/// The gradient parameter of \p FD, a lambda's call operator, when the
/// function that writes the lambda registers it as a gradient hook and a
/// return of it replaces the gradient; null otherwise.
const clang::ParmVarDecl *
droppedGradientParameter(const clang::FunctionDecl &FD);

/// Whether \p RS, a return of a hook whose gradient is \p Gradient, lets
/// autograd drop the gradient (it returns a replacement).
bool dropsGradient(const clang::ReturnStmt &RS,
                   const clang::ParmVarDecl &Gradient);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_GRADIENTHOOKS_H
