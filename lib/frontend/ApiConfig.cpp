//===--- ApiConfig.cpp - User-configured stream APIs ----------------------===//

#include "lib/frontend/ApiConfig.h"
#include "lib/frontend/ApiTable.h"
#include "clang/AST/DeclCXX.h"

namespace streamsafe {

const std::vector<ApiConfig::Entry> &ApiConfig::entries() {
  // Defaults are empty: LibTorch and the CUDA runtime are built in.
  static const std::vector<Entry> E = {
      {"StreamGuardClasses", "", &ApiConfig::StreamGuardClasses},
      {"CurrentStreamSetters", "", &ApiConfig::CurrentStreamSetters},
      {"CurrentStreamGetters", "", &ApiConfig::CurrentStreamGetters},
      // Another name for the same list (the name issue #14 asked for).
      {"CurrentStreamFunctions", "", &ApiConfig::CurrentStreamGetters},
      {"StreamBindingInitializers", "", &ApiConfig::StreamBindingInitializers},
      {"EventClasses", "", &ApiConfig::EventClasses},
      {"EventRecordMethods", "", &ApiConfig::EventRecordMethods},
      {"EventWaitMethods", "", &ApiConfig::EventWaitMethods},
      {"EventSyncMethods", "", &ApiConfig::EventSyncMethods},
      {"StreamSyncFunctions", "", &ApiConfig::StreamSyncFunctions},
      {"ThreadSpawnFunctions", "", &ApiConfig::ThreadSpawnFunctions},
      {"ExecutorLaunchFunctions", "", &ApiConfig::ExecutorLaunchFunctions},
      {"RecordStreamFunctions", "", &ApiConfig::RecordStreamFunctions},
      {"GraphCaptureBeginFunctions", "",
       &ApiConfig::GraphCaptureBeginFunctions},
      {"GraphCaptureEndFunctions", "", &ApiConfig::GraphCaptureEndFunctions},
  };
  return E;
}

void ApiConfig::parseList(llvm::StringRef Value, llvm::StringSet<> &Into) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Value.split(Parts, ';', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.consume_front("::"))
      P = P.trim();
    if (!P.empty())
      Into.insert(P);
  }
}

bool ApiConfig::isEventClass(const clang::CXXRecordDecl *RD) const {
  return RD && !EventClasses.empty() &&
         EventClasses.contains(canonicalName(RD));
}

bool ApiConfig::hasMethod(const llvm::StringSet<> &List,
                          const clang::FunctionDecl *FD) {
  if (List.empty() || !FD)
    return false;
  if (List.contains(canonicalName(FD)))
    return true;
  return FD->getDeclName().isIdentifier() && List.contains(FD->getName());
}

} // namespace streamsafe
