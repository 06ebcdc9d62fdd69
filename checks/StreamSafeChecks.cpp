//===--- StreamSafeChecks.cpp - The list of streamsafe-* checks -----------===//

#include "checks/StreamSafeChecks.h"
#include "checks/DefaultStreamLaunchCheck.h"
#include "checks/EngineCheck.h"
#include "checks/LLVMCompat.h"
#include "lib/report/CheckNames.h"
#include <memory>

namespace clang::tidy::streamsafe {

void registerStreamSafeChecks(ClangTidyCheckFactories &Factories) {
  // The engine-based checks created for one translation unit share its
  // session: one analysis per function, with the options of that unit.
  auto Shared = std::make_shared<SharedSession>();
  for (const ::streamsafe::report::CheckInfo &C :
       ::streamsafe::report::checks()) {
    if (!C.Engine) {
      // The one syntactic check.
      Factories.registerCheck<DefaultStreamLaunchCheck>(C.Name);
      continue;
    }
    Factories.registerCheckFactory(
        C.Name, [Shared, Kind = C.Kind](StringRef N, ClangTidyContext *Ctx) {
          return std::make_unique<EngineCheck>(N, Ctx, Shared, Kind);
        });
  }
}

} // namespace clang::tidy::streamsafe
