//===--- StreamSafeMain.cpp - The streamsafe driver -----------------------===//
//
// clang-tidy's own main with the StreamSafe module linked in: every clang-tidy
// flag works and every stock check stays available. With no --checks, no
// --config and no .clang-tidy, it runs streamsafe-* so that
// `streamsafe foo.cu -- <flags>` gives our findings without extra flags.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace clang::tidy::streamsafe {
// Defined in the module file; referencing it keeps the module's registration.
extern volatile int StreamSafeModuleAnchorSource;
} // namespace clang::tidy::streamsafe

using llvm::StringRef;

static bool hasClangTidyFileAbove(StringRef Path) {
  llvm::SmallString<256> Dir(Path);
  llvm::sys::fs::make_absolute(Dir);
  if (!llvm::sys::fs::is_directory(Dir))
    llvm::sys::path::remove_filename(Dir);
  for (; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ".clang-tidy");
    if (llvm::sys::fs::exists(Candidate))
      return true;
    if (llvm::sys::path::parent_path(Dir) == Dir)
      break;
  }
  return false;
}

// True when the user chose checks in any way clang-tidy understands; then we
// leave the choice to clang-tidy.
static bool userSetResourceDir(const std::vector<const char *> &Args) {
  for (const char *A : Args)
    if (StringRef(A).contains("resource-dir"))
      return true;
  return false;
}

static bool userChoseChecks(const std::vector<const char *> &Args) {
  bool SawSource = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "--")
      break;
    StringRef Flag = A.ltrim('-');
    // --config without a Checks key (options only) leaves the checks to us.
    if (A.starts_with("-") &&
        (Flag.starts_with("checks") || Flag.starts_with("config-file") ||
         (Flag.starts_with("config") && A.contains("Checks"))))
      return true;
    if (!A.starts_with("-")) {
      SawSource = true;
      if (hasClangTidyFileAbove(A))
        return true;
    }
  }
  return !SawSource && hasClangTidyFileAbove(".");
}

int main(int argc, const char **argv) {
  (void)clang::tidy::streamsafe::StreamSafeModuleAnchorSource;
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "StreamSafe version " << STREAMSAFE_VERSION
       << " (clang-tidy driver with the streamsafe-* checks built in)\n";
  });
  std::vector<const char *> Args(argv, argv + argc);
  if (!userChoseChecks(Args))
    Args.insert(Args.begin() + 1, "--checks=-*,streamsafe-*");
  if (!userSetResourceDir(Args))
    Args.insert(
        Args.begin() + 1,
        "--extra-arg-before=-resource-dir=" STREAMSAFE_CLANG_RESOURCE_DIR);
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}
