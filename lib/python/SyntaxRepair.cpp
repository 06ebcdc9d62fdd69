//===--- SyntaxRepair.cpp - Valid Python the pinned grammar rejects -------===//
//
// tree-sitter-python 0.23.6 (the newest grammar of ABI 14, docs/python.md)
// rejects one form that Python accepts since 3.8: in a tuple written without
// parentheses, an unpacked operand that does not start with a name
// (`return None, *(None,) * n`, `x = 1, *[a]`, `for x in 1, *[a]:`,
// `t[1, *[a]]`). Parentheses around the tuple mean the same in each of
// these places and parse, so the file is parsed again with them added, one
// tuple at a time, as long as each repair moves the first syntax error
// further down the file (or removes it). Nothing else is repaired: a file
// that still has an error is not analysed, at that error.
//
// The parentheses take the place of a blank next to the tuple where there
// is one (`return(None, *(None,) * n)`), so no position moves; where there
// is none they are inserted, and SourceFile::original maps the columns of
// that line back to the file as written.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Syntax.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <optional>

namespace streamsafe::py {

namespace {

struct Leaf {
  llvm::StringRef Type;
  uint32_t Begin = 0, End = 0; ///< bytes
  uint32_t StartRow = 0, EndRow = 0, StartColumn = 0;
  bool InError = false;    ///< inside an ERROR node
  bool ErrorChild = false; ///< a token the error recovery skipped
  bool Missing = false;    ///< a token the error recovery made up
  int Depth = 0;           ///< brackets open before it
};

// \p ParentError: N's parent is an ERROR node (passed down: tree-sitter
// finds a parent by descending from the root).
void collectLeaves(TSNode N, bool InError, bool ParentError,
                   std::vector<Leaf> &Out) {
  bool Error = is(N, "ERROR");
  uint32_t Count = ts_node_child_count(N);
  if (Count == 0) {
    Leaf L;
    L.Type = type(N);
    L.Begin = ts_node_start_byte(N);
    L.End = ts_node_end_byte(N);
    L.StartRow = ts_node_start_point(N).row;
    L.EndRow = ts_node_end_point(N).row;
    L.StartColumn = ts_node_start_point(N).column;
    L.InError = InError || Error;
    L.Missing = ts_node_is_missing(N);
    L.ErrorChild = Error || ParentError;
    Out.push_back(L);
    return;
  }
  for (uint32_t I = 0; I < Count; ++I)
    collectLeaves(ts_node_child(N, I), InError || Error, Error, Out);
}

bool opens(const Leaf &L) {
  return L.Type == "(" || L.Type == "[" || L.Type == "{";
}
bool closes(const Leaf &L) {
  return L.Type == ")" || L.Type == "]" || L.Type == "}";
}

// What can stand right before the tuple of a statement: the tuple begins
// after it.
bool startsTuple(llvm::StringRef T) {
  // A plain list: StringSwitch's initializer-list Cases is not in LLVM 19.
  static constexpr llvm::StringLiteral Openers[] = {
      "return", "yield", "=",  "in",  "+=",  "-=", "*=", "/=", "//=",
      "%=",     "**=",   "@=", ">>=", "<<=", "&=", "^=", "|="};
  return llvm::is_contained(Openers, T);
}

// Whether a leaf ends an operand: a `[` after it is a subscript.
bool endsOperand(const Leaf &L) {
  return L.Type == "identifier" || L.Type == ")" || L.Type == "]" ||
         L.Type == "string_end" || L.Type == "none" || L.Type == "true" ||
         L.Type == "false" || L.Type == "integer" || L.Type == "float";
}

} // namespace

// The tuples around the unpacked operands the grammar refused, in source
// order, each as its first and last leaf in \p Ls.
static std::vector<std::pair<size_t, size_t>>
refusedTuples(const std::vector<Leaf> &Ls, llvm::StringRef Text) {
  std::vector<std::pair<size_t, size_t>> Out;
  for (size_t K = 1; K + 1 < Ls.size(); ++K) {
    const Leaf &Star = Ls[K];
    // The grammar's error recovery puts the star, or the operand after it,
    // in an ERROR node.
    if (Star.Type != "*" || !(Star.InError || Ls[K + 1].InError))
      continue;
    llvm::StringRef Prev = Ls[K - 1].Type;
    if (Prev != "," && Prev != "[" && !startsTuple(Prev))
      continue;
    int D = Star.Depth;
    // The tuple's first leaf: after what starts it, at the star's depth.
    size_t First = K;
    bool Subscript = false;
    while (First > 0) {
      const Leaf &P = Ls[First - 1];
      if (P.Depth == D - 1 && opens(P) && D > 0) {
        // Only a subscript's `[`: in a call, a list or a set display the
        // grammar accepts the operand, and parentheses would change what
        // the display holds.
        Subscript = P.Type == "[" && First >= 2 && endsOperand(Ls[First - 2]);
        break;
      }
      if (P.Depth == D && D == 0) {
        if (startsTuple(P.Type) || P.Type == ";" || P.Type == "comment")
          break;
        // A new logical line (no backslash before the line break).
        const Leaf &Q = Ls[First];
        if (P.EndRow < Q.StartRow && !Text.slice(P.End, Q.Begin).contains("\\"))
          break;
      }
      --First;
    }
    if (D > 0 && !Subscript)
      continue;
    if (D == 0 && (First == 0 || !startsTuple(Ls[First - 1].Type)))
      continue; // an expression statement: `1, *[a]` alone
    // Its last leaf: before what ends it, at the star's depth.
    size_t Last = K;
    bool Slice = false;
    while (Last + 1 < Ls.size()) {
      const Leaf &N = Ls[Last + 1];
      if (N.Depth == D - 1 && closes(N) && D > 0)
        break;
      if (N.Depth == D) {
        if (N.Type == ":" || N.Type == "for") {
          if (D > 0)
            Slice = true; // `t[1:2, *b]`: a slice cannot be parenthesised
          break;
        }
        if (N.Type == ";" || N.Type == "comment" || N.Type == "=" ||
            startsTuple(N.Type))
          break;
        const Leaf &P = Ls[Last];
        if (D == 0 && P.EndRow < N.StartRow &&
            !Text.slice(P.End, N.Begin).contains("\\"))
          break;
      }
      ++Last;
    }
    if (Slice || Last <= K)
      continue;
    if (!llvm::is_contained(Out, std::make_pair(First, Last)))
      Out.push_back({First, Last});
  }
  return Out;
}

// How far the parse got: the first token the error recovery skipped or
// made up, as written (none: line 0). A repair is kept when it moves this
// further down the file.
static Position frontier(const SourceFile &F, const std::vector<Leaf> &Ls) {
  for (const Leaf &L : Ls)
    if (L.ErrorChild || L.Missing)
      return F.original({L.StartRow + 1, L.StartColumn + 1});
  Position At;
  return F.firstError(At) ? At : Position();
}

static bool later(Position A, Position B) {
  return A.Line > B.Line || (A.Line == B.Line && A.Column > B.Column);
}

static std::vector<Leaf> leavesOf(const SourceFile &F) {
  std::vector<Leaf> Ls;
  collectLeaves(F.root(), false, false, Ls);
  int Depth = 0;
  for (Leaf &L : Ls) {
    if (closes(L))
      Depth = std::max(0, Depth - 1);
    L.Depth = Depth;
    if (opens(L))
      ++Depth;
  }
  return Ls;
}

static void addEdits(llvm::StringRef Text, const Leaf &First, const Leaf &Last,
                     std::vector<SourceFile::Edit> &Out) {
  // A blank next to the tuple becomes the parenthesis; else it is inserted.
  if (Last.End < Text.size() && Text[Last.End] == ' ')
    Out.push_back({Last.End, ')', true});
  else
    Out.push_back({Last.End, ')', false});
  if (First.Begin > 0 && Text[First.Begin - 1] == ' ')
    Out.push_back({First.Begin - 1, '(', true});
  else
    Out.push_back({First.Begin, '(', false});
}

bool SourceFile::repair() {
  std::vector<Leaf> Ls = leavesOf(*this);
  Position Before = frontier(*this, Ls);
  if (Before.Line == 0)
    return false;
  // Missing tokens are zero-width: not tokens of the text.
  llvm::erase_if(Ls, [](const Leaf &L) { return L.End == L.Begin; });
  std::vector<std::pair<size_t, size_t>> Tuples = refusedTuples(Ls, Text);
  if (Tuples.empty())
    return false;
  // Every refused tuple at once (a statement's error recovery may span
  // several: `x = 1, *[a]; y = 2, *[b]`), else the first alone.
  std::vector<Edit> All;
  for (const auto &[First, Last] : Tuples)
    addEdits(Text, Ls[First], Ls[Last], All);
  if (tryEdits(All, Before))
    return true;
  std::vector<Edit> One;
  addEdits(Text, Ls[Tuples[0].first], Ls[Tuples[0].second], One);
  return Tuples.size() > 1 && tryEdits(One, Before);
}

bool SourceFile::tryEdits(std::vector<Edit> Edits, Position Before) {
  // From the end of the text back, so that no edit moves another; an edit
  // where another already is is dropped.
  llvm::sort(Edits, [](const Edit &A, const Edit &B) {
    return A.Byte > B.Byte || (A.Byte == B.Byte && A.C == ')' && B.C == '(');
  });
  std::string New = Text;
  Inserts NewInserts = Inserted;
  auto Row = [&](uint32_t Byte) {
    return uint32_t(llvm::count(llvm::StringRef(New).take_front(Byte), '\n'));
  };
  auto Column = [&](uint32_t Byte) {
    size_t NL = llvm::StringRef(New).take_front(Byte).rfind('\n');
    return uint32_t(NL == llvm::StringRef::npos ? Byte : Byte - NL - 1);
  };
  std::vector<uint32_t> Done;
  for (const Edit &E : Edits) {
    if (llvm::is_contained(Done, E.Byte))
      continue;
    Done.push_back(E.Byte);
    if (E.Replace) {
      New[E.Byte] = E.C;
      continue;
    }
    uint32_t R = Row(E.Byte), Col = Column(E.Byte);
    for (auto &[IR, IC] : NewInserts)
      if (IR == R && IC >= Col)
        ++IC;
    NewInserts.push_back({R, Col});
    New.insert(New.begin() + E.Byte, E.C);
  }
  TSTree *Again = ts_parser_parse_string(Parser, nullptr, New.data(),
                                         static_cast<uint32_t>(New.size()));
  if (!Again)
    return false;
  std::swap(Text, New);
  std::swap(Tree, Again);
  std::swap(Inserted, NewInserts);
  Position After = frontier(*this, leavesOf(*this));
  if (After.Line == 0 || later(After, Before)) {
    ts_tree_delete(Again); // the tree before
    ++Repairs;
    return true;
  }
  std::swap(Text, New);
  std::swap(Tree, Again);
  std::swap(Inserted, NewInserts);
  ts_tree_delete(Again); // the repaired tree
  return false;
}

} // namespace streamsafe::py
