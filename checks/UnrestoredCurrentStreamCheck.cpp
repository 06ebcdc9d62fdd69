//===--- UnrestoredCurrentStreamCheck.cpp - streamsafe-unrestored-current-stream
//---===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/UnrestoredCurrentStreamCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void UnrestoredCurrentStreamCheck::report(const FunctionResult &R,
                                          const Finding &F,
                                          const FunctionDecl &FD,
                                          ASTContext &) {
  if (F.Kind == FindingKind::UnrestoredCurrentStream)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
