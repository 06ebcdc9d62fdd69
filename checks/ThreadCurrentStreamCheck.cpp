//===--- ThreadCurrentStreamCheck.cpp - streamsafe-thread-current-stream
//---===//

#include "checks/ThreadCurrentStreamCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void ThreadCurrentStreamCheck::report(const FunctionResult &R, const Finding &F,
                                      ASTContext &) {
  if (F.Kind != FindingKind::ThreadCurrentStream)
    return;
  if (F.Query)
    diag(R.Sites[F.Access.Site].Loc,
         "getCurrentCUDAStream() in this thread returns the default stream, "
         "not %0 that was current where the thread was spawned; the current "
         "stream is thread-local")
        << F.Prior.Stream;
  else
    diag(R.Sites[F.Access.Site].Loc,
         "this work runs on the default stream, not on %0 that was current "
         "where the thread was spawned; the current stream is thread-local")
        << F.Prior.Stream;
  diag(R.Sites[F.Related].Loc,
       "the thread starts here on the default stream; pass the stream in and "
       "set a stream guard inside the thread",
       DiagnosticIDs::Note);
  if (F.Prior.StreamSetAt != NoSite)
    diag(R.Sites[F.Prior.StreamSetAt].Loc,
         "the spawning thread's current stream is set to %0 here",
         DiagnosticIDs::Note)
        << F.Prior.Stream;
}

} // namespace clang::tidy::streamsafe
