//===--- ParameterFields.h - Fields of a caller's objects ------*- C++ -*-===//
//
// `bucket.grad_data` of a parameter object, of a loop element over a
// parameter's container or over the object's own container: the caller's
// tensor when the def's uses say so and the def never assigns it
// (Scope::ParamFields; docs/python.md, "Values whose type is not written").
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_PARAMETERFIELDS_H
#define STREAMSAFE_LIB_PYTHON_PARAMETERFIELDS_H

#include "lib/python/Scope.h"
#include "llvm/ADT/StringMap.h"
#include <utility>
#include <vector>

namespace streamsafe::py {

/// Scope::ParamFields of the def of \p S: the "p.f" keys \p ByUse types
/// as tensors, p.f never assigned in the def, p a parameter \p Values
/// never binds (not a method's own object) or a name bound only to the
/// elements of such a parameter or of the object's attributes (`for b in
/// self.buckets`, \p Elements).
void addParameterFields(
    Scope &S, const llvm::StringMap<VarClass> &ByUse,
    const llvm::StringMap<std::vector<TSNode>> &Values,
    const llvm::StringMap<std::vector<std::pair<TSNode, int>>> &Elements,
    const SourceFile &F);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_PARAMETERFIELDS_H
