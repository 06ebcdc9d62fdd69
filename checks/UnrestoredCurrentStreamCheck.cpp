//===--- UnrestoredCurrentStreamCheck.cpp - streamsafe-unrestored-current-stream
//---===//

#include "checks/UnrestoredCurrentStreamCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnrestoredCurrentStreamCheck::report(const FunctionResult &R,
                                          const Finding &F,
                                          const FunctionDecl &FD,
                                          ASTContext &) {
  if (F.Kind != FindingKind::UnrestoredCurrentStream)
    return;
  diag(R.loc(F.Access.Site),
       "the current stream set here is not restored on every path out of "
       "'%0'; the caller's later work silently runs on it (use a "
       "c10::cuda::CUDAStreamGuard to set the stream for a scope)")
      << FD.getNameAsString();
  diag(R.loc(F.Related), "'%0' can return here with the stream still set",
       DiagnosticIDs::Note)
      << FD.getNameAsString();
  noteCallSite(R, F);
}

} // namespace clang::tidy::streamsafe
