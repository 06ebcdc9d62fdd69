//===--- CheckedFile.cpp - One Python file, checked as asked ----------===//

#include "tools/py/CheckedFile.h"
#include "tools/py/CheckFilter.h"
#include "tools/py/Config.h"
#include "tools/py/Nolint.h"
#include "tools/py/NolintBlocks.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <memory>

namespace streamsafe::py {

// The grammar's scanner keeps each indentation in a byte: a line indented
// 256 columns or more (a tab counts 8) is misread, and valid code becomes
// a syntax error. The first such line, if any.
static std::optional<Position> deepIndent(llvm::StringRef Text) {
  unsigned Line = 1;
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    unsigned Width = 0;
    for (char C : L) {
      if (C == ' ')
        ++Width;
      else if (C == '\t')
        Width += 8;
      else if (C == '\f')
        Width = 0;
      else
        break;
    }
    if (Width >= 256 && !L.trim().empty() && !L.trim().starts_with("#"))
      return Position{Line, 1};
    Text = Rest;
    ++Line;
  }
  return std::nullopt;
}

CheckedFile checkFile(const std::string &Path, std::string Text,
                      const PyOptions &Base,
                      llvm::ArrayRef<std::string> CheckArgs) {
  CheckedFile R;
  FileConfig Config = configFor(Path);
  if (!Config.Error.empty()) {
    R.Errors.push_back({std::nullopt, Config.Path,
                        "cannot read the configuration: " + Config.Error, ""});
    return R;
  }
  PyOptions Opts = Base;
  if (Config.VisitsPerBlock)
    Opts.Limits.VisitsPerBlock = *Config.VisitsPerBlock;
  if (Config.MaxStateWork)
    Opts.Limits.MaxStateWork = *Config.MaxStateWork;
  if (Config.DeviceModuleFunctions)
    Opts.DeviceModuleFunctions = *Config.DeviceModuleFunctions;
  if (Config.SideStreamParameters)
    Opts.SideStreamParameters = *Config.SideStreamParameters;
  if (Config.FollowImports)
    Opts.FollowImports = *Config.FollowImports;
  // The run's module cache serves files read with the run's own root and
  // accelerator layers; a file configured otherwise reads its own.
  if ((Config.ProjectRoot && *Config.ProjectRoot != Opts.ProjectRoot) ||
      (Config.DeviceModuleFunctions &&
       *Config.DeviceModuleFunctions != Base.DeviceModuleFunctions))
    Opts.Modules = nullptr;
  if (Config.ProjectRoot)
    Opts.ProjectRoot = *Config.ProjectRoot;
  // Everything, then the file's .clang-tidy, then --checks.
  CheckFilter Filter;
  Filter.add("streamsafe-*");
  Filter.add(Config.Checks);
  for (const std::string &S : CheckArgs)
    Filter.add(S);

  SourceFile F(Path, std::move(Text));
  if (!F.parse()) {
    R.GrammarRefused = true;
    return R;
  }
  Position Err;
  if (F.firstError(Err)) {
    if (std::optional<Position> Deep = deepIndent(F.text())) {
      R.Errors.push_back(
          {*Deep, "",
           "the line is indented 256 columns or more, which the "
           "Python grammar cannot follow; the file is not analysed",
           ""});
      return R;
    }
    R.Errors.push_back(
        {Err, "", "invalid Python syntax; the file is not analysed", ""});
    return R;
  }
  // The analysis walks expressions and blocks recursively. CPython's own
  // parser gives up near 3,000 levels; real code stays far below.
  constexpr unsigned MaxNesting = 3000;
  Position Deepest;
  if (unsigned Depth = F.depth(Deepest); Depth > MaxNesting) {
    R.Errors.push_back({Deepest, "",
                        "the code nests " + std::to_string(Depth) +
                            " levels deep, more than the " +
                            std::to_string(MaxNesting) +
                            " streamsafe-py follows; the file is not analysed",
                        ""});
    return R;
  }
  // Unmatched NOLINTBEGIN/END are errors, as clang-tidy reports them; the
  // file's findings are still reported.
  NolintBlocks Blocks(F);
  for (const NolintError &E : Blocks.errors())
    R.Errors.push_back({E.At, "", E.Message, "clang-tidy-nolint"});
  FileResult Result = analyzeFile(F, Opts);
  R.Skipped = std::move(Result.Skipped);
  R.PathBound = std::move(Result.PathBound);
  // A warning in a helper of another module: its NOLINT comments are
  // that file's (read once per file).
  std::map<std::string, std::unique_ptr<SourceFile>> Others;
  auto SuppressedThere = [&](const Diagnostic &W) {
    auto [It, New] = Others.try_emplace(W.File);
    if (New)
      if (auto Buf = llvm::MemoryBuffer::getFile(W.File))
        It->second =
            std::make_unique<SourceFile>(W.File, (*Buf)->getBuffer().str());
    return It->second && suppressed(*It->second, W.At.Line, W.Check);
  };
  for (std::vector<Diagnostic> &D : Result.Findings) {
    const Diagnostic &W = D.front();
    if (!Filter.enabled(W.Check))
      continue;
    if (!W.File.empty() ? SuppressedThere(W)
                        : suppressed(F, W.At.Line, W.Check) ||
                              Blocks.suppresses(W.At, W.Check)) {
      ++R.Suppressed;
      continue;
    }
    R.Findings.push_back(std::move(D));
  }
  return R;
}

} // namespace streamsafe::py
