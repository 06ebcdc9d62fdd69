//===--- GradientHooks.h - Defs registered as gradient hooks ---*- C++ -*-===//
//
// Reads the syntax lib/model/GradientHooks.h asks for: whether the file
// hands a def to a call that registers gradient hooks (`p.register_hook(
// self._hook)`, through functools.partial too), which of its parameters is
// the gradient, and whether some return replaces it. Internal to
// lib/python.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_GRADIENTHOOKS_H
#define STREAMSAFE_LIB_PYTHON_GRADIENTHOOKS_H

#include "lib/python/Syntax.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

/// The names a file hands to calls that register gradient hooks: as
/// `x.name` (a method) and as `name` (a function).
struct RegisteredHooks {
  llvm::StringSet<> Methods, Functions;
};
/// One walk of the file (HelperIndex keeps it).
RegisteredHooks registeredHooks(const SourceFile &F);

/// The name of \p Def's gradient parameter when the file registers \p Def
/// as a gradient hook and a return of it replaces the gradient; "" otherwise
/// (the caller checks that it holds a tensor).
std::string droppedGradientParameter(TSNode Def, const SourceFile &F,
                                     const RegisteredHooks &Registered);

/// Whether the return (or other exit) \p At of a hook whose gradient is
/// named \p Gradient leaves the gradient to autograd.
bool keepsGradient(TSNode At, llvm::StringRef Gradient, const SourceFile &F);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_GRADIENTHOOKS_H
