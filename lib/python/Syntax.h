//===--- Syntax.h - Python source parsed by tree-sitter ---------*- C++ -*-===//
//
// A Python file and its tree-sitter syntax tree, with the few node helpers
// the lowering needs. The grammar is tree-sitter-python's generated parser
// (fetched by scripts/setup.sh into .tools/, compiled into the build).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_SYNTAX_H
#define STREAMSAFE_LIB_PYTHON_SYNTAX_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <tree_sitter/api.h>
#include <utility>
#include <vector>

namespace streamsafe::py {

/// A 1-based line and column (columns count bytes, as clang's do).
struct Position {
  unsigned Line = 0;
  unsigned Column = 0;
};

class SourceFile {
public:
  SourceFile(std::string Path, std::string Text);
  ~SourceFile();
  SourceFile(const SourceFile &) = delete;
  SourceFile &operator=(const SourceFile &) = delete;

  /// Parses the text; false when the runtime refuses the grammar. Valid
  /// Python the grammar rejects is parsed again with parentheses added
  /// (SyntaxRepair.cpp): text() and the tree are then of the repaired text.
  bool parse();
  /// Where the first syntax error is, if the tree has one (as written).
  bool firstError(Position &At) const;
  /// How many levels the tree nests below its root; \p Deepest is where
  /// its deepest node begins (as written). Counted without recursion.
  unsigned depth(Position &Deepest) const;
  /// Where position \p P of the parsed text is in the file as written: the
  /// same, except after a parenthesis a repair inserted on its line.
  Position original(Position P) const { return mapToWritten(P, Inserted); }
  /// How many tuples were parenthesised so that the grammar accepts them.
  unsigned repairs() const { return Repairs; }

  TSNode root() const { return ts_tree_root_node(Tree); }
  const std::string &path() const { return Path; }
  const std::string &text() const { return Text; }
  /// The source text of \p N (a node of this file, or of one linked to
  /// it).
  llvm::StringRef text(TSNode N) const;
  /// Lets text() read the nodes of \p Other too: the module of a helper
  /// that runs in place (lib/python/Modules.h). \p Other must outlive this.
  void link(const SourceFile &Other) const;
  /// Whether \p N is a node of this file's own tree.
  bool owns(TSNode N) const { return N.tree == Tree; }
  /// The line of \p Line (1-based), without its newline.
  llvm::StringRef line(unsigned Line) const;

private:
  using Inserts = std::vector<std::pair<uint32_t, uint32_t>>;

public:
  /// A parenthesis a repair writes at a byte, over a blank or inserted.
  struct Edit {
    uint32_t Byte = 0;
    char C = '(';
    bool Replace = false;
  };

private:
  /// One round of repairs (SyntaxRepair.cpp); false when none helps.
  bool repair();
  /// Parses the text with \p Edits made; keeps it when the parse gets
  /// further than \p Before (the first token in error, as written).
  bool tryEdits(std::vector<Edit> Edits, Position Before);
  static Position mapToWritten(Position P, const Inserts &I);

  std::string Path;
  std::string Text;
  TSParser *Parser = nullptr;
  TSTree *Tree = nullptr;
  /// Files whose nodes text() reads too (link()).
  mutable std::vector<const SourceFile *> Linked;
  /// The characters repairs inserted: 0-based row and column in Text.
  Inserts Inserted;
  unsigned Repairs = 0;
};

//===-- Node helpers -----------------------------------------------------===//

inline llvm::StringRef type(TSNode N) {
  return ts_node_is_null(N) ? llvm::StringRef() : ts_node_type(N);
}
inline bool is(TSNode N, llvm::StringRef T) { return type(N) == T; }
inline TSNode field(TSNode N, const char *Name) {
  if (ts_node_is_null(N))
    return N;
  return ts_node_child_by_field_name(N, Name, llvm::StringRef(Name).size());
}
/// The named children of \p N (none for a null node).
std::vector<TSNode> children(TSNode N);
/// The children of \p N in field \p Name (a field may repeat).
std::vector<TSNode> fieldChildren(TSNode N, const char *Name);
/// Where \p N begins (1-based).
Position start(TSNode N);
/// The last token of \p N that is not a comment (a block's trailing
/// comments are not code).
TSNode lastToken(TSNode N);
/// The position just after the last token of \p N: a scope's end.
Position endOf(TSNode N);
/// Strips parentheses.
TSNode unparen(TSNode N);
/// True for the literal True.
bool literalTrue(const SourceFile &F, TSNode N);
/// Whether the comparison \p N compares identities only (`a is b`, `a is
/// not None`): a bool of the host, whatever its operands are (no tensor
/// op runs, unlike `t == u`).
bool identityComparison(const SourceFile &F, TSNode N);
/// The text of a plain one-line string literal (`"x"`, `'x'`: x); null for
/// any other node.
llvm::StringRef plainString(TSNode N, const SourceFile &F);
/// Whether \p N is inside a `with` statement of \p Def (where the current
/// stream may be another one).
bool insideWith(TSNode N, TSNode Def);
/// Whether \p Item of a subscript is `:` alone, a whole dimension.
bool wholeSlice(TSNode Item);
/// Whether \p N lies inside a loop (`for`, `while`) below \p Top.
bool inLoopBelow(TSNode N, TSNode Top);
/// Whether \p A and \p B lie in two arms of one `if` (its body, an
/// `elif`, its `else`): no run passes both.
bool exclusiveArms(TSNode A, TSNode B);
/// Whether every use of \p Name in \p Def's own code names a member of
/// it (`h.t`, `d["k"]`), besides its bindings: it is never handed on,
/// returned or stored whole.
bool usedOnlyThroughMembers(TSNode Def, llvm::StringRef Name,
                            const SourceFile &F);
/// Whether \p Def is decorated with `@staticmethod` and nothing else.
bool staticMethod(TSNode Def, const SourceFile &F);

/// Whether \p N is `Self.<name>` (Self a method's first parameter): the
/// name is put in \p Attr.
bool selfAttribute(TSNode N, llvm::StringRef Self, const SourceFile &F,
                   llvm::StringRef &Attr);

/// The operator of the comparison \p Cond between \p Left and \p Right as
/// written, its blanks and line continuations left out (`isnot`, `!=`).
std::string operatorBetween(TSNode Cond, TSNode Left, TSNode Right,
                            const SourceFile &F);

/// The def whose own code \p N is in (null: module level, a lambda's or a
/// class body's).
TSNode enclosingDef(TSNode N);

/// Visits \p N and the nodes below it, \p N first, not descending into a
/// node (other than \p N) for which \p Skip holds.
template <typename SkipFn, typename Fn>
void walkNodes(TSNode N, SkipFn Skip, Fn Visit) {
  std::vector<TSNode> Work{N};
  while (!Work.empty()) {
    TSNode X = Work.back();
    Work.pop_back();
    if (ts_node_is_null(X) || (X.id != N.id && Skip(X)))
      continue;
    Visit(X);
    for (TSNode C : children(X))
      Work.push_back(C);
  }
}

/// Visits every node of \p N's own code (not of nested defs, lambdas or
/// classes), \p N first.
template <typename Fn> void ownCode(TSNode N, Fn Visit) {
  walkNodes(
      N,
      [](TSNode X) {
        llvm::StringRef T = type(X);
        return T == "function_definition" || T == "lambda" ||
               T == "class_definition";
      },
      Visit);
}

/// Visits every node of \p N, nested defs, lambdas and classes too.
template <typename Fn> void everyNode(TSNode N, Fn Visit) {
  walkNodes(N, [](TSNode) { return false; }, Visit);
}

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_SYNTAX_H
