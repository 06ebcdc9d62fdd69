//===--- Naming.h - PyTorch's naming conventions, as rules ------*- C++ -*-===//
//
// ATen names its variants by suffix in both languages: `add_` writes self,
// `add_out`/`add_outf` write an out argument, `zeros_like` allocates where
// its source lives, `empty*` allocates without writing. These take the bare
// name (no namespace, no class) and decide for names without a row.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_NAMING_H
#define STREAMSAFE_LIB_MODEL_NAMING_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe::naming {

/// A method that writes self: `add_` (not a dunder such as `__len__`), or
/// a C++ assignment operator (`operator+=`, `operator=` into a view such
/// as `t[0] = x`; not the comparisons `==`, `!=`, `<=`, `>=`).
bool isInPlaceMethod(llvm::StringRef Name);
/// A free function that writes its first tensor: `relu_` (not `_foo`, a
/// private name).
bool isInPlaceFunction(llvm::StringRef Name);
/// `add_out(out, ...)`: writes its first tensor argument.
bool isOutFirst(llvm::StringRef Name);
/// `add_outf(..., out)`: writes its last tensor argument.
bool isOutLast(llvm::StringRef Name);
/// `zeros_like(src)`: a new tensor where src lives, unless told otherwise.
bool isLikeFactory(llvm::StringRef Name);
/// `empty`, `empty_like`, `empty_strided`: allocates, writes no values.
bool allocatesOnly(llvm::StringRef Name);
/// `tensor(data, ...)`: copies its data (a list, a number) into the new
/// tensor.
bool copiesData(llvm::StringRef Name);

} // namespace streamsafe::naming

#endif // STREAMSAFE_LIB_MODEL_NAMING_H
