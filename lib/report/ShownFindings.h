//===--- ShownFindings.h - Which findings a run shows -----------*- C++ -*-===//
//
// One policy, for the clang-tidy checks and streamsafe-py alike, on which of
// a file's findings are shown. A helper run in place is analysed again by
// every function that calls it, and by itself: a finding that lies wholly
// in the helper is found by each. It is shown once: by the helper's own
// analysis when that reports the same check at the same place (the helper's
// names), else once per wording (each caller names the tensor by its own
// variable). A finding reached through a call is not shown again by a
// caller of a function that showed it (`main` running `produce()` running
// `scale()`): it is known by its origin, where it happens, its check and
// the name of its subject there; the callee's is shown whichever function
// the file defines first. Any other finding is shown once per place, check
// and wording.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_REPORT_SHOWNFINDINGS_H
#define STREAMSAFE_LIB_REPORT_SHOWNFINDINGS_H

#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace streamsafe::report {

/// Whether \p F, found by a function of \p IR, lies wholly in a helper that
/// function ran in place (its site, and its other site if it has one):
/// what the helper's own analysis finds too.
bool withinHelper(const Finding &F, const Function &IR);

/// One finding, as a front end is about to show it.
struct ShownFinding {
  std::string Place; ///< where its warning is, as the front end keys it
  std::string Check; ///< the check's name
  std::string Text;  ///< the warning's words
  bool WithinHelper = false;
  /// Reached through a call of a helper run in place (Finding::CallSite).
  bool ThroughCall = false;
  /// originOf() the finding.
  std::string Origin;
  /// The name of the function whose analysis found it, and of the one it
  /// calls at Finding::CallSite (empty: none).
  std::string Function, Callee;
};

/// Where \p F happens, its check and its subject's name there, with \p
/// PlaceOf keying a site as the front end does.
std::string originOf(const Finding &F, const Function &IR,
                     llvm::function_ref<std::string(SiteId)> PlaceOf);

/// The findings of \p All to show, as indices in the order given.
std::vector<size_t> findingsToShow(llvm::ArrayRef<ShownFinding> All);

} // namespace streamsafe::report

#endif // STREAMSAFE_LIB_REPORT_SHOWNFINDINGS_H
