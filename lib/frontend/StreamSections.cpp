//===--- StreamSections.cpp - Methods that open and close a section -------===//
//
// Reads a class's methods into the section rule (lib/lower/StreamSections.h):
// `Begin()` saves the current stream in a member and sets another, `End()`
// sets the saved one back (docs/design.md, "Streams in objects and
// parameters").
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe {

namespace {

/// The member `F` of `F = ...` or `this->F = ...` (null: another target).
const FieldDecl *memberOf(const Expr *E) {
  const auto *ME =
      dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

bool setsCurrent(const CallExpr *CE, ApiLookup &Table) {
  ApiEffect E = Table.lookup(CE->getDirectCallee()).Effect;
  return (E == ApiEffect::SetCurrentStream ||
          E == ApiEffect::ConfiguredSetCurrent) &&
         CE->getNumArgs() >= 1;
}

} // namespace

const lower::StreamSections &ObjectStreams::sections(const CXXRecordDecl *RD) {
  auto [It, New] = Sections.try_emplace(RD->getCanonicalDecl());
  if (!New)
    return It->second;
  lower::StreamSections &C = It->second;
  if (!RD->hasDefinition())
    return C;
  for (const CXXMethodDecl *MD : RD->getDefinition()->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def->getBody())
      continue;
    lower::SectionMethod M;
    llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S || isa<LambdaExpr>(S))
        continue;
      const Expr *Target = nullptr, *Value = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign)
        Target = BO->getLHS(), Value = BO->getRHS();
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
          OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        Target = OC->getArg(0), Value = OC->getArg(1);
      if (const FieldDecl *F = memberOf(Target);
          F && isCurrentStream(Value, Table))
        M.Saves.push_back(F->getNameAsString());
      if (const auto *CE = dyn_cast<CallExpr>(S);
          CE && setsCurrent(CE, Table)) {
        const FieldDecl *F = memberOf(streamOperand(CE->getArg(0), Table));
        M.Sets.push_back(F ? F->getNameAsString() : std::string());
      }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
    C.add(Def->getCanonicalDecl(), std::move(M));
  }
  return C;
}

bool ObjectStreams::opensSection(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && sections(MD->getParent()).opens(FD->getCanonicalDecl());
}

bool ObjectStreams::savedCurrent(const FieldDecl *F) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  return RD && sections(RD).savesCurrent(F->getName());
}

} // namespace streamsafe
