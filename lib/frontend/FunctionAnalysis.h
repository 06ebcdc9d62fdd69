//===--- FunctionAnalysis.h - One function, analysed once -------*- C++ -*-===//
//
// The entry point of lib/ for Clang: lower a function to the fact IR, solve
// it and return its findings. An AnalysisSession belongs to one translation
// unit: it holds that unit's options and API table and caches one result per
// function, so every enabled check reuses one run.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_FUNCTIONANALYSIS_H
#define STREAMSAFE_LIB_FRONTEND_FUNCTIONANALYSIS_H

#include "lib/engine/Solver.h"
#include "lib/frontend/ApiConfig.h"
#include "lib/frontend/ApiTable.h"
#include "lib/frontend/IRBuilder.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class NamedDecl;
class Stmt;
} // namespace clang

namespace streamsafe {

struct AnalysisOptions {
  /// Visits per block and state work the solver may spend on a function.
  SolverLimits Limits;
  /// Qualified name of a function whose facts and states are dumped to
  /// stderr (the hidden DebugDumpFunction option).
  std::string DumpFunction;
  /// Functions whose analysis (lowering and solving) takes at least this
  /// many milliseconds are reported on stderr with their time (the hidden
  /// DebugTimeFunctions option; 0: none). The real-code corpus's profile
  /// mode lists the slowest functions from it.
  unsigned TimeFunctionsMs = 0;
  /// Framework APIs configured by the user.
  ApiConfig Config;
  /// A stream parameter the function uses as a side stream is taken to
  /// differ from the caller's current stream (the SideStreamParameters
  /// option; SideParameters.h).
  bool SideStreamParameters = true;
};

struct FunctionResult {
  enum Status { Analysed, NoStreamCode, NoCFG, BudgetExceeded };
  Status State = Analysed;
  /// The function as the solver saw it (null unless lowered).
  std::unique_ptr<Function> IR;
  std::vector<Finding> Findings;
  unsigned BlockVisits = 0;
  unsigned NestedVisits = 0; ///< visits spent in thread and task bodies
  uint64_t StateWork = 0;    ///< see SolverLimits::MaxStateWork
  unsigned Blocks = 0;
  /// Set by the first consumer that told the user about a BudgetExceeded.
  mutable bool SkipReported = false;

  // The Clang handles behind the IR's sites and variables.
  const Site &site(SiteId Id) const { return IR->Sites[Id]; }
  clang::SourceLocation loc(SiteId Id) const {
    return clang::SourceLocation::getFromRawEncoding(
        static_cast<clang::SourceLocation::UIntTy>(site(Id).Loc));
  }
  const clang::Stmt *stmt(SiteId Id) const {
    return static_cast<const clang::Stmt *>(site(Id).Node);
  }
  /// A variable's name ("" for NoVar).
  std::string name(VarId V) const { return V == NoVar ? "" : IR->var(V).Name; }
  const clang::NamedDecl *decl(VarId V) const {
    return V == NoVar ? nullptr
                      : static_cast<const clang::NamedDecl *>(IR->var(V).Decl);
  }
};

/// True when the body mentions streams, guards, events, synchronisation or
/// kernel launches; other functions cannot have a finding and are skipped.
bool mentionsStreamApis(const clang::FunctionDecl &FD, ApiTable &Table);

/// True when a method of \p RD (a constructor or destructor too) mentions
/// streams: its objects keep stream state in their members, so each of
/// their methods runs in place where a function calls it on one.
bool classUsesStreams(const clang::CXXRecordDecl &RD, ApiTable &Table);

/// True when the body (not its callees) calls a tensor method that makes
/// the host wait (isHostWaitEffect): a helper worth running in place.
bool waitsForHost(const clang::FunctionDecl &FD, ApiTable &Table);

/// Lowers and solves \p FD. \p Held: what the unit proves of its members,
/// globals and stream parameters (null: nothing).
std::unique_ptr<FunctionResult> analyzeFunction(const clang::FunctionDecl &FD,
                                                clang::ASTContext &Ctx,
                                                const AnalysisOptions &Opts,
                                                ApiTable &Table,
                                                ObjectStreams *Held = nullptr);

/// One translation unit's analysis: one result per function, shared by
/// every check. Create one per translation unit (its caches are keyed by
/// that unit's declarations).
class AnalysisSession {
public:
  explicit AnalysisSession(AnalysisOptions Opts)
      : Opts(std::move(Opts)), Table(this->Opts.Config) {}
  AnalysisSession(const AnalysisSession &) = delete;
  AnalysisSession &operator=(const AnalysisSession &) = delete;

  const FunctionResult &get(const clang::FunctionDecl &FD,
                            clang::ASTContext &Ctx);
  const AnalysisOptions &options() const { return Opts; }
  ApiTable &table() { return Table; }
  /// Functions skipped because they exceeded the budget.
  unsigned skippedFunctions() const { return Skipped; }

private:
  AnalysisOptions Opts;
  ApiTable Table;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionResult>>
      Cache;
  /// The unit's member and global streams, scanned on the first function.
  std::unique_ptr<ObjectStreams> Held;
  unsigned Skipped = 0;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_FUNCTIONANALYSIS_H
