//===--- FunctionAnalysis.h - One function, analysed once --------*- C++
//-*-===//
//
// The entry point of lib/: run the stream dataflow over one function and
// return its findings. AnalysisSession caches results per translation unit so
// that every enabled check reuses one run per function.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FUNCTIONANALYSIS_H
#define STREAMSAFE_LIB_FUNCTIONANALYSIS_H

#include "lib/ApiConfig.h"
#include "lib/Findings.h"
#include "lib/Sites.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

struct AnalysisOptions {
  /// Blocks visited per CFG block before the engine gives up on a function.
  unsigned VisitsPerBlock = 64;
  /// State entries (tensors, variables, facts) the engine may touch in all
  /// (joins and sweeps touch only what changed): bounds a function's cost,
  /// about 6 per statement in long functions.
  uint64_t MaxStateWork = 2000000;
  /// Name of a function whose facts and states are dumped to stderr.
  std::string DumpFunction;
  /// Framework APIs configured by the user.
  ApiConfig Config;
};

struct FunctionResult {
  enum Status { Analysed, NoStreamCode, NoCFG, BudgetExceeded };
  Status State = Analysed;
  SiteTable Sites;
  std::vector<Finding> Findings; ///< sorted by location, deduplicated
  unsigned BlockVisits = 0;
  unsigned NestedVisits = 0; ///< visits spent in thread and task bodies
  uint64_t StateWork = 0;    ///< see AnalysisOptions::MaxStateWork
  unsigned Blocks = 0;
  /// Set by the first consumer that told the user about a BudgetExceeded.
  mutable bool SkipReported = false;
};

/// True when the body mentions streams, guards, events, synchronisation or
/// kernel launches; other functions cannot have a finding and are skipped.
bool mentionsStreamApis(const clang::FunctionDecl &FD, const ApiConfig &Config);

/// Runs the analysis on \p FD (which must have a body).
std::unique_ptr<FunctionResult> analyzeFunction(const clang::FunctionDecl &FD,
                                                clang::ASTContext &Ctx,
                                                const AnalysisOptions &Opts);

/// Per translation unit cache: one analysis per function, shared by checks.
class AnalysisSession {
public:
  explicit AnalysisSession(AnalysisOptions Opts) : Opts(std::move(Opts)) {}
  const FunctionResult &get(const clang::FunctionDecl &FD,
                            clang::ASTContext &Ctx);
  const AnalysisOptions &options() const { return Opts; }
  /// Functions skipped because they exceeded the budget, in this TU.
  unsigned skippedFunctions() const { return Skipped; }

private:
  AnalysisOptions Opts;
  const clang::ASTContext *CurrentTU = nullptr;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionResult>>
      Cache;
  unsigned Skipped = 0;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FUNCTIONANALYSIS_H
