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
#include <gtest/gtest.h>
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

/// A test suite over one snippet, parsed once for the suite: Suite gives
/// it as `static const char *code()`.
template <typename Suite> class ParsedSuite : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = parseWithLibTorch(Suite::code());
    if (AST)
      Functions = mainFileFunctions(*AST);
  }
  static void TearDownTestSuite() {
    Functions.clear();
    AST.reset();
  }
  void SetUp() override { ASSERT_TRUE(AST) << "the test code did not parse"; }

  static inline std::unique_ptr<clang::ASTUnit> AST;
  static inline llvm::StringMap<const clang::FunctionDecl *> Functions;
};

} // namespace streamsafe::test

#endif // STREAMSAFE_TEST_UNIT_LIBTORCHAST_H
