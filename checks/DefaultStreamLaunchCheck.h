//===--- DefaultStreamLaunchCheck.h - streamsafe-default-stream-launch ----===//

#ifndef STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
#define STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::streamsafe {

/// Finds CUDA work issued on the legacy default stream in code that works on
/// PyTorch's current stream.
///
/// For the user-facing documentation see:
/// docs/checks/default-stream-launch.md
class DefaultStreamLaunchCheck : public ClangTidyCheck {
public:
  DefaultStreamLaunchCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
