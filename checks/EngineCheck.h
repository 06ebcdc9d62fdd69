//===--- EngineCheck.h - The checks built on the engine ---------*- C++ -*-===//
//
// One class for every check built on the stream dataflow engine, one
// instance per check name (lib/report/CheckNames.h): it selects function
// definitions, asks the shared session for the function's findings
// (computed once per function whatever number of checks ask), and turns
// the findings of its kind into diagnostics, worded by lib/report.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_CHECKS_ENGINECHECK_H
#define STREAMSAFE_CHECKS_ENGINECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/TranslationUnitSession.h"
#include "lib/report/ShownFindings.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace clang::tidy::streamsafe {

/// The session the engine checks of a run share, one per translation unit.
using SharedSession = ::streamsafe::TranslationUnitSession;

/// Reports the findings of one kind. For the user-facing documentation of
/// each kind see docs/checks/<check name without "streamsafe-">.md.
class EngineCheck : public ClangTidyCheck {
public:
  EngineCheck(StringRef Name, ClangTidyContext *Context,
              std::shared_ptr<SharedSession> Shared,
              ::streamsafe::FindingKind Kind);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  /// Shows the unit's findings, as lib/report/ShownFindings.h decides.
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CPlusPlus;
  }

private:
  /// Emits the finding's warning (with its fix-it, where its kind has one)
  /// and notes.
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx);

  ::streamsafe::FindingKind Kind;
  /// The option values as written, echoed by storeOptions.
  std::vector<std::pair<std::string, std::string>> ApiOptions;
  std::shared_ptr<SharedSession> Shared;
  /// A finding worded, waiting for the end of the unit: a finding in a
  /// helper is found again by each function that runs it in place (and by
  /// the helper's own analysis), and which to show needs all of them.
  struct Pending {
    ::streamsafe::report::ShownFinding Shown;
    /// The warning and its notes, in order.
    std::vector<std::tuple<SourceLocation, std::string, bool>> Lines;
    std::optional<FixItHint> Fix;
  };
  std::vector<Pending> Found;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_ENGINECHECK_H
