//===--- DefaultStreamLaunchCheck.h - streamsafe-default-stream-launch ----===//

#ifndef STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
#define STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>

namespace streamsafe {
struct DefaultStreamWork;
} // namespace streamsafe

namespace clang::tidy::streamsafe {

/// Finds CUDA work issued on the legacy default stream in code that works on
/// PyTorch's current stream: kernel launches without a stream or with a
/// default one, stream-ordered runtime calls on the null stream, synchronous
/// cudaMemcpy/cudaMemset. Only translation units that use LibTorch.
///
/// For the user-facing documentation see:
/// docs/checks/default-stream-launch.md
class DefaultStreamLaunchCheck : public ClangTidyCheck {
public:
  DefaultStreamLaunchCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  void report(const ::streamsafe::DefaultStreamWork &W);

  std::optional<bool> IsLibTorchTU;
  /// The runtime APIs (built-in rows only), per translation unit.
  ::streamsafe::ApiConfig NoConfig;
  std::unique_ptr<::streamsafe::ApiTable> Table;
  // A template's instantiations repeat the work of its pattern: report each
  // spelled location once.
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
