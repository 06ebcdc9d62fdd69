//===--- TranslationUnitSession.cpp - One session per translation unit ----===//

#include "lib/frontend/TranslationUnitSession.h"

namespace streamsafe {

void TranslationUnitSession::addOptions(const AnalysisOptions &O) {
  if (Sealed) {
    // The first check of a new translation unit.
    Pending = O;
    Sealed = false;
    return;
  }
  for (const ApiConfig::Entry &E : ApiConfig::entries())
    for (const auto &Name : (O.Config.*E.Field).keys())
      (Pending.Config.*E.Field).insert(Name);
  if (Pending.DumpFunction.empty())
    Pending.DumpFunction = O.DumpFunction;
  // Turned off for any check: off for the unit (one lowering serves all).
  Pending.SideStreamParameters &= O.SideStreamParameters;
  if (!Pending.TimeFunctionsMs)
    Pending.TimeFunctionsMs = O.TimeFunctionsMs;
  const SolverLimits Defaults;
  auto Merge = [](auto &Into, auto Value, auto Default) {
    if (Value != Default && (Into == Default || Value > Into))
      Into = Value;
  };
  Merge(Pending.Limits.VisitsPerBlock, O.Limits.VisitsPerBlock,
        Defaults.VisitsPerBlock);
  Merge(Pending.Limits.MaxStateWork, O.Limits.MaxStateWork,
        Defaults.MaxStateWork);
}

void TranslationUnitSession::seal() {
  Session = std::make_unique<AnalysisSession>(Pending);
  Sealed = true;
}

void TranslationUnitSession::beginTranslationUnit() {
  if (!Sealed)
    seal();
}

AnalysisSession &TranslationUnitSession::get() {
  if (!Sealed || !Session)
    seal();
  return *Session;
}

} // namespace streamsafe
