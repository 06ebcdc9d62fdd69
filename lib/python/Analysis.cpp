//===--- Analysis.cpp - A Python file, analysed ---------------------------===//

#include "lib/python/Analysis.h"
#include "lib/python/Builder.h"
#include "lib/report/CheckNames.h"
#include "lib/report/Wording.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <set>
#include <tuple>

namespace streamsafe::py {

namespace {

class FileAnalysis {
public:
  FileAnalysis(const SourceFile &F, const PyOptions &Opts)
      : F(F), Opts(Opts), I(F, Opts.DeviceModuleFunctions), X(F, I) {
    if (Opts.FollowImports && !Opts.Modules) {
      OwnModules = std::make_unique<ModuleCache>(Opts.ProjectRoot,
                                                 Opts.DeviceModuleFunctions);
      Modules = OwnModules.get();
    } else if (Opts.FollowImports) {
      Modules = Opts.Modules;
    }
  }

  FileResult run() {
    auto Module = makeScope(F.root(), Scope::Module, nullptr, F, I);
    analyse(*Module, "<module>");
    defsIn(F.root(), *Module);
    // Source order; a body analysed twice (a thread target, on its own and
    // where it is spawned) reports once.
    std::vector<size_t> Order(Result.Findings.size());
    for (size_t K = 0; K < Order.size(); ++K)
      Order[K] = K;
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      const Diagnostic &DA = Result.Findings[A][0];
      const Diagnostic &DB = Result.Findings[B][0];
      return std::make_tuple(DA.File, DA.At.Line, DA.At.Column, A) <
             std::make_tuple(DB.File, DB.At.Line, DB.At.Column, B);
    });
    // A finding inside a helper, reached through a call, is not repeated
    // when the helper's own analysis reports the same check there (its
    // caller names the tensor by the caller's variable).
    auto Where = [](const std::vector<Diagnostic> &D) {
      return D[0].File + ":" + std::to_string(D[0].At.Line) + ":" +
             std::to_string(D[0].At.Column) + ":" + D[0].Check;
    };
    std::set<std::string> OwnReports;
    for (size_t K = 0; K < Order.size(); ++K)
      if (!ThroughCall[K])
        OwnReports.insert(Where(Result.Findings[K]));
    std::set<std::string> Seen;
    std::vector<std::vector<Diagnostic>> Unique;
    for (size_t K : Order) {
      std::vector<Diagnostic> &D = Result.Findings[K];
      if (ThroughCall[K] && OwnReports.count(Where(D)))
        continue;
      if (Seen.insert(Where(D) + ":" + D[0].Text).second)
        Unique.push_back(std::move(D));
    }
    Result.Findings = std::move(Unique);
    return std::move(Result);
  }

private:
  // Every def under \p N, with the scope it is nested in (a class body is
  // not a scope its methods see).
  void defsIn(TSNode N, const Scope &Enclosing) {
    for (TSNode C : children(N)) {
      if (is(C, "function_definition")) {
        auto S = makeScope(C, Scope::Def, &Enclosing, F, I);
        analyse(*S, F.text(field(C, "name")).str());
        defsIn(field(C, "body"), *S);
        continue;
      }
      if (is(C, "lambda"))
        continue;
      defsIn(C, Enclosing);
    }
  }

  void analyse(const Scope &S, std::string Name) {
    ++Result.Scopes;
    Builder B(F, I, X, Opts.SideStreamParameters, Modules);
    LoweredFunction L = B.build(S, Name);
    SolverLimits Limits = Opts.Limits;
    Limits.Dump = !Opts.DumpFunction.empty() && Opts.DumpFunction == Name;
    if (Limits.Dump)
      llvm::errs() << "streamsafe-py: facts and states of " << Name << "\n";
    SolverResult R = solve(*L.IR, Limits);
    if (R.State == SolverResult::BudgetExceeded) {
      Result.Skipped.push_back(Name + " (line " +
                               std::to_string(start(S.Node).Line) + ")");
      return;
    }
    report::Vocabulary V;
    V.IR = L.IR.get();
    V.FunctionName = Name;
    V.ScopedStreamSetter = "a `with torch.cuda.stream(...)` block";
    V.SideStreamCapture = "a torch.cuda.Stream() under torch.cuda.graph";
    V.RelaxedCapture = "capture with torch.cuda.graph(..., "
                       "capture_error_mode=\"relaxed\")";
    V.CurrentStreamGetter = "current_stream";
    V.CalleeAt = [&L](SiteId Site) {
      auto It = L.Callees.find(Site);
      return It == L.Callees.end() ? std::string() : It->second;
    };
    for (const Finding &Fd : R.Findings) {
      std::vector<Diagnostic> D;
      for (const report::Line &Line : report::word(Fd, V)) {
        Diagnostic X;
        const Site &At = L.IR->Sites[Line.At];
        auto Other = L.ScopeFiles.find(At.Scope);
        const SourceFile &In = Other == L.ScopeFiles.end() ? F : *Other->second;
        X.At = In.original(unpackLoc(At.Loc));
        if (&In != &F)
          X.File = In.path();
        X.Text = Line.Text;
        if (!Line.Note)
          X.Check = report::checkName(Fd.kind());
        D.push_back(std::move(X));
      }
      if (!D.empty()) {
        Result.Findings.push_back(std::move(D));
        // In a helper run in place, at the helper's line, with its other
        // site (if it has one: an unrestored set has none) in the helper
        // too: what the helper's own analysis finds.
        unsigned Scope = L.IR->Sites[Fd.site()].Scope;
        SiteId Paired = pairedSite(Fd);
        ThroughCall.push_back(
            Scope != 0 &&
            (Paired == NoSite ||
             (Fd.CallSite != NoSite && Scope == L.IR->Sites[Paired].Scope)));
      }
    }
  }

  const SourceFile &F;
  const PyOptions &Opts;
  Imports I;
  HelperIndex X;
  std::unique_ptr<ModuleCache> OwnModules;
  ModuleCache *Modules = nullptr;
  FileResult Result;
  /// Per finding: found inside a helper reached through a call.
  std::vector<bool> ThroughCall;
};

} // namespace

FileResult analyzeFile(const SourceFile &F, const PyOptions &Opts) {
  return FileAnalysis(F, Opts).run();
}

} // namespace streamsafe::py
