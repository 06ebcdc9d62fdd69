//===--- Values.h - What a Python expression evaluates to -------*- C++ -*-===//
//
// The Python builder evaluates each expression to a Value: what it is as far
// as streams go (a tensor, a stream, an event, a list of tensors, an object
// of a class of the file). Shared by the builder's units.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_VALUES_H
#define STREAMSAFE_LIB_PYTHON_VALUES_H

#include "lib/ir/IR.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace streamsafe::py {

struct Instance;

/// What a Python expression evaluates to, as far as streams go.
struct Value {
  VarClass Class = VarClass::Other;
  TensorRef Tensor;
  StreamRef Stream = StreamRef::unknown();
  VarId Event = NoVar;
  bool FreshEvent = false; ///< torch.cuda.Event(): a new event
  bool RecordOn = false;   ///< s.record_event(): a new event recorded on
  StreamRef RecordStream;  ///< ... this stream
  /// Tensors a tuple or list holds (they escape with it).
  llvm::SmallVector<TensorRef, 2> Held;
  TSNode Node = {};
  /// An object of a class of this file, followed (Cls(...)).
  const Instance *Object = nullptr;
  /// A list or tuple of tensors followed element by element
  /// (Containers.cpp): the elements by position (None: not a tensor),
  /// then those of no known position (appended, a comprehension's, the
  /// views chunk() returns).
  bool List = false;
  llvm::SmallVector<TensorRef, 2> Items;
  llvm::SmallVector<TensorRef, 2> Unplaced;
  /// A list of tuples followed item by item (TupleLists.cpp): each
  /// tuple's items in order (None: not a tensor).
  std::vector<llvm::SmallVector<TensorRef, 4>> Tuples;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_VALUES_H
