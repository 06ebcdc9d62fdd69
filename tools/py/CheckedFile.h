//===--- CheckedFile.h - One Python file, checked as asked ----*- C++ -*-===//
//-*-===//
//
// What streamsafe-py reports for one file, whether it came from disk (the
// command line) or from an editor's buffer (--lsp): its .clang-tidy's
// options and Checks:, --checks, the suppression comments, the errors that
// keep it from being analysed and the scopes given up on. Both drivers
// word the same result.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_CHECKEDFILE_H
#define STREAMSAFE_TOOLS_PY_CHECKEDFILE_H

#include "lib/python/Analysis.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace streamsafe::py {

/// An error of the file: it is not analysed (or, for an unmatched
/// NOLINTBEGIN, only its suppressions are wrong). `At` is absent where the
/// error has no place in the file: its configuration cannot be read, and
/// `File` names the configuration.
struct FileError {
  std::optional<Position> At;
  std::string File; ///< empty: the checked file
  std::string Message;
  std::string Check; ///< "clang-tidy-nolint" for the NOLINT errors
};

struct CheckedFile {
  std::vector<FileError> Errors;
  /// Enabled, unsuppressed warnings, each followed by its notes.
  std::vector<std::vector<Diagnostic>> Findings;
  unsigned Suppressed = 0;
  /// Scopes the analysis gave up on (the budget).
  std::vector<std::string> Skipped;
  /// Result.PathBound: where paths were joined at the bound.
  std::vector<std::string> PathBound;
  /// The tree-sitter runtime refuses the compiled-in grammar: nothing can
  /// be parsed (a broken installation, not a property of the file).
  bool GrammarRefused = false;
};

/// Checks \p Text as the file \p Path (whose .clang-tidy applies), with
/// the --checks globs \p CheckArgs after the file's Checks:.
CheckedFile checkFile(const std::string &Path, std::string Text,
                      const PyOptions &Base,
                      llvm::ArrayRef<std::string> CheckArgs);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_CHECKEDFILE_H
