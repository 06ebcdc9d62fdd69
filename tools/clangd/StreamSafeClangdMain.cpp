//===--- StreamSafeClangdMain.cpp - clangd with the StreamSafe checks -----===//
//
// clangd's own main with the StreamSafe clang-tidy module linked in: clangd
// cannot load clang-tidy plugins (clangd/clangd#1458), so the checks have to
// be in the binary. Enable them in .clangd (docs/editors.md):
//
//   Diagnostics:
//     ClangTidy:
//       Add: [streamsafe-*]
//       FastCheckFilter: Loose
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang::clangd {
// Defined in clangd's libclangdMain (clang-tools-extra/clangd/tool).
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

namespace clang::tidy::streamsafe {
// Defined in the module file; referencing it keeps the module's registration.
extern volatile int StreamSafeModuleAnchorSource;
} // namespace clang::tidy::streamsafe

int main(int argc, char *argv[]) {
  (void)clang::tidy::streamsafe::StreamSafeModuleAnchorSource;
  std::vector<char *> Args(argv, argv + argc);
  // Built outside LLVM's tree, clangd would look for its builtin headers
  // (stddef.h, the CUDA wrappers) next to itself: point it at LLVM's.
  bool HasResourceDir = false;
  for (char *A : Args)
    if (llvm::StringRef(A).contains("resource-dir"))
      HasResourceDir = true;
  static std::string ResourceDir =
      "--resource-dir=" STREAMSAFE_CLANG_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
