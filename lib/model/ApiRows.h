//===--- ApiRows.h - Every stream API once, in both spellings ---*- C++ -*-===//
//
// One row per API: its effect, where its operands are, its fully qualified
// C++ names and its dotted Python name. A row spelled in one language only
// says why (OneLanguage); the parity test (test/model) checks that every
// row spelled in both gives the same findings in both. Methods of tensors
// and the free tensor functions have tables of their own
// (TensorMethods.h, TorchFunctions.h): they are many and uniform.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_APIROWS_H
#define STREAMSAFE_LIB_MODEL_APIROWS_H

#include "lib/model/ApiEffect.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe {

/// One API of the model.
struct ApiRow {
  /// Fully qualified C++ names, separated by ';' (one API can have
  /// several: CUDAEvent is at::cuda:: in 1.13 and c10::cuda:: in 2.x), or
  /// null.
  const char *Cpp;
  /// The dotted Python name (a method as Class.method), or null.
  const char *Python;
  ApiEntry Entry;
  /// For a row spelled in one language only: why the other has none.
  const char *OneLanguage = nullptr;
};

/// One class the analysis follows, in both spellings.
struct ClassRow {
  const char *Cpp;
  const char *Python;
  ValueClass Class;
  const char *OneLanguage = nullptr;
};

llvm::ArrayRef<ApiRow> apiRows();
llvm::ArrayRef<ClassRow> classRows();

/// The row of the C++ function \p QualifiedName, or null. Tensor methods
/// and free tensor functions are not here (TensorMethods.h,
/// TorchFunctions.h).
const ApiEntry *cppApi(llvm::StringRef QualifiedName);
/// The row of the Python function or method \p Dotted, or null.
const ApiRow *pythonApi(llvm::StringRef Dotted);
/// The class named \p QualifiedName in C++ (ValueClass::None: not one).
ValueClass cppClass(llvm::StringRef QualifiedName);
/// The class whose constructor (or context manager) Python names \p Dotted.
ValueClass pythonClass(llvm::StringRef Dotted);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_APIROWS_H
