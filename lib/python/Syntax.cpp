//===--- Syntax.cpp - Python source parsed by tree-sitter -----------------===//

#include "lib/python/Syntax.h"
#include "llvm/ADT/STLExtras.h"

extern "C" const TSLanguage *tree_sitter_python(void);

namespace streamsafe::py {

SourceFile::SourceFile(std::string Path, std::string Text)
    : Path(std::move(Path)), Text(std::move(Text)) {
  // Python ends a line at "\n", "\r\n" or a lone "\r"; the grammar knows
  // only the first two. A lone "\r" becomes "\n": one byte for one, so
  // every offset and column stays, and lines count as Python counts them.
  for (size_t K = 0; K < this->Text.size(); ++K)
    if (this->Text[K] == '\r' &&
        (K + 1 == this->Text.size() || this->Text[K + 1] != '\n'))
      this->Text[K] = '\n';
}

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

unsigned SourceFile::depth(Position &Deepest) const {
  unsigned Depth = 0, Max = 0;
  TSTreeCursor C = ts_tree_cursor_new(root());
  Deepest = start(root());
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&C)) {
      if (++Depth > Max) {
        Max = Depth;
        Deepest = start(ts_tree_cursor_current_node(&C));
      }
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&C)) {
      if (!ts_tree_cursor_goto_parent(&C)) {
        ts_tree_cursor_delete(&C);
        Deepest = original(Deepest);
        return Max;
      }
      --Depth;
    }
  }
}

llvm::StringRef SourceFile::text(TSNode N) const {
  if (ts_node_is_null(N))
    return "";
  if (N.tree != Tree)
    for (const SourceFile *O : Linked)
      if (O->owns(N))
        return O->text(N);
  uint32_t B = ts_node_start_byte(N), E = ts_node_end_byte(N);
  return llvm::StringRef(Text).slice(B, E);
}

void SourceFile::link(const SourceFile &Other) const {
  if (&Other != this && !llvm::is_contained(Linked, &Other))
    Linked.push_back(&Other);
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

// The last token of \p N that is not a comment: a block's comments (a
// trailing one, or one nested in its last statement) are not code.
TSNode lastToken(TSNode N) {
  for (;;) {
    uint32_t Count = ts_node_child_count(N);
    TSNode Last = {};
    for (uint32_t K = Count; K > 0; --K) {
      TSNode C = ts_node_child(N, K - 1);
      if (!is(C, "comment") && ts_node_end_byte(C) > ts_node_start_byte(C)) {
        Last = C;
        break;
      }
    }
    if (ts_node_is_null(Last))
      return N;
    N = Last;
  }
}

// The position just after the last token of \p N: a scope's end.
Position endOf(TSNode N) {
  if (ts_node_is_null(N))
    return {1, 1};
  TSPoint P = ts_node_end_point(lastToken(N));
  return {P.row + 1, P.column + 1};
}

Position start(TSNode N) {
  if (ts_node_is_null(N))
    return {1, 1};
  TSPoint P = ts_node_start_point(N);
  return {P.row + 1, P.column + 1};
}

bool insideWith(TSNode N, TSNode Def) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P) && P.id != Def.id;
       P = ts_node_parent(P))
    if (is(P, "with_statement"))
      return true;
  return false;
}

bool wholeSlice(TSNode Item) {
  Item = unparen(Item);
  return is(Item, "slice") && ts_node_named_child_count(Item) == 0;
}

bool inLoopBelow(TSNode N, TSNode Top) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P) && P.id != Top.id;
       P = ts_node_parent(P))
    if (is(P, "for_statement") || is(P, "while_statement"))
      return true;
  return false;
}

bool exclusiveArms(TSNode A, TSNode B) {
  if (ts_node_is_null(A) || ts_node_is_null(B))
    return false;
  // A's ancestors, each with its child on the way to A.
  std::vector<std::pair<TSNode, TSNode>> Up;
  for (TSNode C = A, P = ts_node_parent(A); !ts_node_is_null(P);
       C = P, P = ts_node_parent(P))
    Up.push_back({P, C});
  auto Arm = [](TSNode X) {
    return is(X, "block") || is(X, "elif_clause") || is(X, "else_clause");
  };
  for (TSNode C = B, P = ts_node_parent(B); !ts_node_is_null(P);
       C = P, P = ts_node_parent(P))
    for (auto [Ancestor, Toward] : Up)
      if (Ancestor.id == P.id)
        return is(P, "if_statement") && Toward.id != C.id && Arm(Toward) &&
               Arm(C);
  return false;
}

bool selfAttribute(TSNode N, llvm::StringRef Self, const SourceFile &F,
                   llvm::StringRef &Attr) {
  N = unparen(N);
  if (!is(N, "attribute") || !is(unparen(field(N, "object")), "identifier") ||
      F.text(unparen(field(N, "object"))) != Self)
    return false;
  Attr = F.text(field(N, "attribute"));
  return true;
}

llvm::StringRef plainString(TSNode N, const SourceFile &F) {
  llvm::StringRef T = F.text(N);
  if (!is(N, "string") || T.size() < 2 || (T[0] != '"' && T[0] != '\'') ||
      T.back() != T[0] || T.starts_with("\"\"\"") || T.starts_with("'''"))
    return {};
  return T.drop_front().drop_back();
}

bool literalTrue(const SourceFile &F, TSNode N) {
  return is(N, "true") || (!ts_node_is_null(N) && F.text(N) == "True");
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

bool identityComparison(const SourceFile &F, TSNode N) {
  if (!is(N, "comparison_operator"))
    return false;
  std::vector<TSNode> Operands = children(N);
  if (Operands.size() < 2)
    return false;
  // The operators are the text between the operands, blanks and line
  // continuations left out.
  for (size_t K = 1; K < Operands.size(); ++K) {
    llvm::StringRef Between = F.text(N).substr(
        ts_node_end_byte(Operands[K - 1]) - ts_node_start_byte(N),
        ts_node_start_byte(Operands[K]) - ts_node_end_byte(Operands[K - 1]));
    std::string Op;
    for (char C : Between)
      if (C != ' ' && C != '\t' && C != '\n' && C != '\\' && C != '\r' &&
          C != '(' && C != ')')
        Op += C;
    if (Op != "is" && Op != "isnot")
      return false;
  }
  return true;
}

bool staticMethod(TSNode Def, const SourceFile &F) {
  TSNode D = ts_node_parent(Def);
  if (!is(D, "decorated_definition"))
    return false;
  std::vector<TSNode> Decorators;
  for (TSNode C : children(D))
    if (is(C, "decorator"))
      Decorators.push_back(C);
  return Decorators.size() == 1 && F.text(Decorators[0]) == "@staticmethod";
}

std::string operatorBetween(TSNode Cond, TSNode Left, TSNode Right,
                            const SourceFile &F) {
  std::string Op;
  for (char C :
       F.text(Cond).substr(ts_node_end_byte(Left) - ts_node_start_byte(Cond),
                           ts_node_start_byte(Right) - ts_node_end_byte(Left)))
    if (C != ' ' && C != '\t' && C != '\n' && C != '\\' && C != '\r')
      Op += C;
  return Op;
}

bool usedOnlyThroughMembers(TSNode Def, llvm::StringRef Name,
                            const SourceFile &F) {
  // A closure that names it keeps all of it alive.
  unsigned Own = 0, All = 0;
  auto Count = [&](unsigned &C) {
    return [&, Ptr = &C](TSNode N) {
      *Ptr += is(N, "identifier") && F.text(N) == Name;
    };
  };
  ownCode(Def, Count(Own));
  everyNode(Def, Count(All));
  if (Own != All)
    return false;
  bool Whole = false;
  ownCode(Def, [&](TSNode N) {
    if (Whole || !is(N, "identifier") || F.text(N) != Name)
      return;
    TSNode Up = ts_node_parent(N);
    // h.t, d["k"]: a member; h = ... (its binding) and h.t = ...: no use.
    bool Member = (is(Up, "attribute") && ts_node_eq(field(Up, "object"), N)) ||
                  (is(Up, "subscript") && ts_node_eq(field(Up, "value"), N));
    bool Bound = is(Up, "assignment") && ts_node_eq(field(Up, "left"), N);
    Whole = !Member && !Bound;
  });
  return !Whole;
}

TSNode enclosingDef(TSNode N) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P); P = ts_node_parent(P))
    if (is(P, "function_definition"))
      return P;
    else if (is(P, "lambda") || is(P, "class_definition"))
      return {};
  return {};
}

} // namespace streamsafe::py
