//===--- DefaultStreamScan.h - Launches and stream arguments ----*- C++ -*-===//
//
// What default-stream-launch reads off one function body: its launches,
// runtime, library and thrust calls, the local variables that never change
// after their initialisation, and which stream an argument names (the
// legacy one, the current one, ...). DefaultStreamLaunch.cpp judges them.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMSCAN_H
#define STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMSCAN_H

#include "lib/frontend/ApiTable.h"
#include "lib/frontend/DefaultStreamLaunch.h"
#include "lib/frontend/LoadTimeStreams.h"
#include "lib/frontend/StreamOperands.h"
#include "lib/frontend/ThrustPolicies.h"
#include "lib/frontend/VariableChanges.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <optional>
#include <vector>

namespace streamsafe {

/// The CUDA runtime calls we judge, from the API table: work issued on a
/// stream argument, and the synchronous copies and sets that have none and
/// always run on the legacy default stream.
std::optional<WorkKind> workKind(ApiEffect E);

/// A function of cub, also wrapped in a project's namespace
/// (THRUST_CUB_WRAPPED_NAMESPACE: `dgl::cub::DeviceScan`).
bool isCubFunction(const clang::FunctionDecl *FD);

/// The first call of cub's pair, the size query: its d_temp_storage is
/// null, so it does no work. \p ParameterMayBeNull: a parameter of the
/// function the call is in may be null too (the caller decides), as in a
/// project's `getStorageBytes(void *temp, ..., cudaStream_t stream)`.
bool isCubSizeQuery(const clang::CallExpr &Call, bool ParameterMayBeNull);

/// A CUDA runtime function: declared at global scope, extern "C" or in a
/// system header (cuda_runtime.h's templates).
bool isRuntimeFunction(const clang::FunctionDecl *FD);

/// The spelled expression behind implicit conversions, copies and accessors.
const clang::Expr *streamExprAsWritten(const clang::Expr *E, ApiTable &Table);

/// A function of a library or of the project (not the CUDA runtime's C API,
/// not LibTorch's) whose stream parameters are judged like the runtime's:
/// cub::DeviceScan::InclusiveSum(..., stream).
bool isStreamTakingLibraryCall(const clang::FunctionDecl *FD, ApiTable &Table);

/// The stream \p E names by its spelling alone (as written, through
/// conversions and accessors): a literal (Null, Legacy, PerThread) or a
/// getter's call (DefaultGetter, Current); Unknown otherwise.
StreamOrigin spelledOrigin(const clang::Expr *E, ApiTable &Table);

/// A function of the project (or of a library that is not the CUDA
/// runtime's, LibTorch's, std's or thrust's): one whose body is judged.
bool isProjectFunction(const clang::FunctionDecl *FD, ApiTable &Table);

/// The index of a runtime call's stream argument from its row, when the
/// declaration agrees that it is a cudaStream_t (runtime headers of other
/// CUDA versions may differ).
std::optional<unsigned> runtimeStreamIndex(const clang::FunctionDecl &FD,
                                           const ApiEntry &Api,
                                           ApiTable &Table);

/// Device code: a `__global__` or `__device__` (not `__host__`) function,
/// or a lambda or local class inside one.
bool isDeviceOnlyCode(const clang::FunctionDecl &FD);

/// The scan's classes; clang's names are spelled bare only in here.
namespace scan {
using namespace clang;

// One pass over a function body. It collects the launches and runtime calls
// of the body itself (nested lambdas and local classes are functions of their
// own, analysed when the matcher reaches them; WithLambdas: a lambda's work
// counts as the body's, for summaries) and the local variables, and
// tells which local variables may change after their initialization (also
// inside nested lambdas) and which are tested (compared, or converted to
// bool).
class BodyScan : public VariableChanges<BodyScan> {
  using Base = VariableChanges<BodyScan>;

public:
  enum Lambdas { OwnBodyOnly, WithLambdas };
  explicit BodyScan(ApiTable &Table, Lambdas L = OwnBodyOnly)
      : Table(Table), IncludeLambdas(L == WithLambdas) {}

  std::vector<const CUDAKernelCallExpr *> Launches;
  std::vector<const CallExpr *> Calls;
  std::vector<const CallExpr *> LibraryCalls;
  std::vector<const CallExpr *> ThrustCalls;
  /// Calls of the project's methods (judged by their stream members).
  std::vector<const CXXMemberCallExpr *> MemberCalls;
  std::vector<const VarDecl *> Locals;
  /// The body's if statements with an else (two paths apart).
  std::vector<const IfStmt *> Branches;

  /// Variables and members (read through `this`) compared or converted to
  /// bool.
  llvm::SmallPtrSet<const ValueDecl *, 4> Tested;
  /// Members of `this` assigned or whose address is taken.
  llvm::SmallPtrSet<const FieldDecl *, 4> AssignedFields;

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (IncludeLambdas)
      return Base::TraverseLambdaExpr(L);
    return nested([&] { return Base::TraverseLambdaExpr(L); });
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *D) {
    return nested([&] { return Base::TraverseCXXRecordDecl(D); });
  }
  bool TraverseBlockExpr(BlockExpr *B) {
    return nested([&] { return Base::TraverseBlockExpr(B); });
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Nested)
      return true;
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(C))
      Launches.push_back(Launch);
    else if (isRuntimeFunction(C->getDirectCallee()) &&
             workKind(Table.lookup(C->getDirectCallee()).Effect))
      Calls.push_back(C);
    else if (isThrustAlgorithm(C->getDirectCallee()))
      ThrustCalls.push_back(C);
    else if (isStreamTakingLibraryCall(C->getDirectCallee(), Table))
      LibraryCalls.push_back(C);
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
        M && isProjectFunction(M->getMethodDecl(), Table))
      MemberCalls.push_back(M);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_PointerToBoolean)
      noteTested(C->getSubExpr());
    return Base::VisitImplicitCastExpr(C);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isEqualityOp() || B->isRelationalOp()) {
      noteTested(B->getLHS());
      noteTested(B->getRHS());
    }
    if (B->isAssignmentOp())
      noteAssigned(B->getLHS());
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    if (!Nested && S->getElse())
      Branches.push_back(S);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      noteAssigned(U->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!Nested && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit())
      Locals.push_back(V);
    return true;
  }

  void finish() { finishChanges(); }

private:
  void noteTested(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        Tested.insert(V);
    if (const FieldDecl *F = thisMember(E))
      Tested.insert(F);
  }
  void noteAssigned(const Expr *E) {
    if (const FieldDecl *F = thisMember(E->IgnoreParenImpCasts()))
      AssignedFields.insert(F);
  }

public:
  /// The member \p E reads from `this` (`stream_`, `this->stream_`).
  static const FieldDecl *thisMember(const Expr *E) {
    const auto *M = dyn_cast<MemberExpr>(E);
    if (!M || !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      return nullptr;
    return dyn_cast<FieldDecl>(M->getMemberDecl());
  }

private:
  template <typename F> bool nested(F Traverse) {
    ++Nested;
    bool Continue = Traverse();
    --Nested;
    return Continue;
  }

  ApiTable &Table;
  bool IncludeLambdas;
  unsigned Nested = 0;
};

// Classifies stream arguments within one function body.
class StreamClassifier {
public:
  StreamClassifier(const FunctionDecl &FD, const BodyScan &Scan,
                   ApiTable &Table, LoadTimeStreams *LoadTime = nullptr)
      : FD(FD), Scan(Scan), Table(Table), LoadTime(LoadTime) {}

  StreamSource classify(const Expr *E, unsigned Depth = 0) {
    if (!E || isa<CXXDefaultArgExpr>(E))
      return {StreamOrigin::Omitted, nullptr};
    if (E->isTypeDependent() || E->isValueDependent() || Depth > 4)
      return {};
    E = streamExprAsWritten(E, Table);
    if (StreamOrigin O = spelledOrigin(E, Table); O != StreamOrigin::Unknown)
      return {O, nullptr};
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        return classifyVariable(*V, Depth);
    return {};
  }

  // A local variable stands for its initializer if nothing in the function
  // may change it (assignment, non-const reference, address taken, ...).
  const Expr *initializerIfUnchanged(const VarDecl &V) {
    if (!V.hasLocalStorage() || isa<ParmVarDecl>(V) || !V.getInit() ||
        isMutated(V))
      return nullptr;
    return V.getInit();
  }

  StreamSource classifyVariable(const VarDecl &V, unsigned Depth) {
    if (LoadTime && !V.hasLocalStorage() && LoadTime->holdsLoadTimeStream(V))
      return {StreamOrigin::LoadTime, &V};
    const Expr *Init = initializerIfUnchanged(V);
    if (!Init)
      return {};
    StreamSource S = classify(Init, Depth + 1);
    if (S.Origin == StreamOrigin::Unknown)
      return {};
    return {S.Origin, &V};
  }

private:
  bool isMutated(const VarDecl &V) {
    return (V.getType()->isReferenceType() &&
            !V.getType().getNonReferenceType().isConstQualified()) ||
           scanOf(V).mayChange(V);
  }

  // A variable a lambda captures is changed, or not, in the function that
  // declares it (whose scan sees nested lambdas too).
  const BodyScan &scanOf(const VarDecl &V) {
    const auto *Owner =
        dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
    if (!Owner || Owner == &FD || !Owner->getBody())
      return Scan;
    std::unique_ptr<BodyScan> &S = OwnerScans[Owner];
    if (!S) {
      S = std::make_unique<BodyScan>(Table);
      S->TraverseStmt(Owner->getBody());
      S->finish();
    }
    return *S;
  }

  const FunctionDecl &FD;
  const BodyScan &Scan;
  ApiTable &Table;
  LoadTimeStreams *LoadTime;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<BodyScan>> OwnerScans;
};

} // namespace scan
} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMSCAN_H
