//===--- StreamAnalysisBase.h - Base of engine-based checks -----*- C++ -*-===//
//
// The checks built on the stream dataflow engine are thin: they select
// function definitions, ask the shared AnalysisSession for the function's
// findings (computed once per function whatever number of checks ask), and
// turn the findings of their kind into diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_CHECKS_STREAMANALYSISBASE_H
#define STREAMSAFE_CHECKS_STREAMANALYSISBASE_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/TranslationUnitSession.h"
#include "lib/report/Wording.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>

namespace clang::tidy::streamsafe {

/// The session the engine checks of a run share, one per translation unit.
using SharedSession = ::streamsafe::TranslationUnitSession;

class StreamAnalysisBase : public ClangTidyCheck {
public:
  StreamAnalysisBase(StringRef Name, ClangTidyContext *Context,
                     std::shared_ptr<SharedSession> Shared);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CPlusPlus;
  }

protected:
  /// Called for each finding of the function, in a deterministic order.
  virtual void report(const ::streamsafe::FunctionResult &R,
                      const ::streamsafe::Finding &F, const FunctionDecl &FD,
                      ASTContext &Ctx) = 0;
  /// Emits the finding's warning and notes, worded by lib/report (the same
  /// words as streamsafe-py's); \p OnWarning may add a fix-it to the warning.
  void emitWords(const ::streamsafe::FunctionResult &R,
                 const ::streamsafe::Finding &F, const FunctionDecl &FD,
                 llvm::function_ref<void(DiagnosticBuilder &)> OnWarning = {});

private:
  /// The option values as written, echoed by storeOptions.
  std::vector<std::pair<std::string, std::string>> ApiOptions;
  std::shared_ptr<SharedSession> Shared;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_STREAMANALYSISBASE_H
