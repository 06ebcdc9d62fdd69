//===--- DefaultStreamLaunchCheck.cpp - streamsafe-default-stream-launch --===//
//
// Thin: lib/DefaultStreamLaunch finds the work, this file words it.
//
//===----------------------------------------------------------------------===//

#include "checks/DefaultStreamLaunchCheck.h"
#include "lib/frontend/DefaultStreamLaunch.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using ::streamsafe::DefaultStreamWork;
using ::streamsafe::StreamFix;
using ::streamsafe::StreamOrigin;
using ::streamsafe::ThrustPolicy;
using ::streamsafe::WorkKind;

namespace clang::tidy::streamsafe {
namespace {

constexpr llvm::StringLiteral CurrentStream =
    "at::cuda::getCurrentCUDAStream()";

// A thrust policy without a stream, as the user spells it.
StringRef policyText(ThrustPolicy P) {
  switch (P) {
  case ThrustPolicy::Device:
    return "'thrust::device'";
  case ThrustPolicy::Par:
    return "'thrust::cuda::par' without '.on(stream)'";
  case ThrustPolicy::ParNosync:
    return "'thrust::cuda::par_nosync' without '.on(stream)'";
  default:
    return "";
  }
}

// How the stream was given, for the warning.
std::string streamReason(const DefaultStreamWork &W) {
  if (W.Policy == ThrustPolicy::DeviceIterators)
    return "no execution policy, iterators on the device";
  if (W.Policy != ThrustPolicy::None && W.PolicyVar)
    return ("execution policy '" + W.PolicyVar->getName() + "'").str();
  if (W.Policy != ThrustPolicy::None)
    return ("execution policy " + policyText(W.Policy)).str();
  if (W.Stream.Via)
    return ("stream '" + W.Stream.Via->getName() + "'").str();
  switch (W.Stream.Origin) {
  case StreamOrigin::Omitted:
    return "no stream argument";
  case StreamOrigin::Null:
    return "stream argument is null";
  case StreamOrigin::Legacy:
    return "stream argument is 'cudaStreamLegacy'";
  case StreamOrigin::PerThread:
    return "stream argument is 'cudaStreamPerThread'";
  case StreamOrigin::DefaultGetter:
    return "stream argument is 'getDefaultCUDAStream()'";
  default:
    return "";
  }
}

// What a variable was initialized with, for the note at the variable.
StringRef initializerText(StreamOrigin O) {
  switch (O) {
  case StreamOrigin::Null:
    return "a null stream";
  case StreamOrigin::Legacy:
    return "'cudaStreamLegacy'";
  case StreamOrigin::PerThread:
    return "'cudaStreamPerThread'";
  default:
    return "'getDefaultCUDAStream()'";
  }
}

StringRef messageFor(WorkKind K) {
  switch (K) {
  case WorkKind::SyncCopy:
    return "%0 runs on the legacy default stream: it blocks the host but is "
           "not ordered with work on PyTorch's non-blocking streams; use '%1' "
           "on the current stream";
  case WorkKind::SyncSet:
    return "%0 runs on the legacy default stream, which is not ordered with "
           "work on PyTorch's non-blocking streams; use '%1' on the current "
           "stream";
  default:
    return "%0 runs on the %select{legacy|per-thread}1 default stream (%2), "
           "not on PyTorch's current stream";
  }
}

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
  IsLibTorchTU.reset();
  Reported.clear();
  Table = std::make_unique<::streamsafe::ApiTable>(Config);
}

void DefaultStreamLaunchCheck::check(const MatchFinder::MatchResult &Result) {
  if (!IsLibTorchTU)
    IsLibTorchTU = ::streamsafe::isLibTorchTranslationUnit(*Result.Context);
  if (!*IsLibTorchTU)
    return;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!Table)
    Table = std::make_unique<::streamsafe::ApiTable>(Config);
  for (const DefaultStreamWork &W :
       ::streamsafe::findDefaultStreamWork(*FD, *Result.Context, *Table))
    if (wanted(W) && Reported.insert(W.Loc).second)
      report(W);
}

void DefaultStreamLaunchCheck::report(const DefaultStreamWork &W) {
  {
    auto D = diag(W.Loc, messageFor(W.Kind));
    if (W.Kind == WorkKind::KernelLaunch)
      D << "kernel launch";
    else
      D << ("'" + W.Api + "'").str();
    if (W.Kind == WorkKind::SyncCopy || W.Kind == WorkKind::SyncSet)
      D << W.AsyncApi;
    else
      D << (W.Stream.Origin == StreamOrigin::PerThread) << streamReason(W);
    if (std::optional<FixItHint> Fix = fixFor(W.Fix))
      D << *Fix;
  }
  if (W.MacroBody.isValid())
    diag(W.MacroBody, "in the expansion of macro '%0', written here",
         DiagnosticIDs::Note)
        << W.MacroName;
  if (W.PolicyVar && W.Policy != ThrustPolicy::None)
    diag(W.PolicyVar->getLocation(), "'%0' is initialized with %1 here",
         DiagnosticIDs::Note)
        << W.PolicyVar->getName() << policyText(W.Policy);
  else if (W.PolicyVar)
    diag(W.PolicyVar->getLocation(), "'%0' is initialized here",
         DiagnosticIDs::Note)
        << W.PolicyVar->getName();
  if (W.Stream.Via)
    diag(W.Stream.Via->getLocation(), "'%0' is initialized with %1 here",
         DiagnosticIDs::Note)
        << W.Stream.Via->getName() << initializerText(W.Stream.Origin);
  if (W.UnusedCurrentStream)
    diag(W.UnusedCurrentStream->getLocation(),
         "PyTorch's current stream was stored in '%0' here",
         DiagnosticIDs::Note)
        << W.UnusedCurrentStream->getName();
}

} // namespace clang::tidy::streamsafe
