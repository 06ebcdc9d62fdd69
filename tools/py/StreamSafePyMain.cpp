//===--- StreamSafePyMain.cpp - streamsafe-py -----------------------------===//
//
// `streamsafe-py [options] FILE...`: the StreamSafe checks on Python files,
// with clang-tidy's output format (file:line:col: warning: ... [check],
// then notes), clang-tidy's check globs and suppression comments
// (NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/NOLINTEND), and
// streamsafe-ci's exit codes: 0 no findings, 1 findings, 2 a file could not
// be analysed (unreadable, a syntax error) or misuse (a bad option, an
// unknown check). `streamsafe-py --lsp` serves an editor instead
// (LanguageServer.h); both report what checkFile (CheckedFile.h) finds.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Analysis.h"
#include "tools/py/CheckFilter.h"
#include "tools/py/CheckedFile.h"
#include "tools/py/Config.h"
#include "tools/py/FileJobs.h"
#include "tools/py/LanguageServer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <optional>
#include <string>
#include <vector>

using namespace streamsafe;
using namespace streamsafe::py;

static const char Usage[] =
    "usage: streamsafe-py [options] FILE...\n"
    "       streamsafe-py [options] --lsp\n"
    "\n"
    "Finds CUDA stream-safety bugs in PyTorch code (docs/python.md).\n"
    "\n"
    "options:\n"
    "  --checks=GLOBS        clang-tidy style, e.g. "
    "-*,streamsafe-unsynchronized-access\n"
    "                        (after the nearest .clang-tidy's Checks:)\n"
    "  -j N, --jobs=N        check the files on N threads (default: one per "
    "core);\n"
    "                        the output is in the order of the files "
    "whatever N is\n"
    "  --list-checks         print the enabled checks and exit\n"
    "  --lsp                 serve an editor over stdio (Language Server "
    "Protocol):\n"
    "                        the findings of each open buffer as "
    "diagnostics\n"
    "                        (docs/editors.md)\n"
    "  --project-root=DIR    where `import pkg.mod` is looked up for helpers "
    "of\n"
    "                        other modules (default: the nearest folder above "
    "each\n"
    "                        file with no __init__.py)\n"
    "  --quiet               no summary line on stderr\n"
    "  --show-path-bounds    name each def where paths were joined at the\n"
    "                        analysis's bound (else one count on stderr)\n"
    "  --version             print the version and exit\n"
    "  --help                print this and exit\n"
    "\n"
    "suppression comments (as clang-tidy's): # NOLINT(checks), "
    "# NOLINTNEXTLINE(checks),\n"
    "# NOLINTBEGIN(checks) ... # NOLINTEND(checks)\n"
    "\n"
    "exit codes: 0 no findings, 1 findings, 2 a file could not be analysed "
    "(unreadable, a syntax error, an unmatched NOLINTBEGIN/NOLINTEND) or "
    "misuse\n";

// The lowering recurses on the syntax tree: threads with a stack large
// enough for the deepest code checkFile accepts (CheckedFile.cpp's bound).
constexpr unsigned StackBytes = 512u << 20;

static int run(int argc, char **argv) {
  std::vector<std::string> Files;
  std::optional<unsigned> Jobs;
  std::vector<std::string> CheckArgs;
  bool ListChecks = false, Quiet = false, Lsp = false, ShowPathBounds = false;
  size_t PathBounds = 0;
  PyOptions Opts;
  for (int K = 1; K < argc; ++K) {
    llvm::StringRef A = argv[K];
    if (A == "--help" || A == "-h") {
      llvm::outs() << Usage;
      return 0;
    }
    if (A == "--version") {
      llvm::outs() << "streamsafe-py " << STREAMSAFE_VERSION << "\n";
      return 0;
    }
    if (A.consume_front("--checks=") || A.consume_front("-checks=")) {
      CheckArgs.push_back(A.str());
      continue;
    }
    if (A == "-j" || A.starts_with("--jobs=") ||
        (A.starts_with("-j") && A.size() > 2)) {
      llvm::StringRef N = A == "-j"                    ? llvm::StringRef()
                          : A.consume_front("--jobs=") ? A
                                                       : A.drop_front(2);
      if (A == "-j" && K + 1 < argc)
        N = argv[++K];
      unsigned V = 0;
      if (N.getAsInteger(10, V) || V == 0) {
        llvm::errs() << "streamsafe-py: error: -j takes a number of threads "
                        "of 1 or more, not '"
                     << N << "'\n";
        return 2;
      }
      Jobs = V;
      continue;
    }
    if (A == "--list-checks") {
      ListChecks = true;
      continue;
    }
    if (A == "--lsp") {
      Lsp = true;
      continue;
    }
    if (A.consume_front("--project-root=")) {
      Opts.ProjectRoot = A.str();
      continue;
    }
    if (A == "--quiet") {
      Quiet = true;
      continue;
    }
    if (A == "--show-path-bounds") {
      ShowPathBounds = true;
      continue;
    }
    // Hidden: the facts and states of one def (the engine's trace).
    if (A.consume_front("--debug-dump-function=")) {
      Opts.DumpFunction = A.str();
      continue;
    }
    if (A == "--") {
      for (++K; K < argc; ++K)
        Files.push_back(argv[K]);
      break;
    }
    if (A.starts_with("-") && A != "-") {
      llvm::errs() << "streamsafe-py: error: unknown option '" << A
                   << "' (see --help)\n";
      return 2;
    }
    Files.push_back(A.str());
  }
  if (Lsp && !Files.empty()) {
    llvm::errs() << "streamsafe-py: error: --lsp takes no input files (the "
                    "editor sends them)\n";
    return 2;
  }
  if (Files.empty() && !ListChecks && !Lsp) {
    llvm::errs() << "streamsafe-py: error: no input files (see --help)\n";
    return 2;
  }

  // The filter of one file: everything, then its .clang-tidy's Checks:,
  // then --checks.
  auto FilterFor = [&](const FileConfig &C) {
    CheckFilter Filter;
    Filter.add("streamsafe-*");
    Filter.add(C.Checks);
    for (const std::string &S : CheckArgs)
      Filter.add(S);
    return Filter;
  };
  {
    CheckFilter Args;
    for (const std::string &S : CheckArgs)
      Args.add(S);
    std::vector<std::string> Unknown = Args.unknownNames();
    if (!Unknown.empty()) {
      llvm::errs() << "streamsafe-py: error: unknown check '" << Unknown[0]
                   << "' in --checks (known: streamsafe-*, see "
                      "--list-checks)\n";
      return 2;
    }
  }
  if (ListChecks) {
    CheckFilter Filter =
        FilterFor(configFor(Files.empty() ? std::string("./x.py") : Files[0]));
    llvm::outs() << "Enabled checks:\n";
    for (const std::string &C : pythonChecks())
      if (Filter.enabled(C))
        llvm::outs() << "    " << C << "\n";
    return 0;
  }

  if (Lsp)
    return serveLanguageClient(stdin, llvm::outs(), llvm::errs(), Opts,
                               CheckArgs);

  // Each module a helper is imported from is read once per thread.
  bool Failed = false, Refused = false;
  unsigned Warnings = 0, Suppressed = 0;
  checkFiles(Files, Jobs ? *Jobs : defaultJobs(Files.size()), StackBytes, Opts,
             CheckArgs, [&](size_t K, FileOutcome &O) {
               const std::string &Path = Files[K];
               if (!O.ReadError.empty()) {
                 llvm::errs()
                     << Path << ": error: cannot read the file: " << O.ReadError
                     << "\n";
                 Failed = true;
                 return true;
               }
               const CheckedFile &R = O.Checked;
               if (R.GrammarRefused) {
                 llvm::errs()
                     << "streamsafe-py: error: the tree-sitter runtime refuses "
                        "the Python grammar (ABI mismatch)\n";
                 Refused = true;
                 return false;
               }
               for (const FileError &E : R.Errors) {
                 llvm::errs() << (E.File.empty() ? Path : E.File);
                 if (E.At)
                   llvm::errs() << ":" << E.At->Line << ":" << E.At->Column;
                 llvm::errs() << ": error: " << E.Message;
                 if (!E.Check.empty())
                   llvm::errs() << " [" << E.Check << "]";
                 llvm::errs() << "\n";
                 Failed = true;
               }
               for (const std::string &S : R.Skipped)
                 llvm::errs() << "streamsafe-py: skipped '" << S << "' in "
                              << Path << ": the analysis budget was exceeded\n";
               PathBounds += R.PathBound.size();
               if (ShowPathBounds)
                 for (const std::string &S : R.PathBound)
                   llvm::errs()
                       << "streamsafe-py: in '" << S << "' in " << Path
                       << ": paths chosen by more values than the analysis "
                          "keeps apart were joined; a race on one of them may "
                          "be missed\n";
               Suppressed += R.Suppressed;
               for (const std::vector<Diagnostic> &D : R.Findings) {
                 ++Warnings;
                 for (const Diagnostic &X : D) {
                   llvm::outs()
                       << (X.File.empty() ? Path : X.File) << ":" << X.At.Line
                       << ":" << X.At.Column << ": "
                       << (X.Check.empty() ? "note: " : "warning: ") << X.Text;
                   if (!X.Check.empty())
                     llvm::outs() << " [" << X.Check << "]";
                   llvm::outs() << "\n";
                 }
               }
               return true;
             });
  if (Refused)
    return 2;
  llvm::outs().flush();
  if (!Quiet && (Warnings || Suppressed))
    llvm::errs() << Warnings << " warning" << (Warnings == 1 ? "" : "s")
                 << " generated"
                 << (Suppressed ? " (" + std::to_string(Suppressed) +
                                      " suppressed by NOLINT)"
                                : std::string())
                 << ".\n";
  if (!Quiet && !ShowPathBounds && PathBounds)
    llvm::errs() << "streamsafe-py: in " << PathBounds
                 << " def(s) that use streams, paths chosen by more values "
                    "than the analysis keeps apart were joined; a race on "
                    "one of them may be missed (--show-path-bounds lists "
                    "them)\n";
  if (Failed)
    return 2;
  return Warnings ? 1 : 0;
}

int main(int argc, char **argv) {
  int Exit = 2;
  llvm::thread T(std::optional<unsigned>(StackBytes),
                 [&] { Exit = run(argc, argv); });
  T.join();
  return Exit;
}
