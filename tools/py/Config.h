//===--- Config.h - The .clang-tidy file, read for Python -------*- C++ -*-===//
//
// streamsafe-py reads the same configuration file as the C++ checks: the
// nearest .clang-tidy above the analysed file. `Checks:` selects the checks
// (clang-tidy's globs) and `CheckOptions:` sets the engine's limits
// (VisitsPerBlock, MaxStateWork), SideStreamParameters and the Python
// front end's DeviceModuleFunctions, FollowImports and ProjectRoot, globally or
// under a check's name. One file configures both languages of a mixed
// repository (docs/python.md).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_CONFIG_H
#define STREAMSAFE_TOOLS_PY_CONFIG_H

#include "lib/engine/Solver.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace streamsafe::py {

struct FileConfig {
  std::string Path;   ///< the .clang-tidy read ("" for none)
  std::string Checks; ///< its Checks: value ("" for none)
  std::optional<unsigned> VisitsPerBlock;
  std::optional<uint64_t> MaxStateWork;
  /// Calls that return the accelerator's module (';'-separated dotted
  /// names, e.g. deepspeed.accelerator.get_accelerator).
  std::optional<std::string> DeviceModuleFunctions;
  std::optional<bool> SideStreamParameters;
  /// Whether defs imported from the project's other modules run in place,
  /// and where absolute imports are looked up (relative to the
  /// .clang-tidy's folder): docs/python.md, "Helpers in other modules".
  std::optional<bool> FollowImports;
  std::optional<std::string> ProjectRoot;
  std::string Error; ///< why the file could not be read
};

/// Reads the nearest .clang-tidy above \p File.
FileConfig configFor(llvm::StringRef File);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_CONFIG_H
