//===--- UnrestoredCurrentStreamCheck.h - streamsafe-unrestored-current-stream
//---*- C++ -*-===//

#ifndef STREAMSAFE_CHECKS_UNRESTOREDCURRENTSTREAMCHECK_H
#define STREAMSAFE_CHECKS_UNRESTOREDCURRENTSTREAMCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds setCurrentCUDAStream calls that a path to the function's exit does
/// not undo.
///
/// For the user-facing documentation see:
/// docs/checks/unrestored-current-stream.md
class UnrestoredCurrentStreamCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_UNRESTOREDCURRENTSTREAMCHECK_H
