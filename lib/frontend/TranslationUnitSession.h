//===--- TranslationUnitSession.h - One session per translation unit -*- C++
//-*-===//
//
// The analysis session the engine checks of one translation unit share.
// clang-tidy constructs every check anew for each translation unit, with
// that file's options (each folder may have its own .clang-tidy); each check
// adds its options here when it is constructed, and the first of them to
// start matching the unit seals them into a fresh AnalysisSession, so no
// result or option of one unit reaches the next.
//
// Merging: framework API lists are the union of what the checks were
// configured with; a limit (VisitsPerBlock, MaxStateWork) set away from its
// default by any check applies, the largest if several do; the first
// DebugDumpFunction (and DebugTimeFunctions) wins; SideStreamParameters
// turned off by any check is off for all.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_TRANSLATIONUNITSESSION_H
#define STREAMSAFE_LIB_FRONTEND_TRANSLATIONUNITSESSION_H

#include "lib/frontend/FunctionAnalysis.h"
#include <memory>

namespace streamsafe {

class TranslationUnitSession {
public:
  /// A check of the next (or current) translation unit was constructed.
  void addOptions(const AnalysisOptions &O);
  /// A check starts matching its translation unit.
  void beginTranslationUnit();
  /// The session of the current translation unit.
  AnalysisSession &get();

private:
  void seal();

  AnalysisOptions Pending;
  /// Pending was used for Session: the next addOptions starts a new unit.
  bool Sealed = true;
  std::unique_ptr<AnalysisSession> Session;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_TRANSLATIONUNITSESSION_H
