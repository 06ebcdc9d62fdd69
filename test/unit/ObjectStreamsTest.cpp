//===--- ObjectStreamsTest.cpp - Members and statics of fresh streams -----===//
//
// lib/frontend/ObjectStreams.h on code parsed against the real LibTorch
// headers: which stream members and statics the unit only ever gives fresh
// streams, and which stream parameters some call passes the current stream.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/ObjectStreams.h"
#include "LibTorchAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace streamsafe;

namespace {

const char *const Code = R"cpp(#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

class Pool {
public:
  Pool() : s_(c10::cuda::getStreamFromPool()) {}
  c10::cuda::CUDAStream s_;
};
class Created {
public:
  Created() { cudaStreamCreate(&s_); }
  cudaStream_t s_;
};
class Placeholder {
public:
  Placeholder() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  cudaStream_t s_ = nullptr;
};
class Lazy {
public:
  void make() {
    if (!s_)
      cudaStreamCreate(&s_);
  }
  cudaStream_t s_ = nullptr;
};
class Setter {
public:
  Setter() : s_(c10::cuda::getStreamFromPool()) {}
  void set(c10::cuda::CUDAStream s) { s_ = s; }
  c10::cuda::CUDAStream s_;
};
class Reads {
public:
  Reads() : s_(c10::cuda::getStreamFromPool()) {}
  c10::cuda::CUDAStream get() const { return s_; }
  const c10::cuda::CUDAStream &ref() const { return s_; }
  bool same(const c10::cuda::CUDAStream &o) { return s_ == o; }
  cudaStream_t raw() { return s_.stream(); }
  c10::cuda::CUDAStream s_;
};
class Copies {
public:
  Copies() : s_(c10::cuda::getStreamFromPool()) {}
  Copies(const Copies &o) : s_(o.s_) {}
  Copies &operator=(const Copies &o) {
    s_ = o.s_;
    return *this;
  }
  c10::cuda::CUDAStream s_;
};
class Escapes {
public:
  Escapes() : s_(c10::cuda::getStreamFromPool()) {}
  c10::cuda::CUDAStream &get() { return s_; }
  c10::cuda::CUDAStream s_;
};
class Current {
public:
  Current() : s_(c10::cuda::getCurrentCUDAStream()) {}
  c10::cuda::CUDAStream s_;
};

void fresh_static() { static auto g = c10::cuda::getStreamFromPool(); (void)g; }
void current_static() {
  static auto g = c10::cuda::getCurrentCUDAStream();
  (void)g;
}

void side(c10::cuda::CUDAStream s) { (void)s; }
void other_side(c10::cuda::CUDAStream s) { (void)s; }
void callers() {
  side(c10::cuda::getCurrentCUDAStream());
  other_side(c10::cuda::getStreamFromPool());
}
)cpp";

class ObjectStreamsTest : public test::ParsedSuite<ObjectStreamsTest> {
public:
  static const char *code() { return Code; }

protected:
  static const FieldDecl *member(llvm::StringRef Class) {
    for (Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(D);
          RD && RD->isThisDeclarationADefinition() && RD->getName() == Class)
        return *RD->field_begin();
    ADD_FAILURE() << "no class " << Class.str();
    return nullptr;
  }
  static const VarDecl *firstLocal(llvm::StringRef Function) {
    const auto *Body = cast<CompoundStmt>(Functions[Function]->getBody());
    return cast<VarDecl>(cast<DeclStmt>(Body->body_front())->getSingleDecl());
  }
  StreamProof proof(const ValueDecl *D) { return Held.held(D).Proof; }

  ApiConfig Config;
  ApiTable Table{Config};
  ObjectStreams Held{AST->getASTContext(), Table};
};

TEST_F(ObjectStreamsTest, MembersGivenOnlyFreshStreams) {
  EXPECT_EQ(proof(member("Pool")), StreamProof::Member);
  EXPECT_EQ(proof(member("Created")), StreamProof::Member);
  EXPECT_EQ(proof(member("Placeholder")), StreamProof::Member)
      << "every constructor creates it";
  EXPECT_EQ(proof(member("Reads")), StreamProof::Member)
      << "const uses and copies only read it";
  EXPECT_EQ(proof(member("Copies")), StreamProof::Member)
      << "another object's same member holds fresh streams too";
  HeldStream H = Held.held(member("Pool"));
  ASSERT_TRUE(H.At);
  EXPECT_EQ(AST->getSourceManager().getPresumedLineNumber(H.At->getBeginLoc()),
            6u)
      << "the creation in the initializer list";
}

TEST_F(ObjectStreamsTest, MembersThatMayHoldAnyStream) {
  EXPECT_EQ(proof(member("Lazy")), StreamProof::None)
      << "null until a method creates it";
  EXPECT_EQ(proof(member("Setter")), StreamProof::None);
  EXPECT_EQ(proof(member("Escapes")), StreamProof::None);
  EXPECT_EQ(proof(member("Current")), StreamProof::None);
}

TEST_F(ObjectStreamsTest, StaticsInitialisedWithAFreshStream) {
  EXPECT_EQ(proof(firstLocal("fresh_static")), StreamProof::Global);
  EXPECT_EQ(proof(firstLocal("current_static")), StreamProof::None);
}

TEST_F(ObjectStreamsTest, ParametersACallGivesTheCurrentStream) {
  EXPECT_TRUE(Held.givenCurrentStream(Functions["side"]->getParamDecl(0)));
  EXPECT_FALSE(
      Held.givenCurrentStream(Functions["other_side"]->getParamDecl(0)));
}

} // namespace
