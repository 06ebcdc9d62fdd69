//===--- CheckNames.cpp - The one table of checks -------------------------===//

#include "lib/report/CheckNames.h"
#include "llvm/Support/ErrorHandling.h"
#include <iterator>

namespace streamsafe::report {

namespace {

constexpr CheckInfo Checks[] = {
    {"streamsafe-unsynchronized-access", FindingKind::UnsynchronizedAccess,
     true},
    {"streamsafe-missing-record-stream", FindingKind::MissingRecordStream,
     true},
    {"streamsafe-thread-current-stream", FindingKind::ThreadCurrentStream,
     true},
    {"streamsafe-unrestored-current-stream",
     FindingKind::UnrestoredCurrentStream, true},
    {"streamsafe-unrecorded-event-wait", FindingKind::UnrecordedEventWait,
     true},
    {"streamsafe-host-read-before-sync", FindingKind::HostReadBeforeSync, true},
    {"streamsafe-graph-capture", FindingKind::GraphCapture, true},
    {"streamsafe-default-stream-launch", FindingKind::DefaultStreamLaunch,
     false},
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

llvm::ArrayRef<CheckInfo> checks() { return Checks; }

const char *checkName(FindingKind K) {
  unsigned I = static_cast<unsigned>(K);
  if (I >= std::size(Checks))
    llvm_unreachable("every finding kind has a check");
  return Checks[I].Name;
}

} // namespace streamsafe::report
