//===--- CheckNames.cpp - The one table of engine checks ------------------===//

#include "lib/report/CheckNames.h"
#include "llvm/Support/ErrorHandling.h"
#include <iterator>

namespace streamsafe::report {

namespace {

constexpr EngineCheck Checks[] = {
    {"streamsafe-unsynchronized-access", FindingKind::UnsynchronizedAccess},
    {"streamsafe-missing-record-stream", FindingKind::MissingRecordStream},
    {"streamsafe-thread-current-stream", FindingKind::ThreadCurrentStream},
    {"streamsafe-unrestored-current-stream",
     FindingKind::UnrestoredCurrentStream},
    {"streamsafe-unrecorded-event-wait", FindingKind::UnrecordedEventWait},
    {"streamsafe-host-read-before-sync", FindingKind::HostReadBeforeSync},
    {"streamsafe-graph-capture", FindingKind::GraphCapture},
};

// Indexed by kind: a kind added without its row fails to compile.
constexpr bool inKindOrder() {
  for (unsigned I = 0; I < std::size(Checks); ++I)
    if (static_cast<unsigned>(Checks[I].Kind) != I)
      return false;
  return std::size(Checks) == FindingKindCount;
}
static_assert(inKindOrder(), "one check per finding kind, in kind order");

} // namespace

llvm::ArrayRef<EngineCheck> engineChecks() { return Checks; }

const char *checkName(FindingKind K) {
  unsigned I = static_cast<unsigned>(K);
  if (I >= std::size(Checks))
    llvm_unreachable("every finding kind has a check");
  return Checks[I].Name;
}

} // namespace streamsafe::report
