//===--- FunctionAnalysis.cpp - Clang CFGs to the fact IR, solved ---------===//

#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/BranchConditions.h"
#include "lib/frontend/Lowering.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include <deque>

using namespace clang;

namespace streamsafe {

namespace {

/// Cheap pre-scan: does the body mention anything stream-related?
class StreamApiFinder : public RecursiveASTVisitor<StreamApiFinder> {
public:
  explicit StreamApiFinder(ApiTable &Table) : Table(Table) {}
  bool Found = false;
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) { return !(Found = true); }
  // A non_blocking copy matters to host reads even with no stream in sight.
  bool VisitCallExpr(CallExpr *CE) {
    Found |= nonBlocking(CE);
    return !Found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return check(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return check(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return check(E->getConstructor());
  }
  bool VisitVarDecl(VarDecl *V) {
    Found |= streamValue(Table.classify(V->getType()));
    return !Found;
  }

private:
  static bool streamValue(ValueClass C) {
    return C != ValueClass::None && C != ValueClass::Tensor;
  }
  bool check(const Decl *D) {
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D)) {
      ApiEffect E = Table.lookup(FD).Effect;
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      Found |= isStreamEffect(E) || E == ApiEffect::TensorRecordStream ||
               (MD && streamValue(Table.classify(MD->getParent())));
    } else if (const auto *VD = dyn_cast_or_null<ValueDecl>(D)) {
      Found |= streamValue(Table.classify(VD->getType()));
    }
    return !Found;
  }
  ApiTable &Table;
};

/// Builds the IR of one function: its body and the callables it runs,
/// each from its own clang::CFG.
class IRBuilder {
public:
  IRBuilder(const FunctionDecl &FD, ASTContext &Ctx, ApiTable &Table)
      : FD(FD), Ctx(Ctx), Parents(FD.getBody()), Conditions(FD),
        L(
            Ctx, Table, *IR, Parents,
            [this](const LambdaExpr &Lambda) { return bodyFor(Lambda); },
            Conditions) {}

  std::unique_ptr<Function> build() {
    IR->Name = FD.getQualifiedNameAsString();
    IR->EntrySite =
        L.site(SiteKind::FunctionEntry, FD.getLocation(), nullptr, &FD);
    IR->Bodies.emplace_back();
    auto G = buildCFG(&FD, FD.getBody());
    if (!G)
      return nullptr;
    lowerBody(*G, 0);
    for (const ParmVarDecl *P : FD.parameters()) {
      VarId V = L.varOf(P);
      IR->Params.push_back(V);
      IR->ParamSites.push_back(
          IR->var(V).Class == VarClass::Tensor
              ? L.site(SiteKind::ParamReady, P->getLocation(), nullptr, P)
              : NoSite);
    }
    // Callables, in the order they were found (each may find more).
    while (!Pending.empty()) {
      auto [Lambda, Id] = Pending.front();
      Pending.pop_front();
      const CXXMethodDecl *Call = Lambda->getCallOperator();
      if (auto Body = buildCFG(Call, Lambda->getBody()))
        lowerBody(*Body, Id);
    }
    exitSites(*G);
    return std::move(IR);
  }

private:
  std::unique_ptr<CFG> buildCFG(const Decl *D, Stmt *Body) {
    CFG::BuildOptions BO;
    BO.AddImplicitDtors = true;
    BO.AddTemporaryDtors = true;
    BO.AddInitializers = true;
    BO.setAllAlwaysAdd();
    return CFG::buildCFG(D, Body, &Ctx, BO);
  }

  BodyId bodyFor(const LambdaExpr &Lambda) {
    auto [It, New] = Bodies.try_emplace(&Lambda, 0);
    if (New) {
      It->second = static_cast<BodyId>(IR->Bodies.size());
      IR->Bodies.emplace_back();
      Pending.push_back({&Lambda, It->second});
    }
    return It->second;
  }

  void lowerBody(const CFG &G, BodyId Id) {
    // Lowering may add bodies: fill a local one, then move it in place.
    Body B;
    B.Blocks.resize(G.getNumBlockIDs());
    B.Entry = G.getEntry().getBlockID();
    B.Exit = G.getExit().getBlockID();
    for (const CFGBlock *From : G) {
      Block &Out = B.Blocks[From->getBlockID()];
      for (const CFGElement &E : *From)
        L.lower(E, Out.Facts);
      for (const CFGBlock *S : From->succs())
        if (S)
          Out.Succs.push_back(S->getBlockID());
      branchConditions(*From, Out);
      for (const CFGBlock *P : From->preds())
        if (P)
          Out.Preds.push_back(P->getBlockID());
    }
    IR->Bodies[Id] = std::move(B);
  }

  // A two-way branch on a never-changing variable: what each edge tells.
  void branchConditions(const CFGBlock &From, Block &Out) {
    if (From.succ_size() != 2 || Out.Succs.size() != 2)
      return;
    std::optional<Assumption> True = Conditions.whenTrue(
        dyn_cast_or_null<Expr>(From.getTerminatorCondition()),
        [this](const VarDecl *V) { return L.varOf(V); });
    if (!True)
      return;
    Out.SuccConds = {*True, Assumption{True->Var, !True->Value}};
  }

  // Where each path leaves the function: its return statement, or the end
  // of the body.
  void exitSites(const CFG &G) {
    Body &B = IR->Bodies[0];
    for (const CFGBlock *P : G.getExit().preds()) {
      if (!P)
        continue;
      const Stmt *Ret = nullptr;
      for (const CFGElement &E : *P)
        if (auto CS = E.getAs<CFGStmt>())
          if (isa<ReturnStmt>(CS->getStmt()))
            Ret = CS->getStmt();
      SourceLocation Loc = Ret ? Ret->getBeginLoc() : FD.getBody()->getEndLoc();
      B.Blocks[P->getBlockID()].ExitSite =
          L.site(SiteKind::FunctionExit, Loc, Ret);
    }
  }

  const FunctionDecl &FD;
  ASTContext &Ctx;
  ParentMap Parents;
  BranchConditions Conditions;
  std::unique_ptr<Function> IR = std::make_unique<Function>();
  Lowering L;
  llvm::DenseMap<const LambdaExpr *, BodyId> Bodies;
  std::deque<std::pair<const LambdaExpr *, BodyId>> Pending;
};

} // namespace

bool mentionsStreamApis(const FunctionDecl &FD, ApiTable &Table) {
  StreamApiFinder Finder(Table);
  Finder.TraverseStmt(FD.getBody());
  return Finder.Found;
}

std::unique_ptr<Function> lowerFunction(const FunctionDecl &FD, ASTContext &Ctx,
                                        ApiTable &Table) {
  return IRBuilder(FD, Ctx, Table).build();
}

std::unique_ptr<FunctionResult> analyzeFunction(const FunctionDecl &FD,
                                                ASTContext &Ctx,
                                                const AnalysisOptions &Opts,
                                                ApiTable &Table) {
  auto Result = std::make_unique<FunctionResult>();
  if (!FD.hasBody() || !mentionsStreamApis(FD, Table)) {
    Result->State = FunctionResult::NoStreamCode;
    return Result;
  }
  Result->IR = lowerFunction(FD, Ctx, Table);
  if (!Result->IR) {
    Result->State = FunctionResult::NoCFG;
    return Result;
  }
  Function &IR = *Result->IR;
  Result->Blocks = IR.Bodies[0].Blocks.size();
  // A function may leave a stream set when it is a documented initialiser
  // (it binds a stream for its thread's life), a lambda (its thread's
  // current stream is its own business; thread bodies are checked where
  // they are spawned) or a method of a guard class (configured, or a
  // hand-written switcher: its constructor sets what its destructor
  // restores).
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  IR.MayLeaveStreamSet =
      Opts.Config.StreamBindingInitializers.contains(canonicalName(&FD)) ||
      (MD && MD->getParent()->isLambda()) ||
      (MD && Table.classify(MD->getParent()) == ValueClass::StreamGuard);

  SolverLimits Limits = Opts.Limits;
  Limits.Dump = !Opts.DumpFunction.empty() &&
                FD.getQualifiedNameAsString() == Opts.DumpFunction;
  if (Limits.Dump)
    llvm::errs() << "streamsafe: facts and states of " << Opts.DumpFunction
                 << "\n";
  SolverResult S = solve(IR, Limits);
  Result->BlockVisits = S.BlockVisits;
  Result->NestedVisits = S.NestedVisits;
  Result->StateWork = S.StateWork;
  if (S.State == SolverResult::BudgetExceeded) {
    Result->State = FunctionResult::BudgetExceeded;
    return Result;
  }
  Result->Findings = std::move(S.Findings);
  return Result;
}

const FunctionResult &AnalysisSession::get(const FunctionDecl &FD,
                                           ASTContext &Ctx) {
  auto &Slot = Cache[&FD];
  if (!Slot) {
    Slot = analyzeFunction(FD, Ctx, Opts, Table);
    if (Slot->State == FunctionResult::BudgetExceeded)
      ++Skipped;
  }
  return *Slot;
}

} // namespace streamsafe
