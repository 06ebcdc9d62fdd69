//===--- LibTorchAST.cpp - Test code parsed against LibTorch --------------===//

#include "LibTorchAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include <cctype>
#include <gtest/gtest.h>

using namespace clang;

namespace streamsafe::test {

std::unique_ptr<ASTUnit> parseWithLibTorch(llvm::StringRef Code) {
  std::vector<std::string> Args = {
      "-std=c++17",
      "-isystem",
      STREAMSAFE_TEST_TORCH_API_INCLUDE,
      "-isystem",
      STREAMSAFE_SOURCE_DIR "/test/shim",
      "-isystem",
      STREAMSAFE_TEST_CUDA_INCLUDE,
      "-resource-dir=" STREAMSAFE_TEST_RESOURCE_DIR};
  // The precompiled headers, when built and current, save most of the parse
  // (~4 s); the headers' include guards make the code's own #includes
  // no-ops, so the AST is the same. Otherwise (not built, or stale: clang
  // rejects it) parse the headers.
  std::unique_ptr<ASTUnit> AST;
  std::string Pch = STREAMSAFE_TEST_PCH_CXX;
  if (!Pch.empty() && llvm::sys::fs::exists(Pch)) {
    std::vector<std::string> WithPch = Args;
    WithPch.insert(WithPch.end(), {"-include-pch", Pch});
    static IgnoringDiagConsumer Quiet; // the AST keeps a pointer to it
    AST = tooling::buildASTFromCodeWithArgs(
        Code, WithPch, "input.cpp", "clang-tool",
        std::make_shared<PCHContainerOperations>(),
        tooling::getClangStripDependencyFileAdjuster(),
        tooling::FileContentMappings(), &Quiet);
    if (AST && AST->getDiagnostics().hasErrorOccurred())
      AST.reset();
  }
  if (!AST)
    AST = tooling::buildASTFromCodeWithArgs(Code, Args, "input.cpp");
  if (AST && AST->getDiagnostics().hasErrorOccurred())
    AST.reset();
  return AST;
}

llvm::StringMap<const FunctionDecl *> mainFileFunctions(ASTUnit &AST) {
  // Top-level definitions of the main file: no need to walk ATen.
  llvm::StringMap<const FunctionDecl *> Functions;
  for (Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->doesThisDeclarationHaveABody() &&
          AST.getSourceManager().isInMainFile(FD->getLocation()))
        Functions[FD->getName()] = FD;
  return Functions;
}

unsigned lineOf(llvm::StringRef Code, llvm::StringRef Marker) {
  std::string Tag = ("// @" + Marker).str();
  size_t At = Code.find(Tag);
  EXPECT_NE(At, llvm::StringRef::npos) << Marker.str();
  // The tag must end there ("@a" is not "@ab").
  char Next = At + Tag.size() < Code.size() ? Code[At + Tag.size()] : '\n';
  EXPECT_TRUE(!isalnum(static_cast<unsigned char>(Next)) && Next != '-')
      << Marker.str();
  return 1 + Code.take_front(At).count('\n');
}

} // namespace streamsafe::test
