//===--- UseEvidence.h - What a use says a value is -------------*- C++ -*-===//
//
// Untyped code (Python) says what a value is by how it uses it. A use is
// evidence of a tensor only when no other kind of value a program commonly
// holds could be used so: a method or property of the tensor model that no
// Python builtin type (str, list, dict, int, ...) and no nn.Module or
// optimizer has. `x.numel()`, `x.narrow(...)`, `x.dtype`, `x.add_(1)` are
// evidence; `x.to(...)`, `x.cuda()`, `x.split(...)`, `x.values()`, `x.data`
// are not (modules, strings and dicts have them). The front end combines
// the evidence with what the code binds the value to
// (lib/python/ClassesByUse.cpp, docs/python.md "Values whose type is not
// written").
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_USEEVIDENCE_H
#define STREAMSAFE_LIB_MODEL_USEEVIDENCE_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe {

/// Whether calling `x.Name(...)` in Python says x is a tensor.
bool pyMethodProvesTensor(llvm::StringRef Name);
/// Whether calling `x.Name(...)` with a keyword argument \p Keyword says x
/// is a tensor though the name alone does not: `x.cuda(non_blocking=True)`
/// (nn.Module's cuda() takes no non_blocking).
bool pyKeywordProvesTensor(llvm::StringRef Name, llvm::StringRef Keyword);
/// Whether reading `x.Name` (no call) in Python says x is a tensor.
bool pyAttributeProvesTensor(llvm::StringRef Name);
/// Whether unpacking what `x.Name(...)` returns (`values, indices =
/// x.sort()`) says x is a tensor: a list's or an array's sort() returns
/// None, which no unpacking takes, and no other common value has the other
/// names (a tensor's named tuple of new tensors, returnsTensorTuple).
bool pyUnpackedResultProvesTensor(llvm::StringRef Name);

/// How many leading positional operands of `torch.Bare(...)` say they are
/// tensors (0: none): functions whose operands only a tensor can be
/// (`torch.maximum(a, b)`, `torch.clone(x)`; torch.abs(3) is a TypeError).
/// Not the factories, which take sizes, data and scalars.
unsigned pyTorchFunctionTensorOperands(llvm::StringRef Bare);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_USEEVIDENCE_H
