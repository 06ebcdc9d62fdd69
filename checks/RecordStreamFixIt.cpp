//===--- RecordStreamFixIt.cpp - The fix of a missing record_stream ------===//

#include "checks/RecordStreamFixIt.h"
#include "lib/report/Wording.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

// Where "t.record_stream(s);" goes: on a new line after \p S, indented like
// it. Invalid when the statement comes from a macro.
static SourceLocation insertionPoint(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
    return {};
  SourceLocation AfterSemi =
      isa<DeclStmt>(S)
          ? Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, Ctx.getLangOpts())
          : Lexer::findLocationAfterToken(S->getEndLoc(), tok::semi, SM,
                                          Ctx.getLangOpts(), false);
  if (AfterSemi.isInvalid())
    return {};
  // Insert at the end of the line, so a trailing comment stays with its
  // statement; only when nothing but a comment follows the semicolon.
  auto [File, Offset] = SM.getDecomposedLoc(AfterSemi);
  StringRef Rest = SM.getBufferData(File).substr(Offset);
  StringRef Line = Rest.take_until([](char C) { return C == '\n'; });
  StringRef Tail = Line.ltrim();
  if (!Tail.empty() && !Tail.starts_with("//"))
    return {};
  return AfterSemi.getLocWithOffset(Line.size());
}

// The statement directly inside a compound statement that holds \p S,
// where a new statement can be inserted after it.
static const Stmt *statementOf(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *Cur = S; Cur;) {
    const Stmt *P = Parents.getParent(Cur);
    if (!P)
      return nullptr;
    if (isa<CompoundStmt>(P))
      return Cur;
    Cur = P;
  }
  return nullptr;
}

// Whether \p D can be named at \p At: a parameter of the function, or a
// variable declared before \p At in a compound statement around it.
static bool inScopeAt(const NamedDecl *D, const Stmt *At,
                      const FunctionDecl &FD, const ParentMap &Parents) {
  if (isa<ParmVarDecl>(D))
    return D->getDeclContext() == &FD;
  if (!isa<VarDecl>(D))
    return false;
  for (const Stmt *P = Parents.getParent(At); P; P = Parents.getParent(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    for (const Stmt *Child : CS->body()) {
      if (const auto *DS = dyn_cast<DeclStmt>(Child))
        for (const Decl *Declared : DS->decls())
          if (Declared == D)
            return true;
      if (Child == At)
        break;
    }
  }
  return false;
}

std::optional<FixItHint>
recordStreamFixIt(const FunctionResult &R,
                  const finding::MissingRecordStream &F, const FunctionDecl &FD,
                  ASTContext &Ctx) {
  const NamedDecl *StreamVar = R.decl(F.LastForeignUse.Stream.Named);
  const NamedDecl *TensorVar = R.decl(F.Tensor);
  if (!F.SingleOtherStream || !StreamVar || !TensorVar || !FD.getBody())
    return std::nullopt;
  ParentMap Parents(FD.getBody());
  const Stmt *After = statementOf(R.stmt(F.LastForeignUse.Site), Parents);
  if (!After || !inScopeAt(StreamVar, After, FD, Parents) ||
      !inScopeAt(TensorVar, After, FD, Parents))
    return std::nullopt;
  SourceLocation Loc = insertionPoint(After, Ctx);
  if (Loc.isInvalid())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Col = SM.getSpellingColumnNumber(After->getBeginLoc());
  std::string Text = "\n" + std::string(Col ? Col - 1 : 0, ' ') +
                     report::tensorName(*R.IR, F.Tensor) + ".record_stream(" +
                     StreamVar->getNameAsString() + ");";
  return FixItHint::CreateInsertion(Loc, Text);
}

} // namespace clang::tidy::streamsafe
