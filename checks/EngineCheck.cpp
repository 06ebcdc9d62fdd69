//===--- EngineCheck.cpp - The checks built on the engine ----------------===//

#include "checks/EngineCheck.h"
#include "checks/RecordStreamFixIt.h"
#include "checks/Verbatim.h"
#include "lib/report/CheckNames.h"
#include "lib/report/Wording.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang::ast_matchers;
using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

EngineCheck::EngineCheck(StringRef Name, ClangTidyContext *Context,
                         std::shared_ptr<SharedSession> S, FindingKind Kind)
    : ClangTidyCheck(Name, Context), Kind(Kind), Shared(std::move(S)) {
  AnalysisOptions O;
  // Hidden debugging option: not stored, so --dump-config does not show it.
  O.DumpFunction = Options.getLocalOrGlobal("DebugDumpFunction", "").str();
  O.TimeFunctionsMs = Options.getLocalOrGlobal("DebugTimeFunctions", 0u);
  // Framework APIs are one model for all checks: a name listed globally
  // (CheckOptions: {EventClasses: ...}) or under any check's prefix counts.
  const ClangTidyOptions::OptionMap &All = Context->getOptions().CheckOptions;
  for (const ApiConfig::Entry &E : ApiConfig::entries()) {
    std::string Local = Options.get(E.Name, E.Default).str();
    ApiConfig::parseList(Local, O.Config.*E.Field);
    if (auto It = All.find(E.Name); It != All.end())
      ApiConfig::parseList(It->getValue().Value, O.Config.*E.Field);
    ApiOptions.push_back({E.Name, Local});
  }
  SolverLimits &L = O.Limits;
  L.VisitsPerBlock =
      Options.getLocalOrGlobal("VisitsPerBlock", L.VisitsPerBlock);
  ApiOptions.push_back({"VisitsPerBlock", std::to_string(L.VisitsPerBlock)});
  L.MaxStateWork = Options.getLocalOrGlobal("MaxStateWork", L.MaxStateWork);
  ApiOptions.push_back({"MaxStateWork", std::to_string(L.MaxStateWork)});
  O.SideStreamParameters =
      Options.getLocalOrGlobal("SideStreamParameters", O.SideStreamParameters);
  ApiOptions.push_back(
      {"SideStreamParameters", O.SideStreamParameters ? "true" : "false"});
  Shared->addOptions(O);
}

void EngineCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  for (const auto &[Name, Value] : ApiOptions)
    Options.store(Opts, Name, Value);
}

void EngineCheck::onStartOfTranslationUnit() {
  Shared->beginTranslationUnit();
  Found.clear();
}

void EngineCheck::onEndOfTranslationUnit() {
  std::vector<report::ShownFinding> All;
  for (const Pending &P : Found)
    All.push_back(P.Shown);
  for (size_t I : report::findingsToShow(All))
    for (const auto &[Loc, Text, Note] : Found[I].Lines) {
      if (Note) {
        diag(Loc, verbatim(Text), DiagnosticIDs::Note);
        continue;
      }
      auto D = diag(Loc, verbatim(Text));
      if (Found[I].Fix)
        D << *Found[I].Fix;
    }
  Found.clear();
}

void EngineCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isImplicit())).bind("fn"), this);
}

void EngineCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || FD->isDependentContext() || !FD->hasBody())
    return;
  const FunctionResult &R = Shared->get().get(*FD, *Result.Context);
  if (R.State == FunctionResult::NoCFG && !R.SkipReported &&
      Result.Context->getDiagnostics().hasErrorOccurred()) {
    // The compiler's errors say why; say what that costs.
    R.SkipReported = true;
    llvm::errs() << "streamsafe: skipped '" << FD->getQualifiedNameAsString()
                 << "': its body has compile errors\n";
  }
  if (R.State == FunctionResult::BudgetExceeded && !R.SkipReported) {
    // Never give up silently: say which function was not analysed.
    R.SkipReported = true;
    llvm::errs() << "streamsafe: skipped '" << FD->getQualifiedNameAsString()
                 << "': the analysis budget was exceeded (" << R.BlockVisits
                 << " block visits over " << R.Blocks << " blocks, "
                 << R.StateWork << " state entries touched)\n";
  }
  for (const Finding &F : R.Findings)
    if (F.kind() == Kind)
      report(R, F, *FD, *Result.Context);
}

void EngineCheck::report(const FunctionResult &R, const Finding &F,
                         const FunctionDecl &FD, ASTContext &Ctx) {
  report::Vocabulary V;
  V.IR = R.IR.get();
  V.FunctionName = FD.getNameAsString();
  V.TextAt = [&R, &Ctx](SiteId Site) {
    const Stmt *S = R.stmt(Site);
    if (!S)
      return std::string();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  };
  V.CalleeAt = [&R](SiteId Site) {
    // A call, or an RAII object's construction (its constructor) or scope
    // end (the site of its variable: its destructor).
    if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(R.stmt(Site)))
      return C->getConstructor()->getNameAsString();
    if (const auto *D = static_cast<const Decl *>(R.site(Site).Decl))
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl())
          return "~" + RD->getNameAsString();
    const auto *Call = dyn_cast_or_null<CallExpr>(R.stmt(Site));
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    return Callee ? Callee->getNameAsString() : std::string();
  };
  // Only a missing record_stream has a fix that is certainly right.
  std::optional<FixItHint> Fix;
  if (const auto *M = F.as<finding::MissingRecordStream>())
    Fix = recordStreamFixIt(R, *M, FD, Ctx);
  std::vector<report::Line> Lines = report::word(F, V);
  auto Warning =
      llvm::find_if(Lines, [](const report::Line &L) { return !L.Note; });
  if (Warning == Lines.end())
    return;
  Pending P;
  P.Shown.Place = std::to_string(R.loc(Warning->At).getRawEncoding());
  P.Shown.Check = std::string(report::checkName(F.kind()));
  P.Shown.Text = Warning->Text;
  P.Shown.WithinHelper = report::withinHelper(F, *R.IR);
  P.Shown.ThroughCall = F.CallSite != NoSite;
  P.Shown.Function = FD.getNameAsString();
  if (P.Shown.ThroughCall)
    P.Shown.Callee = V.CalleeAt(F.CallSite);
  P.Shown.Origin = report::originOf(F, *R.IR, [&R](SiteId S) {
    return std::to_string(R.loc(S).getRawEncoding());
  });
  for (const report::Line &L : Lines)
    P.Lines.emplace_back(R.loc(L.At), L.Text, L.Note);
  P.Fix = std::move(Fix);
  Found.push_back(std::move(P));
}

} // namespace clang::tidy::streamsafe
