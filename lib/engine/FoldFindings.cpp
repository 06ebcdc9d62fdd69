//===--- FoldFindings.cpp - One finding per site and cause ----------------===//

#include "lib/engine/FoldFindings.h"
#include "llvm/ADT/STLExtras.h"
#include <set>
#include <tuple>

namespace streamsafe {

namespace {

// What tells apart findings of one kind at one site: the site each pairs
// with its own, the tensor or event it names, and the site it relates to
// (the spawn, the exit, the declaration, where the last reference dies, a
// forked stream's last work, an event's record in a capture).
struct Distinction {
  SiteId Paired = NoSite;
  VarId Subject = NoVar;
  SiteId Related = NoSite;
};

Distinction distinction(const Finding &F) {
  Distinction D;
  D.Paired = pairedSite(F);
  D.Subject = F.subject();
  if (const auto *X = F.as<finding::MissingRecordStream>()) {
    D.Related = X->FreedAt;
  } else if (const auto *X = F.as<finding::ThreadCurrentStream>()) {
    D.Related = X->ThreadStart;
  } else if (const auto *X = F.as<finding::UnrestoredCurrentStream>()) {
    D.Related = X->Exit;
  } else if (const auto *X = F.as<finding::UnrecordedEventWait>()) {
    D.Related = X->Declared;
  } else if (const auto *X = F.as<finding::GraphCapture>()) {
    if (const auto *U = std::get_if<finding::capture::Unjoined>(&X->Problem))
      D.Related = U->LastWork;
    if (const auto *E =
            std::get_if<finding::capture::CapturedEvent>(&X->Problem)) {
      D.Subject = E->Event;
      D.Related = E->RecordedAt;
    }
  }
  return D;
}

// Deterministic: sorted by site order, one finding per (kind, site, cause);
// one per tensor, cause and line (t.mm(t) reads t twice); one
// thread-current-stream finding per spawn (the first work in the body); one
// graph-capture finding per rule and line; one host write per copy it races
// with.
} // namespace

std::vector<Finding> sortAndFold(const Function &IR,
                                 std::vector<Finding> Findings) {
  const SiteTable &Sites = IR.Sites;
  auto Key = [&](const Finding &F) {
    Distinction D = distinction(F);
    return std::make_tuple(Sites[F.site()].Order, F.site(),
                           static_cast<int>(F.kind()), D.Paired, D.Subject,
                           D.Related);
  };
  llvm::sort(Findings, [&](const Finding &L, const Finding &R) {
    return Key(L) < Key(R);
  });
  std::set<SiteId> SpawnsReported;
  // One graph-capture finding per rule and line (y.add_(x) on a stream
  // outside the capture is one piece of work, though it reads and writes).
  std::set<std::tuple<size_t, unsigned, SiteId>> CaptureRulesReported;
  // One host write per copy it races with: the views of one pinned buffer
  // that a method fills before the next copy of the whole buffer are one
  // hazard, told at the first.
  std::set<SiteId> CopiesReported;
  std::vector<Finding> Unique;
  for (Finding &F : Findings) {
    if (const auto *X = F.as<finding::HostReadBeforeSync>();
        X && X->Write && !CopiesReported.insert(X->Copy.Site).second)
      continue;
    if (const auto *X = F.as<finding::ThreadCurrentStream>();
        X && !SpawnsReported.insert(X->ThreadStart).second)
      continue;
    if (const auto *X = F.as<finding::GraphCapture>();
        X && !CaptureRulesReported
                  .insert({X->Problem.index(), Sites[F.site()].Line,
                           distinction(F).Related})
                  .second)
      continue;
    if (!Unique.empty()) {
      const Finding &P = Unique.back();
      Distinction DP = distinction(P), DF = distinction(F);
      if (P.kind() == F.kind() && DP.Subject == DF.Subject &&
          DP.Paired == DF.Paired &&
          Sites[P.site()].Line == Sites[F.site()].Line) {
        // Found on paths that took a branch both ways: that branch is not
        // what the finding depends on.
        llvm::erase_if(Unique.back().Path, [&](const Assumption &A) {
          return !llvm::is_contained(F.Path, A);
        });
        continue;
      }
    }
    Unique.push_back(std::move(F));
  }
  return Unique;
}

} // namespace streamsafe
