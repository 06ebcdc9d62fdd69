//===--- LoadTimeStreams.cpp - Streams captured when a library loads ------===//

#include "lib/frontend/LoadTimeStreams.h"
#include "lib/frontend/DefaultStreamScan.h"
#include "lib/frontend/VariableChanges.h"

using namespace clang;

namespace streamsafe {

static bool isNamespaceScope(const VarDecl &V) {
  return V.hasGlobalStorage() && !V.isStaticLocal() &&
         V.getDeclContext()->getRedeclContext()->isFileContext();
}

// Every use of a variable of namespace scope in the code it visits. A
// template's uses are judged in its instantiations: in the pattern, a read
// has no lvalue-to-rvalue conversion to tell it from a change.
class LoadTimeStreams::Uses : public VariableChanges<Uses> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool tracks(const VarDecl &V) const { return isNamespaceScope(V); }
  bool TraverseDecl(Decl *D) {
    if (const auto *DC = dyn_cast_or_null<DeclContext>(D);
        DC && DC->isDependentContext())
      return true;
    return VariableChanges<Uses>::TraverseDecl(D);
  }
  void finish() { finishChanges(); }
};

LoadTimeStreams::LoadTimeStreams(ASTContext &Ctx, ApiTable &Table)
    : Ctx(Ctx), Table(Table) {}

LoadTimeStreams::~LoadTimeStreams() = default;

bool LoadTimeStreams::holdsLoadTimeStream(const VarDecl &V) {
  const VarDecl *Def = V.getDefinition();
  if (!Def || !isNamespaceScope(*Def) || !Def->getInit() ||
      (Def->isExternallyVisible() && !Def->getType().isConstQualified()) ||
      spelledOrigin(Def->getInit(), Table) != StreamOrigin::Current)
    return false;
  if (!Changes) {
    Changes = std::make_unique<Uses>();
    const SourceManager &SM = Ctx.getSourceManager();
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        Changes->TraverseDecl(D);
    Changes->finish();
  }
  return llvm::none_of(
      Def->redecls(), [&](const VarDecl *R) { return Changes->mayChange(*R); });
}

} // namespace streamsafe
