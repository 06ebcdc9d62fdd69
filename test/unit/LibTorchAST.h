//===--- LibTorchAST.h - Test code parsed against LibTorch ------*- C++ -*-===//
//
// Unit tests parse their snippets against the real LibTorch headers (Debian's
// libtorch-dev, with the repository's shim), using the lit tests'
// precompiled headers when they are built and current.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TEST_UNIT_LIBTORCHAST_H
#define STREAMSAFE_TEST_UNIT_LIBTORCHAST_H

#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace streamsafe::test {

/// Parses \p Code (a C++17 file that includes LibTorch headers); null when
/// it does not compile.
std::unique_ptr<clang::ASTUnit> parseWithLibTorch(llvm::StringRef Code);

/// The function definitions of the main file, by name.
llvm::StringMap<const clang::FunctionDecl *>
mainFileFunctions(clang::ASTUnit &AST);

/// The line of the "// @Marker" comment in \p Code.
unsigned lineOf(llvm::StringRef Code, llvm::StringRef Marker);

} // namespace streamsafe::test

#endif // STREAMSAFE_TEST_UNIT_LIBTORCHAST_H
