//===--- GraphCaptureCheck.cpp - streamsafe-graph-capture
//-------------------===//
//
// The words are lib/report's (shared with streamsafe-py).
//
//===----------------------------------------------------------------------===//

#include "checks/GraphCaptureCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void GraphCaptureCheck::report(const FunctionResult &R, const Finding &F,
                               const FunctionDecl &FD, ASTContext &) {
  if (F.Kind == FindingKind::GraphCapture)
    emitWords(R, F, FD);
}

} // namespace clang::tidy::streamsafe
