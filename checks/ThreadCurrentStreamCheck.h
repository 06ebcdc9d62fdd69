//===--- ThreadCurrentStreamCheck.h - streamsafe-thread-current-stream ---*- C++
//-*-===//

#ifndef STREAMSAFE_CHECKS_THREADCURRENTSTREAMCHECK_H
#define STREAMSAFE_CHECKS_THREADCURRENTSTREAMCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds code in a thread body that relies on the spawning thread's current
/// stream, which the new thread does not inherit.
///
/// For the user-facing documentation see:
/// docs/checks/thread-current-stream.md
class ThreadCurrentStreamCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_THREADCURRENTSTREAMCHECK_H
