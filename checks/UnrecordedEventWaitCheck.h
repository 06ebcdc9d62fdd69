//===--- UnrecordedEventWaitCheck.h - streamsafe-unrecorded-event-wait ---*- C++
//-*-===//

#ifndef STREAMSAFE_CHECKS_UNRECORDEDEVENTWAITCHECK_H
#define STREAMSAFE_CHECKS_UNRECORDEDEVENTWAITCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds waits on events that are not recorded on every path before them.
///
/// For the user-facing documentation see:
/// docs/checks/unrecorded-event-wait.md
class UnrecordedEventWaitCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_UNRECORDEDEVENTWAITCHECK_H
