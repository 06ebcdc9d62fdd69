//===--- GraphCaptureCheck.h - streamsafe-graph-capture ---------*- C++ -*-===//

#ifndef STREAMSAFE_CHECKS_GRAPHCAPTURECHECK_H
#define STREAMSAFE_CHECKS_GRAPHCAPTURECHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds code that breaks the rules of CUDA graph capture: a forked stream
/// not joined back, a synchronising or forbidden call while capturing, work
/// on a stream outside the capture or on the legacy default stream, and a
/// capture begun on the legacy default stream.
///
/// For the user-facing documentation see:
/// docs/checks/graph-capture.md
class GraphCaptureCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_GRAPHCAPTURECHECK_H
