//===--- UnsynchronizedAccessCheck.cpp - streamsafe-unsynchronized-access
//---===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/UnsynchronizedAccessCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnsynchronizedAccessCheck::report(const FunctionResult &R,
                                       const Finding &F, const FunctionDecl &FD,
                                       ASTContext &) {
  if (F.Kind == FindingKind::UnsynchronizedAccess)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
