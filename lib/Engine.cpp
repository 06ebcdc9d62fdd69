//===--- Engine.cpp - The worklist over the CFG ---------------------------===//
//
// A forward dataflow over clang::CFG (implicit and temporary destructors, so
// guards and tensor lifetimes are visible). Blocks are visited in reverse
// post-order until the states converge, within a budget of visits per block;
// then one more pass over the converged states collects findings, so each
// finding is reported once, from the fixpoint.
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "lib/FactBuilder.h"
#include "lib/FunctionAnalysis.h"
#include "lib/Transfer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace clang;

namespace streamsafe {

namespace {

/// Cheap pre-scan: does the body mention anything stream-related?
class StreamApiFinder : public RecursiveASTVisitor<StreamApiFinder> {
public:
  explicit StreamApiFinder(const ApiConfig &Config) : Config(Config) {}
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
    ValueClass C = classifyType(V->getType(), &Config);
    if (C != ValueClass::None && C != ValueClass::Tensor)
      Found = true;
    return !Found;
  }

private:
  const ApiConfig &Config;
  bool configured(StringRef Name) const {
    for (const auto &E : ApiConfig::entries())
      if ((Config.*E.Field).contains(Name))
        return true;
    return false;
  }
  bool check(const Decl *D) {
    const auto *ND = dyn_cast_or_null<NamedDecl>(D);
    if (!ND)
      return true;
    if (const auto *FD = dyn_cast<FunctionDecl>(ND)) {
      ValueClass Owner = ValueClass::None;
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        Owner = classifyRecord(MD->getParent(), &Config);
      std::string Name = canonicalName(FD);
      if (classifyCall(Name) != ApiEffect::None || configured(Name) ||
          (Owner != ValueClass::None && Owner != ValueClass::Tensor) ||
          (Owner == ValueClass::Tensor && FD->getName() == "record_stream"))
        Found = true;
    } else if (const auto *VD = dyn_cast<ValueDecl>(ND)) {
      ValueClass C = classifyType(VD->getType(), &Config);
      if (C != ValueClass::None && C != ValueClass::Tensor)
        Found = true;
    }
    return !Found;
  }
};

std::vector<unsigned> reversePostOrder(const CFG &G) {
  std::vector<unsigned> Order;
  std::vector<char> Seen(G.getNumBlockIDs(), 0);
  // Iterative DFS: (block, next successor index).
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
  Stack.push_back({&G.getEntry(), 0});
  Seen[G.getEntry().getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, I] = Stack.back();
    if (I < B->succ_size()) {
      // Successors last to first: a loop's exit is finished before its
      // body, so the body comes first in reverse post-order and a loop
      // converges before the code after it is visited (first to last put
      // every loop body after the rest of the function: each iteration
      // re-ran everything downstream, O(N) visits per block).
      const CFGBlock *Succ = *(B->succ_end() - 1 - I++);
      if (Succ && !Seen[Succ->getBlockID()]) {
        Seen[Succ->getBlockID()] = 1;
        Stack.push_back({Succ, 0});
      }
      continue;
    }
    Order.push_back(B->getBlockID());
    Stack.pop_back();
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

} // namespace

bool mentionsStreamApis(const FunctionDecl &FD, const ApiConfig &Config) {
  StreamApiFinder Finder(Config);
  Finder.TraverseStmt(FD.getBody());
  return Finder.Found;
}

namespace {

/// One CFG (a function body or a callable run on another thread), lowered
/// once, solved from an entry state.
struct LoweredCFG {
  std::unique_ptr<CFG> G;
  std::vector<FactList> Facts;
  std::vector<unsigned> Order; ///< reverse post-order of block ids
  std::vector<unsigned> Rank;
  std::vector<const CFGBlock *> ById;
};

class Solver {
public:
  Solver(ASTContext &Ctx, const AnalysisOptions &Opts, FunctionResult &R,
         Transfer &T, FactBuilder &B)
      : Ctx(Ctx), Opts(Opts), R(R), T(T), Builder(B) {}

  std::unique_ptr<LoweredCFG> lower(const Decl *D, Stmt *Body) {
    CFG::BuildOptions BO;
    BO.AddImplicitDtors = true;
    BO.AddTemporaryDtors = true;
    BO.AddInitializers = true;
    BO.setAllAlwaysAdd();
    auto L = std::make_unique<LoweredCFG>();
    L->G = CFG::buildCFG(D, Body, &Ctx, BO);
    if (!L->G)
      return nullptr;
    unsigned N = L->G->getNumBlockIDs();
    L->Facts.resize(N);
    L->ById.resize(N);
    for (const CFGBlock *B : *L->G) {
      L->ById[B->getBlockID()] = B;
      for (const CFGElement &E : *B)
        Builder.lower(E, L->Facts[B->getBlockID()]);
    }
    L->Order = reversePostOrder(*L->G);
    L->Rank.assign(N, ~0u);
    for (unsigned I = 0; I < L->Order.size(); ++I)
      L->Rank[L->Order[I]] = I;
    return L;
  }

  /// Solves \p L from \p Entry to a fixpoint; then, when \p Out is set,
  /// replays each block once from its converged input to collect findings.
  /// Returns the state at the exit block, unreachable when over budget.
  std::function<StorageId(const VarDecl *)> PhiFor = [this](const VarDecl *V) {
    return T.phiFor(V);
  };

  StreamState solve(const LoweredCFG &L, const StreamState &Entry,
                    std::vector<Finding> *Out, bool Dump,
                    std::vector<std::pair<const CFGBlock *, StreamState>>
                        *ExitPaths = nullptr) {
    unsigned N = L.G->getNumBlockIDs();
    std::vector<StreamState> In(N), OutState(N);
    std::vector<char> Visited(N, 0);
    std::vector<unsigned> Visits(N, 0);
    unsigned EntryId = L.G->getEntry().getBlockID();
    unsigned JoinWork = 0;
    // A loop head (a predecessor comes later in the order), or a block
    // visited a few times already, joins coarsely: an event's covers are
    // what every path's record listed. The finer join is not monotone (what
    // a record covers depends on what is in flight, which the covers
    // complete), and a loop must converge.
    auto Coarse = [&](const CFGBlock *B) {
      if (Visits[B->getBlockID()] >= 3)
        return true;
      for (const CFGBlock *P : B->preds())
        if (P && L.Rank[P->getBlockID()] != ~0u &&
            L.Rank[P->getBlockID()] >= L.Rank[B->getBlockID()])
          return true;
      return false;
    };
    auto InputOf = [&](const CFGBlock *B) {
      StreamState S;
      if (B->getBlockID() == EntryId)
        S = Entry;
      bool Widen = Coarse(B);
      for (const CFGBlock *P : B->preds())
        if (P)
          JoinWork += S.join(OutState[P->getBlockID()], PhiFor, Widen);
      return S;
    };
    std::set<unsigned> Work = {L.Rank[EntryId]};
    const unsigned Budget = R.BlockVisits + Opts.VisitsPerBlock * N + 16;
    while (!Work.empty()) {
      unsigned Id = L.Order[*Work.begin()];
      Work.erase(Work.begin());
      if (++R.BlockVisits > Budget ||
          R.State == FunctionResult::BudgetExceeded) {
        R.State = FunctionResult::BudgetExceeded;
        return StreamState();
      }
      StreamState NewIn = InputOf(L.ById[Id]);
      // After a dozen visits (nested loops need a few per level) a block's
      // input only grows (joined with the last one): a record covers what
      // is in flight and a sync completes what was covered, so a loop can
      // otherwise swing between two states for ever. The states form a
      // finite lattice: this terminates.
      if (Visited[Id] && ++Visits[Id] > 12) {
        StreamState Grown = In[Id];
        JoinWork += Grown.join(NewIn, PhiFor, /*Coarse=*/true);
        NewIn = std::move(Grown);
      }
      // Work, not only visits: the entries joins and sweeps touched (states
      // share what did not change, so this is what a visit costs).
      R.StateWork +=
          1 + L.Facts[Id].size() + std::exchange(JoinWork, 0) + T.takeWork();
      if (R.StateWork > Opts.MaxStateWork) {
        R.State = FunctionResult::BudgetExceeded;
        return StreamState();
      }
      if (Visited[Id] && NewIn == In[Id])
        continue;
      Visited[Id] = 1;
      StreamState S = NewIn;
      In[Id] = std::move(NewIn);
      for (const Fact &F : L.Facts[Id])
        T.apply(F, S, nullptr);
      T.collectGarbage(S);
      if (S == OutState[Id] && OutState[Id].Reachable)
        continue;
      OutState[Id] = std::move(S);
      for (const CFGBlock *Succ : L.ById[Id]->succs())
        if (Succ && L.Rank[Succ->getBlockID()] != ~0u)
          Work.insert(L.Rank[Succ->getBlockID()]);
    }
    if (Out)
      for (unsigned Id : L.Order) {
        if (!Visited[Id])
          continue;
        if (Dump)
          llvm::errs() << " block B" << Id << "\n";
        StreamState S = In[Id];
        for (const Fact &F : L.Facts[Id]) {
          T.apply(F, S, Out);
          if (Dump)
            T.dump(F, S, llvm::errs());
        }
      }
    const CFGBlock &ExitBlock = L.G->getExit();
    if (ExitPaths)
      for (const CFGBlock *P : ExitBlock.preds())
        if (P && Visited[P->getBlockID()])
          ExitPaths->push_back({P, OutState[P->getBlockID()]});
    return In[ExitBlock.getBlockID()];
  }

  /// Runs a callable's body from \p Entry (nested CFGs are lowered once).
  StreamState runBody(const LambdaExpr &L, const StreamState &Entry,
                      std::vector<Finding> *Out) {
    if (Depth >= 4)
      return StreamState();
    auto &Slot = Bodies[&L];
    if (!Slot) {
      const CXXMethodDecl *Call = L.getCallOperator();
      Slot = lower(Call, L.getBody());
      if (!Slot)
        return StreamState();
    }
    // A body has a budget of its own: its visits do not count against the
    // function that spawns it.
    ++Depth;
    unsigned Before = R.BlockVisits;
    StreamState Exit = solve(*Slot, Entry, Out, false);
    R.NestedVisits += R.BlockVisits - Before;
    R.BlockVisits = Before;
    --Depth;
    return Exit;
  }

private:
  ASTContext &Ctx;
  const AnalysisOptions &Opts;
  FunctionResult &R;
  Transfer &T;
  FactBuilder &Builder;
  llvm::DenseMap<const LambdaExpr *, std::unique_ptr<LoweredCFG>> Bodies;
  unsigned Depth = 0;
};

} // namespace

std::unique_ptr<FunctionResult> analyzeFunction(const FunctionDecl &FD,
                                                ASTContext &Ctx,
                                                const AnalysisOptions &Opts) {
  auto Result = std::make_unique<FunctionResult>();
  if (!FD.hasBody() || !mentionsStreamApis(FD, Opts.Config)) {
    Result->State = FunctionResult::NoStreamCode;
    return Result;
  }
  ParentMap Parents(FD.getBody());
  Transfer T(Ctx, FD, Result->Sites, Parents, Opts.Config);
  FactBuilder Builder(Result->Sites, Opts.Config);
  Solver Solve(Ctx, Opts, *Result, T, Builder);
  T.setBodyRunner(
      [&](const LambdaExpr &L, const StreamState &Entry,
          std::vector<Finding> *Out) { return Solve.runBody(L, Entry, Out); });
  std::unique_ptr<LoweredCFG> L = Solve.lower(&FD, FD.getBody());
  if (!L) {
    Result->State = FunctionResult::NoCFG;
    return Result;
  }
  Result->Blocks = L->G->getNumBlockIDs();

  bool Dump = !Opts.DumpFunction.empty() &&
              FD.getQualifiedNameAsString() == Opts.DumpFunction;
  if (Dump)
    llvm::errs() << "streamsafe: facts and states of " << Opts.DumpFunction
                 << "\n";
  std::vector<Finding> Findings;
  std::vector<std::pair<const CFGBlock *, StreamState>> ExitPaths;
  StreamState Exit =
      Solve.solve(*L, T.entryState(), &Findings, Dump, &ExitPaths);
  if (Result->State == FunctionResult::BudgetExceeded)
    return Result;

  // A function may leave a stream set when it is a documented initialiser
  // (it binds a stream for its thread's life) or a lambda (its thread's
  // current stream is its own business; thread bodies are checked at spawn).
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  bool Exempt =
      Opts.Config.StreamBindingInitializers.contains(canonicalName(&FD)) ||
      (MD && MD->getParent()->isLambda()) ||
      (MD && Opts.Config.isGuardClass(MD->getParent()));
  if (!Exempt && Exit.Reachable) {
    // Report each unrestored set once, at the first path out that keeps it:
    // a return statement, or the end of the body.
    std::set<SiteId> Done;
    for (const auto &[Block, State] : ExitPaths) {
      const Stmt *Ret = nullptr;
      for (const CFGElement &E : *Block)
        if (auto CS = E.getAs<CFGStmt>())
          if (isa<ReturnStmt>(CS->getStmt()))
            Ret = CS->getStmt();
      SourceLocation Loc = Ret ? Ret->getBeginLoc() : FD.getBody()->getEndLoc();
      StreamState Left = State;
      llvm::erase_if(Left.Unrestored,
                     [&](SiteId U) { return !Done.insert(U).second; });
      if (Left.Unrestored.empty())
        continue;
      SiteId End = Result->Sites.add(SiteKind::Other, Loc, Ret);
      T.atExit(Left, End, Findings);
    }
  }

  // Deterministic: sorted by location, one finding per (kind, site, cause).
  const SourceManager &SM = Ctx.getSourceManager();
  const SiteTable &Sites = Result->Sites;
  auto Key = [&](const Finding &F) {
    return std::make_tuple(F.Access.Site, static_cast<int>(F.Kind),
                           F.Prior.Site);
  };
  std::sort(Findings.begin(), Findings.end(),
            [&](const Finding &L, const Finding &R) {
              SourceLocation A = Sites[L.Access.Site].Loc;
              SourceLocation B = Sites[R.Access.Site].Loc;
              if (A != B)
                return SM.isBeforeInTranslationUnit(A, B);
              return Key(L) < Key(R);
            });
  // One finding per tensor, cause and line: t.mm(t) reads t twice. One
  // thread-current-stream finding per spawn: the first work in the body.
  std::set<SiteId> SpawnsReported;
  std::vector<Finding> Unique;
  for (Finding &F : Findings) {
    if (F.Kind == FindingKind::ThreadCurrentStream &&
        !SpawnsReported.insert(F.Related).second)
      continue;
    if (!Unique.empty()) {
      const Finding &P = Unique.back();
      if (P.Kind == F.Kind && P.Tensor == F.Tensor &&
          P.Prior.Site == F.Prior.Site &&
          SM.getPresumedLineNumber(Sites[P.Access.Site].Loc) ==
              SM.getPresumedLineNumber(Sites[F.Access.Site].Loc))
        continue;
    }
    Unique.push_back(std::move(F));
  }
  Result->Findings = std::move(Unique);
  return Result;
}

const FunctionResult &AnalysisSession::get(const FunctionDecl &FD,
                                           ASTContext &Ctx) {
  if (CurrentTU != &Ctx) {
    Cache.clear();
    CurrentTU = &Ctx;
    Skipped = 0;
  }
  auto &Slot = Cache[&FD];
  if (!Slot) {
    Slot = analyzeFunction(FD, Ctx, Opts);
    if (Slot->State == FunctionResult::BudgetExceeded)
      ++Skipped;
  }
  return *Slot;
}

} // namespace streamsafe
