//===--- DefaultStreamLaunchCheck.cpp - streamsafe-default-stream-launch --===//

#include "checks/DefaultStreamLaunchCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::streamsafe {

void DefaultStreamLaunchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cudaKernelCallExpr().bind("launch"), this);
}

void DefaultStreamLaunchCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  const CallExpr *Config = Launch->getConfig();
  if (Config)
    diag(Launch->getBeginLoc(), "kernel launched on the legacy default stream");
}

} // namespace clang::tidy::streamsafe
