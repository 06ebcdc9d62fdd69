//===--- StreamSafeChecks.cpp - The list of streamsafe-* checks -----------===//

#include "checks/StreamSafeChecks.h"
#include "checks/LLVMCompat.h"
#include "checks/DefaultStreamLaunchCheck.h"
#include "checks/MissingRecordStreamCheck.h"
#include "checks/UnsynchronizedAccessCheck.h"
#include <memory>

namespace clang::tidy::streamsafe {

void registerStreamSafeChecks(ClangTidyCheckFactories &Factories) {
  Factories.registerCheck<DefaultStreamLaunchCheck>(
      "streamsafe-default-stream-launch");

  // The engine-based checks share one session: one analysis per function.
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
}

} // namespace clang::tidy::streamsafe
