//===--- ApiTableTest.cpp - lib/frontend/ApiTable -------------------------===//
//
// The one table of stream APIs, matched against declarations by fully
// qualified name: LibTorch's and the CUDA runtime's spellings reach their
// rows, a user's look-alikes in another namespace reach none, the user's
// configuration comes first, and lookups are cached per declaration.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/ApiTable.h"
#include "LibTorchAST.h"
#include "lib/frontend/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <gtest/gtest.h>
#include <map>

using namespace clang;
using namespace streamsafe;

namespace {

const char *const Code = R"cpp(#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <memory>
#include <optional>
#include <torch/cuda.h>

namespace mylib {
struct Stream {
  void synchronize();
};
struct Tensor {
  Tensor add_(int);
};
Stream getCurrentCUDAStream();
void recordStream(Tensor, Stream);
} // namespace mylib

void calls(mylib::Stream s, mylib::Tensor t, c10::cuda::CUDAStream cs,
           at::Tensor x, cudaStream_t raw, void *d,
           std::shared_ptr<at::Tensor> sp, std::shared_ptr<int> si,
           at::Tensor *tp, std::optional<at::Tensor> opt) {
  mylib::getCurrentCUDAStream(); // @user-getter
  s.synchronize(); // @user-sync
  t.add_(1); // @user-inplace
  mylib::recordStream(t, s); // @user-record
  cs.synchronize(); // @stream-sync
  at::cuda::getCurrentCUDAStream(); // @at-getter
  c10::cuda::getCurrentCUDAStream(); // @c10-getter
  x.add_(1); // @tensor-inplace
  x.sizes(); // @tensor-metadata
  x.mm(x); // @tensor-op
  at::empty({1}); // @aten-factory
  at::relu_(x); // @aten-inplace
  torch::cuda::synchronize(); // @device-sync
  cudaMemcpyAsync(d, d, 4, cudaMemcpyDeviceToDevice, raw); // @memcpy-async
  cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice); // @memcpy-sync
}

void user_look_alikes_only(mylib::Stream s, mylib::Tensor t) {
  s.synchronize();
  mylib::getCurrentCUDAStream();
  t.add_(1);
}
)cpp";

class ApiTableTest : public test::ParsedSuite<ApiTableTest> {
public:
  static const char *code() { return Code; }

protected:
  /// The callee of the outermost call on each marked line of calls().
  static const FunctionDecl *callee(llvm::StringRef Marker) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceManager *SM = nullptr;
      unsigned Line = 0;
      const FunctionDecl *Found = nullptr;
      bool VisitCallExpr(CallExpr *CE) {
        if (!Found && SM->getPresumedLineNumber(CE->getBeginLoc()) == Line)
          Found = CE->getDirectCallee();
        return true;
      }
    } F;
    F.SM = &AST->getSourceManager();
    F.Line = test::lineOf(Code, Marker);
    F.TraverseStmt(Functions["calls"]->getBody());
    EXPECT_TRUE(F.Found) << Marker.str();
    return F.Found;
  }
  static QualType paramType(unsigned I) {
    return Functions["calls"]->getParamDecl(I)->getType();
  }
};

TEST_F(ApiTableTest, TypesAreMatchedByQualifiedName) {
  ApiConfig Config;
  ApiTable Table(Config);
  EXPECT_EQ(Table.classify(paramType(0)), ValueClass::None) << "mylib::Stream";
  EXPECT_EQ(Table.classify(paramType(1)), ValueClass::None) << "mylib::Tensor";
  EXPECT_EQ(Table.classify(paramType(2)), ValueClass::Stream);
  EXPECT_EQ(Table.classify(paramType(3)), ValueClass::Tensor);
  EXPECT_EQ(Table.classify(paramType(4)), ValueClass::RawStream);
  EXPECT_EQ(Table.classify(paramType(5)), ValueClass::None);
}

TEST_F(ApiTableTest, WhatHoldsATensorIsFollowedAsTheTensor) {
  ApiConfig Config;
  ApiTable Table(Config);
  EXPECT_EQ(Table.classify(paramType(6)), ValueClass::Tensor) << "shared_ptr";
  EXPECT_EQ(Table.classify(paramType(7)), ValueClass::None) << "of int";
  EXPECT_EQ(Table.classify(paramType(8)), ValueClass::Tensor) << "Tensor *";
  EXPECT_EQ(Table.classify(paramType(9)), ValueClass::Tensor) << "optional";
}

TEST_F(ApiTableTest, CallsReachTheirRows) {
  ApiConfig Config;
  ApiTable Table(Config);
  auto Effect = [&](llvm::StringRef Marker) {
    return Table.lookup(callee(Marker)).Effect;
  };
  EXPECT_EQ(Effect("user-getter"), ApiEffect::None);
  EXPECT_EQ(Effect("user-sync"), ApiEffect::None);
  EXPECT_EQ(Effect("user-inplace"), ApiEffect::None);
  EXPECT_EQ(Effect("stream-sync"), ApiEffect::StreamSynchronize);
  EXPECT_EQ(Effect("at-getter"), ApiEffect::CurrentStream);
  EXPECT_EQ(Effect("c10-getter"), ApiEffect::CurrentStream);
  EXPECT_EQ(Effect("tensor-inplace"), ApiEffect::TensorInPlace);
  EXPECT_EQ(Effect("tensor-metadata"), ApiEffect::TensorMetadata);
  EXPECT_EQ(Effect("tensor-op"), ApiEffect::TensorOp);
  EXPECT_EQ(Effect("aten-factory"), ApiEffect::AtenFactory);
  EXPECT_EQ(Effect("aten-inplace"), ApiEffect::AtenInPlace);
  EXPECT_EQ(Effect("device-sync"), ApiEffect::DeviceSynchronize);
  EXPECT_EQ(Effect("memcpy-sync"), ApiEffect::MemcpySync);
}

TEST_F(ApiTableTest, RowsSayWhereTheOperandsAre) {
  ApiConfig Config;
  ApiTable Table(Config);
  const ApiEntry &Copy = Table.lookup(callee("memcpy-async"));
  EXPECT_EQ(Copy.Effect, ApiEffect::MemcpyAsync);
  EXPECT_EQ(Copy.Dest, 0);
  EXPECT_EQ(Copy.Source, 1);
  EXPECT_EQ(Copy.Size, 2);
  EXPECT_EQ(Copy.Direction, 3);
  EXPECT_EQ(Copy.Stream, 4);
  const ApiEntry &Sync = Table.lookup(callee("memcpy-sync"));
  EXPECT_EQ(Sync.Stream, -1) << "the legacy stream";
  EXPECT_STREQ(Sync.AsyncAlternative, "cudaMemcpyAsync");
}

TEST_F(ApiTableTest, LookupsAreCachedPerDeclaration) {
  ApiConfig Config;
  ApiTable Table(Config);
  const FunctionDecl *FD = callee("stream-sync");
  EXPECT_EQ(&Table.lookup(FD), &Table.lookup(FD));
  EXPECT_EQ(Table.lookup(nullptr).Effect, ApiEffect::None);
}

TEST_F(ApiTableTest, TheUsersConfigurationComesFirst) {
  ApiConfig Config;
  ApiConfig::parseList("mylib::getCurrentCUDAStream",
                       Config.CurrentStreamGetters);
  ApiConfig::parseList("mylib::recordStream", Config.RecordStreamFunctions);
  ApiConfig::parseList("mylib::Stream", Config.EventClasses);
  ApiTable Table(Config);
  EXPECT_EQ(Table.lookup(callee("user-getter")).Effect,
            ApiEffect::ConfiguredCurrentStream);
  EXPECT_EQ(Table.lookup(callee("user-record")).Effect,
            ApiEffect::ConfiguredRecordStream);
  EXPECT_EQ(Table.classify(paramType(0)), ValueClass::Event);
  EXPECT_EQ(Table.lookup(callee("user-sync")).Effect,
            ApiEffect::ConfiguredEventOther)
      << "a method of an event class not listed as record, wait or sync";
}

TEST_F(ApiTableTest, LookAlikesDoNotMakeAFunctionWorthAnalysing) {
  ApiConfig Config;
  ApiTable Table(Config);
  EXPECT_FALSE(mentionsStreamApis(*Functions["user_look_alikes_only"], Table));
  EXPECT_TRUE(mentionsStreamApis(*Functions["calls"], Table));
}

} // namespace
