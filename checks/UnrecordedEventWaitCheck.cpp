//===--- UnrecordedEventWaitCheck.cpp - streamsafe-unrecorded-event-wait
//---===//

#include "checks/UnrecordedEventWaitCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnrecordedEventWaitCheck::report(const FunctionResult &R, const Finding &F,
                                      ASTContext &) {
  if (F.Kind != FindingKind::UnrecordedEventWait)
    return;
  if (F.Maybe)
    diag(R.Sites[F.Access.Site].Loc,
         "wait on event '%0', which is not recorded on every path to this "
         "point; on those paths the wait does nothing")
        << F.Tensor;
  else
    diag(R.Sites[F.Access.Site].Loc,
         "wait on event '%0', which is never recorded before this point; a "
         "wait on an unrecorded event does nothing")
        << F.Tensor;
  if (F.Related != NoSite)
    diag(R.Sites[F.Related].Loc, "'%0' is declared here", DiagnosticIDs::Note)
        << F.Tensor;
  if (F.Maybe && F.Prior.Site != NoSite)
    diag(R.Sites[F.Prior.Site].Loc, "'%0' is recorded here on some paths only",
         DiagnosticIDs::Note)
        << F.Tensor;
}

} // namespace clang::tidy::streamsafe
