//===--- ClassesByUse.h - Unannotated names, by their use -----*- C++ -*-===//
//
// A Python parameter without an annotation is classified by what its def
// does with it: a tensor when used only as tensors can be, a stream when
// used only as streams can be (docs/python.md, "Values whose type is not
// written"). Scope.cpp asks it for a def's parameters.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_CLASSESBYUSE_H
#define STREAMSAFE_LIB_PYTHON_CLASSESBYUSE_H

#include "lib/ir/IR.h"
#include "lib/python/Imports.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe::py {

/// What a use of \p N is keyed by: a name, or a name's attribute
/// (`p.grad_data`), through views (`p.data`: p's key); "" for anything
/// else.
std::string useKey(TSNode N, const SourceFile &F);

/// The names (and names' attributes, "p.f") \p Def's own code uses as only
/// tensors can be used
/// (`x.record_stream(s)`, `x.copy_(y)`, `x.add_(1)`, `x.numel()`,
/// `x.dtype`, a collective's tensor operand: lib/model/UseEvidence.h) or as
/// only streams can (`with torch.cuda.stream(s)`, `s.wait_stream(t)`); a
/// name used both ways is neither. This is the evidence alone: Scope.cpp
/// weighs it against what the def binds each name to.
llvm::StringMap<VarClass> classesByUse(TSNode Def, const SourceFile &F,
                                       const Imports &I);

/// Whether the call \p Call of \p Method on a value says the value is a
/// tensor: by the method's name, or by a keyword only the tensor's method
/// of that name takes (lib/model/UseEvidence.h).
bool callProvesTensor(TSNode Call, llvm::StringRef Method, const SourceFile &F);

/// Whether \p Arg, a positional argument of a call, is an operand only a
/// tensor can be: of a torch function that takes tensors only there
/// (`torch.maximum(a, b)`, lib/model/UseEvidence.h).
bool operandProvesTensor(TSNode Arg, const Imports &I);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_CLASSESBYUSE_H
