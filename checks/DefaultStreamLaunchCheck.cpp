//===--- DefaultStreamLaunchCheck.cpp - streamsafe-default-stream-launch --===//
//
// Thin: lib/frontend/DefaultStreamLaunch.cpp finds the work, lib/report
// words it (WordingDefaultStream.cpp); this file adds the fix-its.
//
//===----------------------------------------------------------------------===//

#include "checks/DefaultStreamLaunchCheck.h"
#include "checks/Verbatim.h"
#include "lib/frontend/DefaultStreamFindings.h"
#include "lib/frontend/DefaultStreamLaunch.h"
#include "lib/report/Wording.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using ::streamsafe::DefaultStreamFindings;
using ::streamsafe::DefaultStreamWork;
using ::streamsafe::StreamFix;
using ::streamsafe::WorkKind;

namespace clang::tidy::streamsafe {
namespace {

constexpr llvm::StringLiteral CurrentStream =
    "at::cuda::getCurrentCUDAStream()";

std::optional<FixItHint> fixFor(const StreamFix &F) {
  switch (F.K) {
  case StreamFix::InsertStream:
    return FixItHint::CreateInsertion(F.Loc, (", " + CurrentStream).str());
  case StreamFix::InsertSmemAndStream:
    return FixItHint::CreateInsertion(F.Loc, (", 0, " + CurrentStream).str());
  case StreamFix::ReplaceArgument:
    return FixItHint::CreateReplacement(F.Range, CurrentStream);
  case StreamFix::None:
    break;
  }
  return std::nullopt;
}

// The options naming the project's current-stream getters (two names for
// one list; ApiConfig.cpp).
constexpr const char *GetterOptions[] = {"CurrentStreamGetters",
                                         "CurrentStreamFunctions"};

} // namespace

DefaultStreamLaunchCheck::DefaultStreamLaunchCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportSyncCalls(Options.get<SyncCalls>("ReportSynchronousRuntimeCalls",
                                             SyncCalls::Tensor)) {
  // The project's own getters of the current stream are the current stream
  // here as in the engine checks (one list, read local-or-global).
  for (const char *Name : GetterOptions) {
    std::string Value = Options.getLocalOrGlobal(Name, "").str();
    ::streamsafe::ApiConfig::parseList(Value, Config.CurrentStreamGetters);
    Getters.push_back({Name, Value});
  }
}

void DefaultStreamLaunchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportSynchronousRuntimeCalls", ReportSyncCalls);
  for (const auto &[Name, Value] : Getters)
    Options.store(Opts, Name, Value);
}

bool DefaultStreamLaunchCheck::wanted(const DefaultStreamWork &W) const {
  if (W.Kind != WorkKind::SyncCopy && W.Kind != WorkKind::SyncSet)
    return true;
  switch (ReportSyncCalls) {
  case SyncCalls::All:
    return true;
  case SyncCalls::Tensor:
    return W.OnStreamMemory;
  case SyncCalls::None:
    return false;
  }
  return true;
}

void DefaultStreamLaunchCheck::registerMatchers(MatchFinder *Finder) {
  // LLVM 22 skips system headers by itself; older releases need telling.
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("fn"),
      this);
}

void DefaultStreamLaunchCheck::onStartOfTranslationUnit() {
  FollowsCurrentStream.reset();
  Reported.clear();
  Unit.reset(); // it refers to the table
  Table = std::make_unique<::streamsafe::ApiTable>(Config);
}

void DefaultStreamLaunchCheck::check(const MatchFinder::MatchResult &Result) {
  if (!FollowsCurrentStream)
    FollowsCurrentStream = ::streamsafe::followsCurrentStream(*Result.Context);
  if (!*FollowsCurrentStream)
    return;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!Table)
    Table = std::make_unique<::streamsafe::ApiTable>(Config);
  if (!Unit)
    Unit =
        std::make_unique<::streamsafe::UnitSummaries>(*Result.Context, *Table);
  std::vector<DefaultStreamWork> Work;
  for (DefaultStreamWork &W :
       ::streamsafe::findDefaultStreamWork(*FD, *Result.Context, *Table, *Unit))
    if (wanted(W) && Reported.insert(W.Loc).second)
      Work.push_back(std::move(W));
  DefaultStreamFindings Found = ::streamsafe::defaultStreamFindings(Work);
  for (size_t I = 0; I < Work.size(); ++I)
    report(Found, Found.Findings[I], Work[I].Fix, *FD);
}

void DefaultStreamLaunchCheck::report(const DefaultStreamFindings &Found,
                                      const ::streamsafe::Finding &F,
                                      const StreamFix &Fix,
                                      const FunctionDecl &FD) {
  ::streamsafe::report::Vocabulary V;
  V.IR = &Found.IR;
  V.FunctionName = FD.getNameAsString();
  for (const ::streamsafe::report::Line &L : ::streamsafe::report::word(F, V)) {
    if (L.Note) {
      diag(Found.loc(L.At), verbatim(L.Text), DiagnosticIDs::Note);
      continue;
    }
    auto D = diag(Found.loc(L.At), verbatim(L.Text));
    if (std::optional<FixItHint> FixIt = fixFor(Fix))
      D << *FixIt;
  }
}

} // namespace clang::tidy::streamsafe
