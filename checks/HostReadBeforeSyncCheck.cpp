//===--- HostReadBeforeSyncCheck.cpp - streamsafe-host-read-before-sync
//-----===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/HostReadBeforeSyncCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void HostReadBeforeSyncCheck::report(const FunctionResult &R, const Finding &F,
                                     const FunctionDecl &FD, ASTContext &) {
  if (F.Kind == FindingKind::HostReadBeforeSync)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
