//===--- MissingRecordStreamCheck.cpp - streamsafe-missing-record-stream --===//

#include "checks/MissingRecordStreamCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
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

void MissingRecordStreamCheck::report(const FunctionResult &R, const Finding &F,
                                      ASTContext &Ctx) {
  if (F.Kind != FindingKind::MissingRecordStream)
    return;
  const Site &Use = R.Sites[F.Access.Site];
  {
    auto D =
        diag(Use.Loc, "tensor '%0' is used on %1 but was allocated on %2; when "
                      "its last reference dies the caching allocator may reuse "
                      "its memory while %1 is still using it")
        << F.Tensor << F.Access.Stream << F.Prior.Stream;
    if (F.InsertAfter) {
      SourceLocation Loc = insertionPoint(F.InsertAfter, Ctx);
      if (Loc.isValid()) {
        const SourceManager &SM = Ctx.getSourceManager();
        unsigned Col = SM.getSpellingColumnNumber(F.InsertAfter->getBeginLoc());
        std::string Text = "\n" + std::string(Col ? Col - 1 : 0, ' ') +
                           F.Tensor + ".record_stream(" + F.StreamVar + ");";
        D << FixItHint::CreateInsertion(Loc, Text);
      }
    }
  }
  noteStreamSetAt(R, F.Access, "is");
  diag(R.Sites[F.Prior.Site].Loc, "'%0' is allocated on %1 here",
       DiagnosticIDs::Note)
      << F.Tensor << F.Prior.Stream;
  if (F.FreedAt != NoSite)
    diag(R.Sites[F.FreedAt].Loc,
         "the last reference to '%0' dies here, with no record_stream on %1 "
         "and no synchronization with %2",
         DiagnosticIDs::Note)
        << F.Tensor << F.Access.Stream << F.Prior.Stream;
}

} // namespace clang::tidy::streamsafe
