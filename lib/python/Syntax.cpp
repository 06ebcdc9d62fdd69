//===--- Syntax.cpp - Python source parsed by tree-sitter -----------------===//

#include "lib/python/Syntax.h"

extern "C" const TSLanguage *tree_sitter_python(void);

namespace streamsafe::py {

SourceFile::SourceFile(std::string Path, std::string Text)
    : Path(std::move(Path)), Text(std::move(Text)) {}

SourceFile::~SourceFile() {
  if (Tree)
    ts_tree_delete(Tree);
  if (Parser)
    ts_parser_delete(Parser);
}

bool SourceFile::parse() {
  Parser = ts_parser_new();
  if (!ts_parser_set_language(Parser, tree_sitter_python()))
    return false;
  Tree = ts_parser_parse_string(Parser, nullptr, Text.data(),
                                static_cast<uint32_t>(Text.size()));
  if (!Tree)
    return false;
  // Each repair parenthesises one tuple; a file has few.
  constexpr unsigned MaxRepairs = 256;
  while (Repairs < MaxRepairs && ts_node_has_error(root()) && repair())
    ;
  return true;
}

Position SourceFile::mapToWritten(Position P, const Inserts &I) {
  unsigned Before = 0;
  for (const auto &[Row, Col] : I)
    if (Row + 1 == P.Line && Col + 1 < P.Column)
      ++Before;
  P.Column -= Before;
  return P;
}

// The first node, in source order, that is an error or a missing token.
static bool findError(TSNode N, Position &At) {
  if (!ts_node_has_error(N))
    return false;
  if (ts_node_is_missing(N) || is(N, "ERROR")) {
    At = start(N);
    return true;
  }
  uint32_t Count = ts_node_child_count(N);
  for (uint32_t I = 0; I < Count; ++I)
    if (findError(ts_node_child(N, I), At))
      return true;
  At = start(N);
  return true;
}

bool SourceFile::firstError(Position &At) const {
  if (!findError(root(), At))
    return false;
  At = original(At);
  return true;
}

llvm::StringRef SourceFile::text(TSNode N) const {
  if (ts_node_is_null(N))
    return "";
  uint32_t B = ts_node_start_byte(N), E = ts_node_end_byte(N);
  return llvm::StringRef(Text).slice(B, E);
}

llvm::StringRef SourceFile::line(unsigned Line) const {
  llvm::StringRef Rest(Text);
  for (unsigned I = 1; I < Line && !Rest.empty(); ++I)
    Rest = Rest.split('\n').second;
  return Rest.split('\n').first;
}

std::vector<TSNode> children(TSNode N) {
  std::vector<TSNode> Out;
  if (ts_node_is_null(N))
    return Out;
  uint32_t Count = ts_node_named_child_count(N);
  for (uint32_t I = 0; I < Count; ++I) {
    TSNode C = ts_node_named_child(N, I);
    if (!is(C, "comment"))
      Out.push_back(C);
  }
  return Out;
}

std::vector<TSNode> fieldChildren(TSNode N, const char *Name) {
  std::vector<TSNode> Out;
  if (ts_node_is_null(N))
    return Out;
  TSTreeCursor C = ts_tree_cursor_new(N);
  if (ts_tree_cursor_goto_first_child(&C)) {
    do {
      const char *F = ts_tree_cursor_current_field_name(&C);
      if (F && llvm::StringRef(F) == Name)
        Out.push_back(ts_tree_cursor_current_node(&C));
    } while (ts_tree_cursor_goto_next_sibling(&C));
  }
  ts_tree_cursor_delete(&C);
  return Out;
}

Position start(TSNode N) {
  if (ts_node_is_null(N))
    return {1, 1};
  TSPoint P = ts_node_start_point(N);
  return {P.row + 1, P.column + 1};
}

TSNode unparen(TSNode N) {
  while (is(N, "parenthesized_expression")) {
    std::vector<TSNode> C = children(N);
    if (C.size() != 1)
      break;
    N = C[0];
  }
  return N;
}

} // namespace streamsafe::py
