//===--- CheckedFile.cpp - One Python file, checked as asked ----------===//

#include "tools/py/CheckedFile.h"
#include "tools/py/CheckFilter.h"
#include "tools/py/Config.h"
#include "tools/py/Nolint.h"
#include "tools/py/NolintBlocks.h"

namespace streamsafe::py {

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
    R.Errors.push_back(
        {Err, "", "invalid Python syntax; the file is not analysed", ""});
    return R;
  }
  // Unmatched NOLINTBEGIN/END are errors, as clang-tidy reports them; the
  // file's findings are still reported.
  NolintBlocks Blocks(F);
  for (const NolintError &E : Blocks.errors())
    R.Errors.push_back({E.At, "", E.Message, "clang-tidy-nolint"});
  FileResult Result = analyzeFile(F, Opts);
  R.Skipped = std::move(Result.Skipped);
  for (std::vector<Diagnostic> &D : Result.Findings) {
    const Diagnostic &W = D.front();
    if (!Filter.enabled(W.Check))
      continue;
    if (suppressed(F, W.At.Line, W.Check) || Blocks.suppresses(W.At, W.Check)) {
      ++R.Suppressed;
      continue;
    }
    R.Findings.push_back(std::move(D));
  }
  return R;
}

} // namespace streamsafe::py
