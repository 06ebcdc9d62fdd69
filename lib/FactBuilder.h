//===--- FactBuilder.h - Lowers CFG elements to stream facts -----*- C++
//-*-===//

#ifndef STREAMSAFE_LIB_FACTBUILDER_H
#define STREAMSAFE_LIB_FACTBUILDER_H

#include "lib/Facts.h"
#include "clang/Analysis/CFG.h"

namespace clang {
class CallExpr;
class CXXMemberCallExpr;
class CUDAKernelCallExpr;
class Stmt;
} // namespace clang

namespace streamsafe {

/// Strips what does not change which value an expression denotes: parens,
/// implicit casts, temporaries, copies, std::move.
const clang::Expr *stripValue(const clang::Expr *E);

/// The tensor behind a raw pointer or DataPtr argument (t.data_ptr<T>(),
/// t.storage().data_ptr(), t.packed_accessor32<...>()), or null.
const clang::Expr *tensorBehindPointer(const clang::Expr *E);

/// True when the call binds a parameter named non_blocking to literal true.
bool nonBlocking(const clang::CallExpr *CE);

/// Lowers one CFG element to facts. Stateless apart from the site table.
struct ApiConfig;

/// The lambda a callable argument denotes (directly, through a variable or a
/// std::function), or null.
const clang::LambdaExpr *lambdaOf(const clang::Expr *E);

class FactBuilder {
public:
  FactBuilder(SiteTable &Sites, const ApiConfig &Config)
      : Sites(Sites), Config(Config) {}
  void lower(const clang::CFGElement &Elem, FactList &Out);

private:
  void lowerStmt(const clang::Stmt *S, FactList &Out);
  void lowerDecl(const clang::VarDecl *V, const clang::Stmt *DS, FactList &Out);
  void lowerCall(const clang::CallExpr *CE, FactList &Out);
  void lowerKernelLaunch(const clang::CUDAKernelCallExpr *KE, FactList &Out);
  bool lowerTensorMethod(const clang::CXXMemberCallExpr *MC, FactList &Out);
  bool lowerObjectMethod(const clang::CXXMemberCallExpr *MC, FactList &Out);
  bool lowerApiCall(const clang::CallExpr *CE, FactList &Out);
  void lowerAtenCall(const clang::CallExpr *CE, FactList &Out);
  void lowerUnknownCall(const clang::CallExpr *CE, FactList &Out);

  bool lowerConfiguredCall(const clang::CallExpr *CE, FactList &Out);
  void spawn(const clang::Stmt *At, llvm::ArrayRef<const clang::Expr *> Args,
             const clang::Expr *Executor, FactList &Out);
  void host(FactKind K, const clang::Expr *Tensor, FactList &Out);
  void access(FactKind K, const clang::Expr *Tensor, const clang::Expr *Stream,
              bool Legacy, FactList &Out, bool Async = false,
              const clang::Stmt *At = nullptr);
  void allocate(const clang::CallExpr *CE, bool Foreign, FactList &Out,
                bool Host = false, bool Async = false);
  Fact make(FactKind K, SiteKind SK, const clang::Stmt *At);

  SiteTable &Sites;
  const ApiConfig &Config;
};

/// Appends the tensor operands of \p E (a tensor, or a braced list or
/// TensorList of tensors) to \p Out.
void collectTensorOperands(const clang::Expr *E,
                           llvm::SmallVectorImpl<const clang::Expr *> &Out);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FACTBUILDER_H
