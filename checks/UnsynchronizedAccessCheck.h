//===--- UnsynchronizedAccessCheck.h - streamsafe-unsynchronized-access ---===//

#ifndef STREAMSAFE_CHECKS_UNSYNCHRONIZEDACCESSCHECK_H
#define STREAMSAFE_CHECKS_UNSYNCHRONIZEDACCESSCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds a tensor accessed on one stream while a conflicting access on
/// another stream is not ordered before it.
///
/// For the user-facing documentation see:
/// docs/checks/unsynchronized-access.md
class UnsynchronizedAccessCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_UNSYNCHRONIZEDACCESSCHECK_H
