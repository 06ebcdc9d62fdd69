//===--- DefaultStreamLaunchCheck.h - streamsafe-default-stream-launch ----===//

#ifndef STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
#define STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/frontend/ApiTable.h"
#include "lib/frontend/DefaultStreamLaunch.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace streamsafe {
struct DefaultStreamFindings;
struct DefaultStreamWork;
struct Finding;
struct StreamFix;
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
  DefaultStreamLaunchCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

  /// Which synchronous cudaMemcpy/cudaMemset calls are reported.
  enum class SyncCalls { All, Tensor, None };

private:
  /// The finding's warning, with the fix-it \p Fix when there is one, and
  /// notes, worded by lib/report.
  void report(const ::streamsafe::DefaultStreamFindings &Found,
              const ::streamsafe::Finding &F,
              const ::streamsafe::StreamFix &Fix, const FunctionDecl &FD);
  bool wanted(const ::streamsafe::DefaultStreamWork &W) const;

  std::optional<bool> FollowsCurrentStream;
  SyncCalls ReportSyncCalls;
  /// The built-in rows and the project's current-stream getters
  /// (CurrentStreamGetters), per translation unit.
  ::streamsafe::ApiConfig Config;
  std::vector<std::pair<std::string, std::string>> Getters; ///< as written
  std::unique_ptr<::streamsafe::ApiTable> Table;
  /// The unit's functions' stream parameters and members, summarised once.
  std::unique_ptr<::streamsafe::UnitSummaries> Unit;
  // A template's instantiations repeat the work of its pattern: report each
  // spelled location once.
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::streamsafe

namespace clang::tidy {
template <>
struct OptionEnumMapping<streamsafe::DefaultStreamLaunchCheck::SyncCalls> {
  static llvm::ArrayRef<
      std::pair<streamsafe::DefaultStreamLaunchCheck::SyncCalls, StringRef>>
  getEnumMapping() {
    using S = streamsafe::DefaultStreamLaunchCheck::SyncCalls;
    static constexpr std::pair<S, StringRef> Mapping[] = {
        {S::All, "all"}, {S::Tensor, "tensor"}, {S::None, "none"}};
    return Mapping;
  }
};
} // namespace clang::tidy

#endif // STREAMSAFE_CHECKS_DEFAULTSTREAMLAUNCHCHECK_H
