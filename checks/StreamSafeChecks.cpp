//===--- StreamSafeChecks.cpp - The list of streamsafe-* checks -----------===//

#include "checks/StreamSafeChecks.h"
#include "checks/LLVMCompat.h"
#include "checks/DefaultStreamLaunchCheck.h"

namespace clang::tidy::streamsafe {

void registerStreamSafeChecks(ClangTidyCheckFactories &Factories) {
  Factories.registerCheck<DefaultStreamLaunchCheck>(
      "streamsafe-default-stream-launch");
}

} // namespace clang::tidy::streamsafe
