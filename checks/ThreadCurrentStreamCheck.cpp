//===--- ThreadCurrentStreamCheck.cpp - streamsafe-thread-current-stream
//----===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/ThreadCurrentStreamCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void ThreadCurrentStreamCheck::report(const FunctionResult &R, const Finding &F,
                                      const FunctionDecl &FD, ASTContext &) {
  if (F.Kind == FindingKind::ThreadCurrentStream)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
