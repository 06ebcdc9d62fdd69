//===--- HostReadBeforeSyncCheck.h - streamsafe-host-read-before-sync ---*- C++
//-*-===//

#ifndef STREAMSAFE_CHECKS_HOSTREADBEFORESYNCCHECK_H
#define STREAMSAFE_CHECKS_HOSTREADBEFORESYNCCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds host code touching memory that a non_blocking copy may still be
/// using.
///
/// For the user-facing documentation see:
/// docs/checks/host-read-before-sync.md
class HostReadBeforeSyncCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_HOSTREADBEFORESYNCCHECK_H
