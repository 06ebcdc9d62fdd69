//===--- UnrecordedEventWaitCheck.cpp - streamsafe-unrecorded-event-wait
//---===//

#include "checks/UnrecordedEventWaitCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnrecordedEventWaitCheck::report(const FunctionResult &R, const Finding &F,
                                      const FunctionDecl &, ASTContext &) {
  if (F.Kind != FindingKind::UnrecordedEventWait)
    return;
  if (F.Maybe)
    diag(R.loc(F.Access.Site),
         "wait on event '%0', which is not recorded on every path to this "
         "point; on those paths the wait does nothing")
        << tensorName(R, F.Tensor);
  else
    diag(R.loc(F.Access.Site),
         "wait on event '%0', which is never recorded before this point; a "
         "wait on an unrecorded event does nothing")
        << tensorName(R, F.Tensor);
  if (F.Related != NoSite)
    diag(R.loc(F.Related), "'%0' is declared here", DiagnosticIDs::Note)
        << tensorName(R, F.Tensor);
  if (F.Maybe && F.Prior.Site != NoSite)
    diag(R.loc(F.Prior.Site), "'%0' is recorded here on some paths only",
         DiagnosticIDs::Note)
        << tensorName(R, F.Tensor);
  noteCallSite(R, F);
}

} // namespace clang::tidy::streamsafe
