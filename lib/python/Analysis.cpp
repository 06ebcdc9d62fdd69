//===--- Analysis.cpp - A Python file, analysed ---------------------------===//

#include "lib/python/Analysis.h"
#include "lib/engine/Solver.h"
#include "lib/python/Builder.h"
#include "lib/python/CallerContexts.h"
#include "lib/python/ImportedReturns.h"
#include "lib/report/CheckNames.h"
#include "lib/report/ShownFindings.h"
#include "lib/report/Wording.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
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
    if (Modules)
      answerImportedReturns(*Module, F, I, *Modules);
    Runs.push_back(analyse(*Module, "<module>", nullptr));
    defsIn(F.root(), *Module);
    carryFields();
    for (ScopeRun &Run : Runs) {
      std::string Where =
          Run.Name + " (line " + std::to_string(start(Run.S->Node).Line) + ")";
      if (Run.Skipped)
        Result.Skipped.push_back(Where);
      else if (Run.PathBound && !llvm::is_contained(Result.PathBound, Where))
        Result.PathBound.push_back(Where);
      for (size_t K = 0; K < Run.Findings.size(); ++K) {
        Result.Findings.push_back(std::move(Run.Findings[K]));
        Shown.push_back(std::move(Run.Shown[K]));
      }
    }
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
    // Which are shown: the policy both front ends share
    // (lib/report/ShownFindings.h).
    std::vector<report::ShownFinding> Candidates;
    for (size_t K : Order) {
      const Diagnostic &D = Result.Findings[K][0];
      report::ShownFinding S = Shown[K];
      S.Place = D.File + ":" + std::to_string(D.At.Line) + ":" +
                std::to_string(D.At.Column);
      S.Check = D.Check;
      S.Text = D.Text;
      Candidates.push_back(std::move(S));
    }
    std::vector<std::vector<Diagnostic>> Unique;
    for (size_t I : report::findingsToShow(Candidates))
      Unique.push_back(std::move(Result.Findings[Order[I]]));
    Result.Findings = std::move(Unique);
    return std::move(Result);
  }

private:
  // Every def under \p N, with the scope it is nested in (a class body is
  // not a scope its methods see).
  void defsIn(TSNode N, const Scope &Enclosing) {
    for (TSNode C : children(N)) {
      if (is(C, "function_definition")) {
        // A method's `self.x` holds what its class assigns it.
        TSNode Class = classOf(C);
        llvm::StringMap<VarClass> Attributes =
            ts_node_is_null(Class)
                ? llvm::StringMap<VarClass>()
                : X.lineageAttributes(Class, *Enclosing.ModuleScope);
        auto S = makeScope(C, Scope::Def, &Enclosing, F, I, nullptr,
                           Attributes.empty() ? nullptr : &Attributes);
        const Scope &Own = *S;
        ScopeRun Run = analyse(Own, F.text(field(C, "name")).str(), nullptr);
        Run.Owned = std::move(S);
        Runs.push_back(std::move(Run));
        defsIn(field(C, "body"), Own);
        continue;
      }
      if (is(C, "lambda"))
        continue;
      defsIn(C, Enclosing);
    }
  }

  /// One scope's analysis: its findings, and what it leaves in the
  /// fields of the object it runs on.
  struct ScopeRun {
    const Scope *S = nullptr;
    std::unique_ptr<Scope> Owned;
    std::string Name;
    bool Skipped = false;
    bool PathBound = false;
    std::vector<std::vector<Diagnostic>> Findings;
    /// How each finding is shown (lib/report/ShownFindings.h), less its
    /// place and words.
    std::vector<report::ShownFinding> Shown;
    /// Its object's tensor fields (attribute names), and what it leaves
    /// in flight in them.
    std::vector<std::string> Fields;
    std::vector<std::pair<std::string, FieldCarry>> Left;
  };

  /// A method starts from what its class's methods leave in its object's
  /// fields (docs/python.md, "Objects across methods"): each method was
  /// analysed on its own; one whose fields another method (or an earlier
  /// call of itself) leaves in flight is analysed again from that state.
  void carryFields() {
    llvm::DenseMap<const void *, FieldCarries> ByClass;
    for (const ScopeRun &Run : Runs) {
      if (Run.Left.empty() || !usersCall(Run.S->Node))
        continue;
      for (TSNode C : X.family(classOf(Run.S->Node)))
        for (const auto &[Attr, Carry] : Run.Left)
          ByClass[C.id][Attr].push_back(Carry);
    }
    if (ByClass.empty())
      return;
    for (ScopeRun &Run : Runs) {
      if (Run.Fields.empty() || !usersCall(Run.S->Node))
        continue;
      auto It = ByClass.find(classOf(Run.S->Node).id);
      if (It == ByClass.end() ||
          llvm::none_of(Run.Fields, [&](const std::string &A) {
            return It->second.count(A);
          }))
        continue;
      ScopeRun Again = analyse(*Run.S, Run.Name, &It->second);
      Again.Owned = std::move(Run.Owned);
      Run = std::move(Again);
    }
  }

  /// Whether the object's users call method \p Def, so that it starts
  /// from and leaves a state between the object's calls: not so for a
  /// helper the class's own methods call on self, which run it in place
  /// (what they start from and leave is that state): a private one
  /// (`_flush`), or one no code of the project calls on another object
  /// (ProjectCalls.cpp).
  bool usersCall(TSNode Def) {
    llvm::StringRef Name = F.text(field(Def, "name"));
    if (Name.starts_with("__") && Name.ends_with("__"))
      return true;
    if (!X.calledOnSelf(classOf(Def), Name))
      return true;
    bool Private = Name.starts_with("_");
    return !Private && (!Modules || Modules->calledOnOthers(F, Name));
  }

  ScopeRun analyse(const Scope &S, std::string Name,
                   const FieldCarries *Carries) {
    ScopeRun Run;
    Run.S = &S;
    Run.Name = Name;
    if (!Carries)
      ++Result.Scopes;
    Builder B(F, I, X, Opts.SideStreamParameters, Modules);
    B.carry(Carries);
    LoweredFunction L = B.build(S, Name);
    // A nested def only handed to threads (and given no arguments, which
    // its thread's spawner orders) starts where its threads do.
    if (S.K == Scope::Def && S.Params.empty() && X.onlyRunOnThreads(S.Node))
      L.IR->EntryOnNewThread = true;
    // The stream every caller runs a def under, where it can change what
    // is reported (CallerContexts.h).
    if (S.K == Scope::Def && Modules && spawnsThreads(S.Node, F, I)) {
      if (!CallerModules)
        CallerModules = std::make_unique<ModuleCache>(
            Opts.ProjectRoot, Opts.DeviceModuleFunctions);
      if (std::optional<CallersStream> C =
              callersStream(*Modules, *CallerModules, F, I, X, S.Node))
        noteCallersStream(L, F, *C);
    }
    SolverLimits Limits = Opts.Limits;
    Limits.Dump = !Opts.DumpFunction.empty() && Opts.DumpFunction == Name;
    if (Limits.Dump)
      llvm::errs() << "streamsafe-py: facts and states of " << Name << "\n";
    SolverResult R = solve(*L.IR, Limits);
    if (R.State == SolverResult::BudgetExceeded) {
      Run.Skipped = true;
      return Run;
    }
    // (Only where it can hide a race: a def that uses streams.)
    Run.PathBound =
        R.PathBoundHits > 0 && S.K == Scope::Def && X.usesStreams(S.Node);
    readFields(L, R, Run);
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
    V.TextAt = [&L, this](SiteId Site) {
      if (auto It = L.Conditions.find(Site); It != L.Conditions.end())
        return It->second;
      auto Span = L.CallSpans.find(Site);
      if (Span == L.CallSpans.end())
        return std::string();
      auto Other = L.ScopeFiles.find(L.IR->Sites[Site].Scope);
      const SourceFile &In = Other == L.ScopeFiles.end() ? F : *Other->second;
      return llvm::StringRef(In.text())
          .slice(Span->second.first, Span->second.second)
          .str();
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
        Run.Findings.push_back(std::move(D));
        report::ShownFinding S;
        S.WithinHelper = report::withinHelper(Fd, *L.IR);
        S.ThroughCall = Fd.CallSite != NoSite;
        S.Function = Name;
        if (S.ThroughCall)
          S.Callee = V.CalleeAt(Fd.CallSite);
        S.Origin = report::originOf(Fd, *L.IR, [&](SiteId Id) {
          const Site &At = L.IR->Sites[Id];
          auto Other = L.ScopeFiles.find(At.Scope);
          return (Other == L.ScopeFiles.end() ? F : *Other->second).path() +
                 ":" + std::to_string(At.Loc);
        });
        Run.Shown.push_back(std::move(S));
      }
    }
    return Run;
  }

  /// The fields of the object \p L runs on, and what \p R says it leaves
  /// in them, by attribute name.
  static void readFields(const LoweredFunction &L, const SolverResult &R,
                         ScopeRun &Run) {
    const Function &IR = *L.IR;
    auto Attribute = [&](VarId V) {
      llvm::StringRef Name = IR.var(V).Name;
      return Name.consume_front("self.") ? Name.str() : std::string();
    };
    for (const ObjectField &Field : IR.Fields)
      Run.Fields.push_back(Attribute(Field.Var));
    for (const LeftWrite &W : R.FieldsLeft) {
      const Site &At = IR.Sites[W.Site];
      if (At.Scope != 0 && L.ScopeFiles.count(At.Scope))
        continue; // a helper's line in another file
      FieldCarry C;
      C.Write = At;
      C.Exit = IR.Sites[W.Exit];
      C.Method = IR.Name;
      if (W.Stream != NoVar) {
        C.Stream = Attribute(W.Stream);
        if (C.Stream.empty())
          continue;
      }
      C.OnOther = W.OnOther;
      C.Allocation = W.Allocation;
      C.VisibleToEntry = W.VisibleToEntry;
      C.Complete = W.Complete;
      C.Read = W.Read;
      std::string Field = Attribute(W.Field);
      if (!Field.empty())
        Run.Left.emplace_back(Field, C);
    }
  }

  const SourceFile &F;
  const PyOptions &Opts;
  Imports I;
  HelperIndex X;
  std::unique_ptr<ModuleCache> OwnModules;
  ModuleCache *Modules = nullptr;
  /// The modules parsed to find a def's callers: this file's
  /// (CallerContexts.h).
  std::unique_ptr<ModuleCache> CallerModules;
  FileResult Result;
  /// Each scope's analysis, the module's first, then the defs in order.
  std::vector<ScopeRun> Runs;
  /// Per finding: how it is shown, less its place and words.
  std::vector<report::ShownFinding> Shown;
};

} // namespace

FileResult analyzeFile(const SourceFile &F, const PyOptions &Opts) {
  return FileAnalysis(F, Opts).run();
}

} // namespace streamsafe::py
