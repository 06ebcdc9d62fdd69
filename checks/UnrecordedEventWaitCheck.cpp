//===--- UnrecordedEventWaitCheck.cpp - streamsafe-unrecorded-event-wait
//----===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/UnrecordedEventWaitCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnrecordedEventWaitCheck::report(const FunctionResult &R, const Finding &F,
                                      const FunctionDecl &FD, ASTContext &) {
  if (F.Kind == FindingKind::UnrecordedEventWait)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
