//===--- LLVMCompat.h - The one place that knows LLVM versions -*- C++ -*-===//
//
// Everything that differs between the LLVM releases StreamSafe builds against
// lives here, so the rest of the code spells each API one way.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_CHECKS_LLVMCOMPAT_H
#define STREAMSAFE_CHECKS_LLVMCOMPAT_H

#include "llvm/Config/llvm-config.h"

// LLVM 22 moved ClangTidyModuleRegistry into ClangTidyModule.h and deprecated
// the old header.
#if LLVM_VERSION_MAJOR >= 22
#include "clang-tidy/ClangTidyModule.h"
#else
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

#endif // STREAMSAFE_CHECKS_LLVMCOMPAT_H
