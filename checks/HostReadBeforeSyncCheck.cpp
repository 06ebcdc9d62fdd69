//===--- HostReadBeforeSyncCheck.cpp - streamsafe-host-read-before-sync ---===//

#include "checks/HostReadBeforeSyncCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void HostReadBeforeSyncCheck::report(const FunctionResult &R, const Finding &F,
                                     const FunctionDecl &, ASTContext &) {
  if (F.Kind != FindingKind::HostReadBeforeSync)
    return;
  bool Read = F.Access.Mode == AccessMode::Read;
  diag(R.loc(F.Access.Site),
       Read ? "the host reads tensor '%0' while a non_blocking copy into it on "
              "%1 may still be running; synchronize the stream or an event "
              "first"
            : "the host writes tensor '%0' while a non_blocking copy from it "
              "on %1 may still be reading it; synchronize the stream or an "
              "event first")
      << tensorName(R, F.Tensor) << describeStream(R, F.Prior.Stream);
  diag(R.loc(F.Prior.Site), "the non_blocking copy is enqueued on %0 here",
       DiagnosticIDs::Note)
      << describeStream(R, F.Prior.Stream);
  noteCallSite(R, F);
}

} // namespace clang::tidy::streamsafe
