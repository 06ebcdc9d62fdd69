//===--- Analysis.h - A Python file, analysed -------------------*- C++ -*-===//
//
// The entry point of the Python front end: parse a file, lower its module
// body and every def (methods and nested defs included) to the fact IR,
// solve each with the engine and word the findings with lib/report, the
// words the clang-tidy checks use.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_ANALYSIS_H
#define STREAMSAFE_LIB_PYTHON_ANALYSIS_H

#include "lib/engine/Solver.h"
#include "lib/model/Accelerators.h"
#include "lib/python/Syntax.h"
#include <string>
#include <vector>

namespace streamsafe::py {

class ModuleCache;

/// One line of output: a warning (Check set) or a note.
struct Diagnostic {
  Position At;
  /// The file \p At is in when it is not the analysed one: the code of a
  /// helper of another module that runs in place (lib/python/Modules.h).
  std::string File;
  std::string Check; ///< for a warning: "streamsafe-..."; empty for a note
  std::string Text;
};

struct FileResult {
  /// Warnings, each followed by its notes, in source order.
  std::vector<std::vector<Diagnostic>> Findings;
  /// Scopes not analysed: the budget ran out (named, never silent).
  std::vector<std::string> Skipped;
  /// Scopes where paths kept apart by the values that chose them were
  /// joined at the engine's bound (named: a race on one may be missed).
  std::vector<std::string> PathBound;
  unsigned Scopes = 0;
};

struct PyOptions {
  SolverLimits Limits;
  /// Print the facts and states of the def of this name ("<module>": the
  /// module body).
  std::string DumpFunction;
  /// Calls that return the accelerator's module, which then stands for
  /// torch.cuda (';'-separated dotted names; lib/model/Accelerators.h).
  std::string DeviceModuleFunctions = DefaultDeviceModuleFunctions;
  /// A stream parameter a def uses as a side stream differs from the
  /// caller's current stream (the check option SideStreamParameters).
  bool SideStreamParameters = true;
  /// Defs of the project's other modules that the file imports run in
  /// place, as the file's own helpers do (the option FollowImports).
  bool FollowImports = true;
  /// Where absolute imports are looked up ("": the nearest folder above
  /// each file with no __init__.py; the option ProjectRoot).
  std::string ProjectRoot;
  /// The modules read so far in this run, shared by its files (null: each
  /// file reads its own).
  ModuleCache *Modules = nullptr;
};

/// Analyses a parsed file.
FileResult analyzeFile(const SourceFile &F, const PyOptions &Opts);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_ANALYSIS_H
