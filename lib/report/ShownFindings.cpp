//===--- ShownFindings.cpp - Which findings a run shows -------------------===//

#include "lib/report/ShownFindings.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::report {

bool withinHelper(const Finding &F, const Function &IR) {
  unsigned Scope = IR.Sites[F.site()].Scope;
  SiteId Paired = pairedSite(F);
  return Scope != 0 && (Paired == NoSite || (F.CallSite != NoSite &&
                                             Scope == IR.Sites[Paired].Scope));
}

std::string originOf(const Finding &F, const Function &IR,
                     llvm::function_ref<std::string(SiteId)> PlaceOf) {
  std::string Origin = PlaceOf(F.site()) + "\n" +
                       std::to_string(static_cast<unsigned>(F.kind()));
  if (VarId V = F.subject(); V != NoVar)
    Origin += "\n" + IR.var(V).Name;
  return Origin;
}

std::vector<size_t> findingsToShow(llvm::ArrayRef<ShownFinding> All) {
  auto Where = [](const ShownFinding &S) { return S.Place + "\n" + S.Check; };
  llvm::StringSet<> OwnReports;
  for (const ShownFinding &S : All)
    if (!S.WithinHelper)
      OwnReports.insert(Where(S));
  // Found by the function it reaches through its call: shown there, at
  // the place nearest to where it happens.
  llvm::StringSet<> FoundBy;
  for (const ShownFinding &S : All)
    FoundBy.insert(S.Origin + "\n" + S.Function);
  llvm::StringSet<> Seen, Origins;
  std::vector<size_t> Shown;
  for (size_t K = 0; K < All.size(); ++K) {
    const ShownFinding &S = All[K];
    if (S.WithinHelper && OwnReports.contains(Where(S)))
      continue;
    if (S.ThroughCall && !S.Callee.empty() && S.Callee != S.Function &&
        FoundBy.contains(S.Origin + "\n" + S.Callee))
      continue;
    if (S.ThroughCall && Origins.contains(S.Origin))
      continue;
    if (Seen.insert(Where(S) + "\n" + S.Text).second) {
      Shown.push_back(K);
      Origins.insert(S.Origin);
    }
  }
  return Shown;
}

} // namespace streamsafe::report
