//===--- StreamParameters.h - Parameters CUDA work runs on -----*- C++ -*-===//
//
// Which cudaStream_t parameters of the project's functions are the stream
// their CUDA work runs on, as the caller passed it: a summary per function,
// computed once per translation unit, so that a call passing the legacy
// default stream (or leaving such a parameter to a null default) is judged
// at the call, like a runtime call's stream argument.
//
// A member of a method's object, read through `this`, is summarised the same
// way (a handler's `stream_`).
//
// A parameter is summarised when the function (its lambdas included)
// launches a kernel, calls a stream-ordered runtime, cub or thrust function
// on it, or passes it on to a function whose summary has it; and never
// changes it nor tests it (`if (!stream)`, `stream == nullptr`): a function
// that tests its stream may read null as "the current stream", and is not
// judged.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_STREAMPARAMETERS_H
#define STREAMSAFE_LIB_FRONTEND_STREAMPARAMETERS_H

#include "lib/frontend/ApiTable.h"
#include "lib/ir/Findings.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <vector>

namespace clang {
class FieldDecl;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

/// One function on the way from a call to the work: its parameter, and
/// where it passes that parameter on (Work: where it issues the work).
struct StreamParameterStep {
  const clang::FunctionDecl *Function = nullptr;
  llvm::StringRef Param;
  clang::SourceLocation At;
  /// The function the parameter is passed on to; null at the last step.
  const clang::FunctionDecl *PassedTo = nullptr;
  /// At the last step: the work (KernelLaunch, or StreamApi and its name).
  WorkKind Work = WorkKind::StreamApi;
  llvm::StringRef Api;
};

/// A parameter of a function that its CUDA work runs on, and the steps from
/// the function to the work (the first step is the function's own).
struct StreamParameterUse {
  unsigned Index = 0;
  std::vector<StreamParameterStep> Steps;
};

/// A member of a method's object (read through `this`) that the method's
/// CUDA work runs on, likewise.
struct StreamMemberUse {
  const clang::FieldDecl *Member = nullptr;
  std::vector<StreamParameterStep> Steps;
};

/// What one function's work runs on, as given.
struct StreamSummary {
  std::vector<StreamParameterUse> Params;
  std::vector<StreamMemberUse> Members;
};

class StreamParameters {
public:
  explicit StreamParameters(ApiTable &Table) : Table(Table) {}

  /// The parameter \p Index of \p Callee's definition, if its CUDA work runs
  /// on it; null otherwise (no definition, a system header's function,
  /// device code, a parameter that is changed or tested, a forwarding
  /// deeper than bounds::MaxStreamForwarding).
  const StreamParameterUse *use(const clang::FunctionDecl &Callee,
                                unsigned Index);

  /// The members of \p Method's object its CUDA work runs on (a member
  /// the method changes or tests is not one).
  llvm::ArrayRef<StreamMemberUse> members(const clang::FunctionDecl &Method);

private:
  const StreamSummary &of(const clang::FunctionDecl &FD, unsigned Depth);
  StreamSummary compute(const clang::FunctionDecl &FD, unsigned Depth);

  ApiTable &Table;
  /// Stable addresses: callers keep references while later summaries are
  /// added.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<StreamSummary>>
      Memo;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_STREAMPARAMETERS_H
