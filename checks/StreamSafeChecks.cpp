//===--- StreamSafeChecks.cpp - The list of streamsafe-* checks -----------===//

#include "checks/StreamSafeChecks.h"
#include "checks/DefaultStreamLaunchCheck.h"
#include "checks/GraphCaptureCheck.h"
#include "checks/HostReadBeforeSyncCheck.h"
#include "checks/LLVMCompat.h"
#include "checks/MissingRecordStreamCheck.h"
#include "checks/ThreadCurrentStreamCheck.h"
#include "checks/UnrecordedEventWaitCheck.h"
#include "checks/UnrestoredCurrentStreamCheck.h"
#include "checks/UnsynchronizedAccessCheck.h"
#include <memory>

namespace clang::tidy::streamsafe {

void registerStreamSafeChecks(ClangTidyCheckFactories &Factories) {
  Factories.registerCheck<DefaultStreamLaunchCheck>(
      "streamsafe-default-stream-launch");

  // The engine-based checks created for one translation unit share its
  // session: one analysis per function, with the options of that unit.
  auto Shared = std::make_shared<SharedSession>();
  auto Add = [&](StringRef Name, auto Tag) {
    using Check = typename decltype(Tag)::type;
    Factories.registerCheckFactory(
        Name, [Shared](StringRef N, ClangTidyContext *Ctx) {
          return std::make_unique<Check>(N, Ctx, Shared);
        });
  };
  Add("streamsafe-unsynchronized-access",
      std::common_type<UnsynchronizedAccessCheck>());
  Add("streamsafe-missing-record-stream",
      std::common_type<MissingRecordStreamCheck>());
  Add("streamsafe-thread-current-stream",
      std::common_type<ThreadCurrentStreamCheck>());
  Add("streamsafe-unrestored-current-stream",
      std::common_type<UnrestoredCurrentStreamCheck>());
  Add("streamsafe-unrecorded-event-wait",
      std::common_type<UnrecordedEventWaitCheck>());
  Add("streamsafe-host-read-before-sync",
      std::common_type<HostReadBeforeSyncCheck>());
  Add("streamsafe-graph-capture", std::common_type<GraphCaptureCheck>());
}

} // namespace clang::tidy::streamsafe
