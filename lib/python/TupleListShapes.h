//===--- TupleListShapes.h - Lists of tuples, from their syntax -*- C++ -*-===//
//
// `pairs = []; pairs.append((t, buf, n)); for t, _, _ in pairs:` keeps
// tensors in a list of tuples of one arity. Scope.cpp reads which names
// hold such a list and what each item (column) of its tuples is; the
// builder follows each column as a list of its own (TupleLists.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_TUPLELISTSHAPES_H
#define STREAMSAFE_LIB_PYTHON_TUPLELISTSHAPES_H

#include "lib/python/ExprClasses.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace streamsafe::py::infer {

/// The arity of the tuples a name holds when each of its \p Bindings is a
/// list literal of tuple literals of that arity (or `[]`) and each of its
/// \p Appends a tuple literal of it; 0 when some is anything else, when
/// there is no tuple at all, or for tuples of fewer than two items.
unsigned tupleListArity(llvm::ArrayRef<TSNode> Bindings,
                        llvm::ArrayRef<TSNode> Appends);

/// What item \p Column of those tuples holds: the join of the literals'
/// and \p Appends' items (the appends of this scope's own code; a
/// closure's are read in its own scope).
Cls tupleListColumn(unsigned Column, llvm::ArrayRef<TSNode> Bindings,
                    llvm::ArrayRef<TSNode> Appends, const Lookup &L,
                    const SourceFile &F, const Imports &I);

} // namespace streamsafe::py::infer

#endif // STREAMSAFE_LIB_PYTHON_TUPLELISTSHAPES_H
