//===--- Arguments.h - The argument names the model reads -------*- C++ -*-===//
//
// PyTorch names these arguments alike in C++ and Python: a front end finds
// them by parameter name (C++: the declaration's, as unpacked overloads
// order them differently) or by keyword (Python).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_ARGUMENTS_H
#define STREAMSAFE_LIB_MODEL_ARGUMENTS_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe::arguments {

/// copy_(src, non_blocking), to(..., non_blocking): the copy does not
/// block the host.
constexpr llvm::StringLiteral NonBlocking = "non_blocking";
/// empty(..., pin_memory): the result lives in pinned host memory.
constexpr llvm::StringLiteral PinMemory = "pin_memory";
/// The device a factory allocates on, or a copy goes to.
constexpr llvm::StringLiteral Device = "device";

/// A TensorOptions setter that pins the memory (C++'s builder spells it
/// pinned_memory, the unpacked overloads pin_memory).
inline bool isPinOption(llvm::StringRef Name) {
  return Name == PinMemory || Name == "pinned_memory";
}

} // namespace streamsafe::arguments

#endif // STREAMSAFE_LIB_MODEL_ARGUMENTS_H
