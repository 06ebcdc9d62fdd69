//===--- ReturnClasses.h - What a def of the project returns ----*- C++ -*-===//
//
// Real code takes its tensors from its own defs and methods: `out =
// self._forward(batch)`, `losses, output = self._mlp_forward(batch)`. What a
// def returns, whatever its arguments, says what such a name holds: the
// def's annotation (`-> Tuple[torch.Tensor, Out]`), else what every return
// gives, item by item when each returns a tuple of one length. Scope.cpp
// reads it for the defs of a scope and for the methods a method calls on
// its own object. Internal to lib/python.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_RETURNCLASSES_H
#define STREAMSAFE_LIB_PYTHON_RETURNCLASSES_H

#include "lib/python/Scope.h"
#include "llvm/ADT/SmallVector.h"

namespace streamsafe::py {

/// The shape of what \p Def returns, seen from \p Parent. \p MethodDepth:
/// how many levels of `self.m()` calls its own scope follows.
ReturnShape returnShapeOf(TSNode Def, const Scope &Parent, const SourceFile &F,
                          const Imports &I, int MethodDepth);

/// The same, with \p S the scope of \p Def already made.
ReturnShape returnShapeIn(TSNode Def, const Scope &S, const SourceFile &F,
                          const Imports &I);

/// Records \p R in \p S as what a call of \p Name returns, when it says
/// anything followed.
void recordReturns(Scope &S, llvm::StringRef Name, const ReturnShape &R);

/// Records in \p S (the scope of the method \p Def) what the methods of its
/// class that it calls on its first parameter return, as "self.m" (the
/// parameter's name): in Returns and ReturnItems.
void addMethodReturns(TSNode Def, Scope &S, const SourceFile &F,
                      const Imports &I, int MethodDepth);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_RETURNCLASSES_H
