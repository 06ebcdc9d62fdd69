//===--- StreamSafeModule.cpp - Registers every streamsafe-* check --------===//
//
// One module, several check names, one analysis: the checks built on the
// stream dataflow engine share the AnalysisSession of their translation unit,
// so each function is analysed once however many of them are enabled.
//
//===----------------------------------------------------------------------===//

#include "checks/LLVMCompat.h"
#include "checks/StreamSafeChecks.h"

namespace clang::tidy::streamsafe {

class StreamSafeModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    registerStreamSafeChecks(Factories);
  }
};

// Referenced by the driver so that static linking keeps this registration.
volatile int StreamSafeModuleAnchorSource = 0;

} // namespace clang::tidy::streamsafe

static clang::tidy::ClangTidyModuleRegistry::Add<
    clang::tidy::streamsafe::StreamSafeModule>
    X("streamsafe-module", "Adds the StreamSafe CUDA stream-safety checks.");
