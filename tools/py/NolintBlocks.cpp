//===--- NolintBlocks.cpp - NOLINTBEGIN/NOLINTEND in Python ---------------===//

#include "tools/py/NolintBlocks.h"
#include "tools/py/CheckFilter.h"
#include <algorithm>
#include <cctype>

namespace streamsafe::py {

static bool before(Position A, Position B) {
  return A.Line < B.Line || (A.Line == B.Line && A.Column < B.Column);
}

static bool wordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

NolintBlocks::NolintBlocks(const SourceFile &F) {
  llvm::StringRef Text = F.text();
  // Most files have no block: skip the walk over the tree.
  if (!Text.contains("NOLINTBEGIN") && !Text.contains("NOLINTEND"))
    return;
  // Only real comments count (not the text of a string), in source order.
  std::vector<TSNode> Todo{F.root()};
  std::vector<TSNode> Comments;
  while (!Todo.empty()) {
    TSNode N = Todo.back();
    Todo.pop_back();
    if (is(N, "comment")) {
      Comments.push_back(N);
      continue;
    }
    for (uint32_t I = ts_node_child_count(N); I-- > 0;)
      Todo.push_back(ts_node_child(N, I));
  }
  for (TSNode C : Comments)
    scanComment(F, C);
  formBlocks();
}

void NolintBlocks::scanComment(const SourceFile &F, TSNode Comment) {
  llvm::StringRef Text = F.text(Comment);
  Position Start = F.original(start(Comment));
  for (size_t At = Text.find("NOLINT"); At != llvm::StringRef::npos;
       At = Text.find("NOLINT", At + 1)) {
    llvm::StringRef Rest = Text.substr(At + 6);
    Marker M;
    if (Rest.consume_front("BEGIN"))
      M.Begin = true;
    else if (!Rest.consume_front("END"))
      continue; // NOLINT or NOLINTNEXTLINE: Nolint.cpp reads those.
    if (!Rest.empty() && wordChar(Rest[0]))
      continue;
    if (Rest.starts_with("(")) {
      size_t Close = Rest.find(')');
      if (Close == llvm::StringRef::npos)
        continue; // Not a marker, as in clang-tidy.
      std::string Checks;
      for (char C : Rest.slice(1, Close))
        if (!std::isspace(static_cast<unsigned char>(C)))
          Checks += C;
      M.Checks = Checks;
    }
    // A comment is one line: the column is the comment's plus the offset.
    M.At = {Start.Line, Start.Column + static_cast<unsigned>(At)};
    Markers.push_back(M);
  }
}

void NolintBlocks::formBlocks() {
  // Nested blocks close innermost first: a stack of open BEGINs.
  std::vector<Marker> Open;
  std::vector<Marker> Unmatched;
  for (const Marker &M : Markers) {
    if (M.Begin) {
      Open.push_back(M);
    } else if (!Open.empty() && Open.back().Checks == M.Checks) {
      Blocks.push_back({Open.back().At, M.At, M.Checks});
      Open.pop_back();
    } else {
      Unmatched.push_back(M);
    }
  }
  Unmatched.insert(Unmatched.end(), Open.begin(), Open.end());
  std::sort(
      Unmatched.begin(), Unmatched.end(),
      [](const Marker &A, const Marker &B) { return before(A.At, B.At); });
  for (const Marker &M : Unmatched)
    Errors.push_back(
        {M.At, M.Begin ? "unmatched 'NOLINTBEGIN' comment without a "
                         "subsequent 'NOLINTEND' comment"
                       : "unmatched 'NOLINTEND' comment without a previous "
                         "'NOLINTBEGIN' comment"});
}

bool NolintBlocks::suppresses(Position At, llvm::StringRef Check) const {
  for (const Block &B : Blocks) {
    if (!before(B.Begin, At) || !before(At, B.End))
      continue;
    if (!B.Checks)
      return true;
    CheckFilter Filter;
    Filter.add(*B.Checks);
    if (Filter.enabled(Check))
      return true;
  }
  return false;
}

} // namespace streamsafe::py
