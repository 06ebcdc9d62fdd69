//===--- ThrustPolicies.h - Which stream a thrust algorithm runs on -*- C++
//-*-===//
//
// thrust's CUDA algorithms run on the stream of their execution policy:
// `thrust::cuda::par.on(s)` runs on s; `thrust::device`, `thrust::cuda::par`
// and `thrust::cuda::par_nosync` without `.on(s)`, and a call given no policy
// whose iterators live on the device, run on thrust's default stream (the
// legacy one). Used by streamsafe-default-stream-launch; knows the AST only.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_THRUSTPOLICIES_H
#define STREAMSAFE_LIB_FRONTEND_THRUSTPOLICIES_H

#include "lib/ir/Findings.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamsafe {

/// A call of a thrust algorithm that runs on CUDA, as far as syntax shows.
struct ThrustWork {
  /// Without a stream: thrust's default stream. None when OnStream is set.
  ThrustPolicy Policy = ThrustPolicy::None;
  /// The argument of `.on(stream)`: the algorithm runs on that stream.
  const clang::Expr *OnStream = nullptr;
  /// The local variable the policy was read from (its initializer decided).
  const clang::VarDecl *Via = nullptr;
};

/// True for a free function of namespace thrust that is an algorithm: it,
/// or an overload of the same name, takes an execution policy first.
/// Helpers such as raw_pointer_cast or make_zip_iterator have no such
/// overload.
bool isThrustAlgorithm(const clang::FunctionDecl *FD);

/// Which stream the thrust algorithm \p Call runs on: a policy without a
/// stream, the argument of `.on(...)`, or nothing (a host policy, a policy
/// the function does not show, host iterators). \p InitializerIfUnchanged
/// gives a local variable's initializer when nothing in the function may
/// change the variable, else null.
ThrustWork
thrustWork(const clang::CallExpr &Call,
           llvm::function_ref<const clang::Expr *(const clang::VarDecl &)>
               InitializerIfUnchanged);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_THRUSTPOLICIES_H
