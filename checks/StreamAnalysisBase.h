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

#include "checks/StreamDescription.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/frontend/FunctionAnalysis.h"
#include <memory>

namespace clang::tidy::streamsafe {

/// The analysis session shared by the engine checks of one translation
/// unit. clang-tidy constructs every check anew for each translation unit,
/// with that file's options; each check adds its options here when it is
/// constructed, and the first of them to start matching the unit seals them
/// into a fresh AnalysisSession. Framework API lists are the union of what
/// the checks were configured with; a limit (VisitsPerBlock, MaxStateWork)
/// set away from its default by any check applies, the largest if several.
class SharedSession {
public:
  void addOptions(const ::streamsafe::AnalysisOptions &O);
  /// Called by each check as its translation unit starts.
  void beginTranslationUnit();
  ::streamsafe::AnalysisSession &get();

private:
  void seal();

  ::streamsafe::AnalysisOptions Pending;
  /// Pending was used for Session: the next addOptions starts a new unit.
  bool Sealed = true;
  std::unique_ptr<::streamsafe::AnalysisSession> Session;
};

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
  /// Adds the note that says where the stream of an access came from.
  void noteStreamSetAt(const ::streamsafe::FunctionResult &R,
                       const ::streamsafe::AccessInfo &A, llvm::StringRef Verb);

private:
  /// The option values as written, echoed by storeOptions.
  std::vector<std::pair<std::string, std::string>> ApiOptions;
  std::shared_ptr<SharedSession> Shared;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_STREAMANALYSISBASE_H
