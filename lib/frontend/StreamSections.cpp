//===--- StreamSections.cpp - Methods that open and close a section -------===//
//
// A class may split a stream guard across two methods: `Begin()` saves the
// current stream in a member and sets another, `End()` sets the saved one
// back (docs/design.md, "Streams in objects and parameters"). The stream
// the opener leaves set is the section's, closed by the caller's call of
// the partner: it is not reported inside the opener, and setting the saved
// member back is a restore. Where a caller opens a section it does not
// close on some path, the methods run in place there and it is reported.
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

const ObjectStreams::ClassSections &
ObjectStreams::sections(const CXXRecordDecl *RD) {
  auto [It, New] = Sections.try_emplace(RD->getCanonicalDecl());
  if (!New)
    return It->second;
  ClassSections &C = It->second;
  if (!RD->hasDefinition())
    return C;
  for (const CXXMethodDecl *MD : RD->getDefinition()->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def->getBody())
      continue;
    MethodSections &M = C.Methods[Def->getCanonicalDecl()];
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
          F && isCurrentStream(Value, Table)) {
        C.Saved.insert(F);
        M.Saves.insert(F);
      }
      if (const auto *CE = dyn_cast<CallExpr>(S);
          CE && setsCurrent(CE, Table)) {
        const FieldDecl *F = memberOf(streamOperand(CE->getArg(0), Table));
        if (F)
          C.SetFrom.insert(F);
        M.Sets.push_back(F);
      }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  return C;
}

bool ObjectStreams::opensSection(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  const ClassSections &C = sections(MD->getParent());
  auto It = C.Methods.find(FD->getCanonicalDecl());
  if (It == C.Methods.end())
    return false;
  // It sets a stream other than a saved one (a side stream member, a
  // parameter, a pool stream) ...
  if (llvm::none_of(It->second.Sets, [&](const FieldDecl *F) {
        return !F || !C.Saved.contains(F);
      }))
    return false;
  // ... after saving the current one where the class sets it back.
  for (const FieldDecl *F : It->second.Saves)
    if (C.SetFrom.contains(F))
      return true;
  return false;
}

bool ObjectStreams::savedCurrent(const FieldDecl *F) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  return RD && sections(RD).Saved.contains(F);
}

} // namespace streamsafe
