//===--- NolintBlocks.h - NOLINTBEGIN/NOLINTEND in Python -------*- C++ -*-===//
//
// `# NOLINTBEGIN` ... `# NOLINTEND`, bare or with check globs
// (`# NOLINTBEGIN(streamsafe-foo)` ... `# NOLINTEND(streamsafe-foo)`), with
// clang-tidy's semantics: blocks nest, an END closes the innermost open
// BEGIN when their check lists are the same, a warning between the two
// comments is suppressed when the list covers its check, and a BEGIN or END
// left unmatched is an error worded as clang-tidy words it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_NOLINTBLOCKS_H
#define STREAMSAFE_TOOLS_PY_NOLINTBLOCKS_H

#include "lib/python/Syntax.h"
#include <optional>
#include <string>
#include <vector>

namespace streamsafe::py {

struct NolintError {
  Position At;
  std::string Message;
};

class NolintBlocks {
public:
  /// Reads the comments of \p F (which must be parsed).
  explicit NolintBlocks(const SourceFile &F);
  /// True when a block around \p At suppresses \p Check.
  bool suppresses(Position At, llvm::StringRef Check) const;
  /// The unmatched BEGIN and END comments, in source order.
  const std::vector<NolintError> &errors() const { return Errors; }

private:
  struct Marker {
    Position At;
    bool Begin = false;
    /// The glob list between the parentheses (whitespace removed); none
    /// for a bare marker.
    std::optional<std::string> Checks;
  };
  struct Block {
    Position Begin, End;
    std::optional<std::string> Checks;
  };
  void scanComment(const SourceFile &F, TSNode Comment);
  void formBlocks();

  std::vector<Marker> Markers;
  std::vector<Block> Blocks;
  std::vector<NolintError> Errors;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_NOLINTBLOCKS_H
