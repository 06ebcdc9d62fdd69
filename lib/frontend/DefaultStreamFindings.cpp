//===--- DefaultStreamFindings.cpp - Default-stream work as findings ------===//

#include "lib/frontend/DefaultStreamFindings.h"
#include "clang/AST/Decl.h"

namespace streamsafe {

namespace {

class Builder {
public:
  DefaultStreamFindings run(llvm::ArrayRef<DefaultStreamWork> Work) {
    for (const DefaultStreamWork &W : Work)
      Out.Findings.emplace_back(toFinding(W));
    return std::move(Out);
  }

private:
  finding::DefaultStreamLaunch toFinding(const DefaultStreamWork &W) {
    finding::DefaultStreamLaunch F;
    F.Work = W.Kind;
    F.At = site(W.Loc);
    F.Api = W.Api.str();
    F.AsyncApi = W.AsyncApi.str();
    F.Origin = W.Stream.Origin;
    F.StreamVar = var(W.Stream.Via);
    F.Policy = W.Policy;
    F.PolicyVar = var(W.PolicyVar);
    F.UnusedCurrentStream = var(W.UnusedCurrentStream);
    if (W.MacroBody.isValid()) {
      F.MacroBody = site(W.MacroBody);
      F.MacroName = W.MacroName.str();
    }
    for (const StreamParameterStep &S : W.Through) {
      finding::DefaultStreamLaunch::Step Step;
      Step.Function = S.Function->getNameAsString();
      Step.Param = S.Param.str();
      Step.At = site(S.At);
      if (S.PassedTo)
        Step.PassedTo = S.PassedTo->getNameAsString();
      Step.Work = S.Work;
      Step.WorkApi = S.Api.str();
      F.Through.push_back(std::move(Step));
    }
    F.DefaultArgument = W.DefaultArgument;
    if (W.Member) {
      F.MemberInitializedAt = site(W.MemberInitializedAt);
      if (W.UncalledSetter) {
        F.UncalledSetter = W.UncalledSetter->getNameAsString();
        F.UncalledSetterAt = site(W.UncalledSetter->getLocation());
      }
    }
    return F;
  }

  SiteId site(clang::SourceLocation Loc) {
    Site S;
    S.Kind = SiteKind::Other;
    S.Loc = Loc.getRawEncoding();
    return Out.IR.Sites.add(S);
  }

  finding::DeclaredVar var(const clang::VarDecl *D) {
    if (!D)
      return {};
    Variable V;
    V.Name = D->getName().str();
    V.Decl = D;
    Out.IR.Vars.push_back(V);
    return {static_cast<VarId>(Out.IR.Vars.size() - 1), site(D->getLocation())};
  }

  DefaultStreamFindings Out;
};

} // namespace

DefaultStreamFindings
defaultStreamFindings(llvm::ArrayRef<DefaultStreamWork> Work) {
  return Builder().run(Work);
}

} // namespace streamsafe
