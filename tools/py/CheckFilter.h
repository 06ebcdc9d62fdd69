//===--- CheckFilter.h - clang-tidy style check globs -----------*- C++ -*-===//
//
// "-*,streamsafe-unsynchronized-access": comma-separated globs, each
// enabling (or, with '-', disabling) the checks it matches; the last glob
// that matches a check decides, as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_CHECKFILTER_H
#define STREAMSAFE_TOOLS_PY_CHECKFILTER_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace streamsafe::py {

class CheckFilter {
public:
  /// Appends the globs of \p Spec (later globs win).
  void add(llvm::StringRef Spec);
  bool enabled(llvm::StringRef Check) const;
  /// True when \p Glob contains no wildcard and names no known check.
  static bool unknownCheck(llvm::StringRef Glob);
  /// The globs that name no known check, for an error message.
  std::vector<std::string> unknownNames() const;

private:
  struct Glob {
    std::string Pattern;
    bool Enable = true;
  };
  std::vector<Glob> Globs;
};

/// The checks streamsafe-py runs (default-stream-launch is C++ only).
const std::vector<std::string> &pythonChecks();

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_CHECKFILTER_H
