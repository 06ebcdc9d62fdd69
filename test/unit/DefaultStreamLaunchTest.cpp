//===--- DefaultStreamLaunchTest.cpp - lib/DefaultStreamLaunch ------------===//
//
// Parses small snippets against the real CUDA runtime header and asks the
// analysis what it finds; the lit tests cover the full check on LibTorch.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/DefaultStreamLaunch.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace streamsafe;

namespace {

std::unique_ptr<ASTUnit> parse(StringRef Code) {
  std::vector<std::string> Args = {
      "-std=c++17", "-isystem", STREAMSAFE_TEST_CUDA_INCLUDE,
      "-resource-dir=" STREAMSAFE_TEST_RESOURCE_DIR};
  return tooling::buildASTFromCodeWithArgs(Code, Args, "input.cpp");
}

const FunctionDecl *definition(ASTUnit &AST, StringRef Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     AST.getASTContext());
  return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
}

TEST(CurrentStreamScope, IsLibTorchOrAGetterOfItsOwn) {
  EXPECT_FALSE(followsCurrentStream(parse("void f();")->getASTContext()));
  EXPECT_TRUE(followsCurrentStream(parse("namespace c10 {}")->getASTContext()));
  EXPECT_TRUE(followsCurrentStream(parse("namespace at {}")->getASTContext()));
  EXPECT_FALSE(followsCurrentStream(
      parse("namespace mylib { namespace at {} }")->getASTContext()));
  // DGL's core library: its own getter, no LibTorch.
  EXPECT_TRUE(followsCurrentStream(
      parse("namespace dgl { namespace runtime { struct CUstream_st; "
            "CUstream_st *getCurrentCUDAStream(); } }")
          ->getASTContext()));
}

TEST(DefaultStreamWork, FindsSynchronousCopiesAndNullStreams) {
  auto AST = parse(R"cpp(
    #include <cuda_runtime_api.h>
    void f(void *d, const void *s, cudaStream_t param) {
      cudaMemcpy(d, s, 4, cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(d, s, 4, cudaMemcpyDeviceToDevice, param);
      cudaMemcpyAsync(d, s, 4, cudaMemcpyDeviceToDevice, 0);
    })cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = definition(*AST, "f");
  ASSERT_TRUE(F);
  ApiConfig Config;
  ApiTable Table(Config);
  UnitSummaries Unit(AST->getASTContext(), Table);
  std::vector<DefaultStreamWork> Work =
      findDefaultStreamWork(*F, AST->getASTContext(), Table, Unit);
  ASSERT_EQ(Work.size(), 2u);
  EXPECT_EQ(Work[0].Kind, WorkKind::SyncCopy);
  EXPECT_EQ(Work[0].AsyncApi, "cudaMemcpyAsync");
  EXPECT_EQ(Work[1].Kind, WorkKind::StreamApi);
  EXPECT_EQ(Work[1].Api, "cudaMemcpyAsync");
  EXPECT_EQ(Work[1].Stream.Origin, StreamOrigin::Null);
  // at::cuda::getCurrentCUDAStream is not declared: no fix-it.
  EXPECT_EQ(Work[1].Fix.K, StreamFix::None);
}

} // namespace
