//===--- DefaultStreamLaunch.h - CUDA work on a default stream -*- C++ -*-===//
//
// Finds CUDA work that a function issues on a default stream instead of
// PyTorch's current stream: kernel launches, stream-ordered runtime calls
// (cudaMemcpyAsync, ...) and synchronous copies and sets (cudaMemcpy, ...).
// DefaultStreamFindings.h turns them into shared findings, which
// lib/report words and the streamsafe-default-stream-launch check reports
// with their fix-its; this file knows the AST only, never clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMLAUNCH_H
#define STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMLAUNCH_H

#include "lib/frontend/ApiTable.h"
#include "lib/frontend/LoadTimeStreams.h"
#include "lib/frontend/StreamParameters.h"
#include "lib/frontend/ThrustPolicies.h"
#include "lib/frontend/UnsetStreamMembers.h"
#include "lib/ir/Findings.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamsafe {

/// A stream argument, classified. When it is read from a local variable,
/// Via is that variable and Origin is the origin of its initializer.
struct StreamSource {
  StreamOrigin Origin = StreamOrigin::Unknown;
  const clang::VarDecl *Via = nullptr;
};

/// The one fix that is certainly right for a finding, if any: make the work
/// run on at::cuda::getCurrentCUDAStream().
struct StreamFix {
  enum Kind {
    None,
    InsertStream,        ///< insert ", <stream>" at Loc
    InsertSmemAndStream, ///< insert ", 0, <stream>" at Loc (<<<g, b>>>)
    ReplaceArgument,     ///< replace Range (a literal null stream)
  } K = None;
  clang::SourceLocation Loc;
  clang::CharSourceRange Range;
};

/// One piece of CUDA work issued on a default stream.
struct DefaultStreamWork {
  WorkKind Kind;
  clang::SourceLocation Loc; ///< where it is spelled, or the use of the macro
  llvm::StringRef Api;       ///< runtime function name; empty for <<<>>>
  llvm::StringRef AsyncApi;  ///< for Sync*: the stream-ordered alternative
  StreamSource Stream;       ///< for Sync*: Origin is Omitted
  StreamFix Fix;
  /// A local variable of the same function, declared before the work, that
  /// holds PyTorch's current stream the work does not use.
  const clang::VarDecl *UnusedCurrentStream = nullptr;
  /// For Sync*: the call touches memory PyTorch's streams use (a tensor's
  /// storage, SyncCallMemory.h) or follows work the function issued on a
  /// stream that is not a default one. Raw buffers otherwise.
  bool OnStreamMemory = false;
  /// Work written in the body of a macro of the project (not of a system
  /// header): the body's location and the macro's name. Loc is then the
  /// macro's use.
  clang::SourceLocation MacroBody;
  llvm::StringRef MacroName;
  /// A thrust algorithm given a CUDA policy without a stream, or no policy
  /// and device iterators (then Stream is Omitted). A policy with
  /// `.on(stream)` is judged by its stream (then this is None).
  ThrustPolicy Policy = ThrustPolicy::None;
  /// The local variable the thrust policy was read from.
  const clang::VarDecl *PolicyVar = nullptr;
  /// A call of the project's function whose work runs on the stream
  /// parameter given a default stream: the steps from the callee to the
  /// work (StreamParameters.h). Empty for work issued here.
  std::vector<StreamParameterStep> Through;
  /// Through a parameter left to its default (Stream.Origin is Omitted):
  /// what the default is (Null, Legacy, ...).
  StreamOrigin DefaultArgument = StreamOrigin::Unknown;
  /// Through a member of the called method's object that nothing sets
  /// (UnsetStreamMembers.h): the member, its initialization, and a setter
  /// never called here (may be null). Stream.Origin is the initializer's.
  const clang::FieldDecl *Member = nullptr;
  clang::SourceLocation MemberInitializedAt;
  const clang::FunctionDecl *UncalledSetter = nullptr;
};

/// What default-stream-launch knows of the translation unit's functions,
/// computed once per unit.
struct UnitSummaries {
  UnitSummaries(clang::ASTContext &Ctx, ApiTable &Table)
      : Params(Table), Members(Ctx, Table), LoadTime(Ctx, Table) {}
  StreamParameters Params;
  UnsetStreamMembers Members;
  LoadTimeStreams LoadTime;
};

/// True when the translation unit's work should follow a current stream: it
/// uses LibTorch (it declares namespace `c10` or `at` at global scope, as
/// every ATen, c10 and torch header does), or it names a getter of the
/// current stream of its own, `getCurrentCUDAStream` (DGL's
/// `runtime::getCurrentCUDAStream()`, which hands out PyTorch's).
bool followsCurrentStream(const clang::ASTContext &Ctx);

/// True when `at::cuda::getCurrentCUDAStream` names a function declared
/// before \p Loc, so a fix-it may spell it.
bool currentStreamSpellable(const clang::ASTContext &Ctx,
                            clang::SourceLocation Loc);

/// The work in \p FD's body (not in nested lambdas or local classes, which
/// are functions of their own) that runs on a default stream, in source
/// order. Host code only: device functions yield nothing. Work spelled in
/// the body of a macro from a system header is skipped; work in a macro
/// argument, or in the body of the project's own macro, is kept. A stream that
/// depends on a template parameter is not judged. A call of the project's
/// function is judged by the summary of its stream parameters and members
/// (\p Unit, one per translation unit).
std::vector<DefaultStreamWork>
findDefaultStreamWork(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                      ApiTable &Table, UnitSummaries &Unit);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMLAUNCH_H
