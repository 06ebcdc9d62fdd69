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
#include "clang/Basic/SourceManager.h"
#include "clang/Analysis/CFG.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace clang;

namespace streamsafe {

namespace {

/// Cheap pre-scan: does the body mention anything stream-related?
class StreamApiFinder : public RecursiveASTVisitor<StreamApiFinder> {
public:
  bool Found = false;
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) { return !(Found = true); }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return check(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return check(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return check(E->getConstructor());
  }
  bool VisitVarDecl(VarDecl *V) {
    ValueClass C = classifyType(V->getType());
    if (C != ValueClass::None && C != ValueClass::Tensor)
      Found = true;
    return !Found;
  }

private:
  bool check(const Decl *D) {
    const auto *ND = dyn_cast_or_null<NamedDecl>(D);
    if (!ND)
      return true;
    if (const auto *FD = dyn_cast<FunctionDecl>(ND)) {
      ValueClass Owner = ValueClass::None;
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        Owner = classifyRecord(MD->getParent());
      if (classifyCall(canonicalName(FD)) != ApiEffect::None ||
          (Owner != ValueClass::None && Owner != ValueClass::Tensor) ||
          (Owner == ValueClass::Tensor && FD->getName() == "record_stream"))
        Found = true;
    } else if (const auto *VD = dyn_cast<ValueDecl>(ND)) {
      ValueClass C = classifyType(VD->getType());
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
      const CFGBlock *Succ = *(B->succ_begin() + I++);
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

bool mentionsStreamApis(const FunctionDecl &FD) {
  StreamApiFinder Finder;
  Finder.TraverseStmt(FD.getBody());
  return Finder.Found;
}

std::unique_ptr<FunctionResult> analyzeFunction(const FunctionDecl &FD,
                                                ASTContext &Ctx,
                                                const AnalysisOptions &Opts) {
  auto Result = std::make_unique<FunctionResult>();
  if (!FD.hasBody() || !mentionsStreamApis(FD)) {
    Result->State = FunctionResult::NoStreamCode;
    return Result;
  }
  CFG::BuildOptions BO;
  BO.AddImplicitDtors = true;
  BO.AddTemporaryDtors = true;
  BO.AddInitializers = true;
  BO.setAllAlwaysAdd();
  std::unique_ptr<CFG> G = CFG::buildCFG(&FD, FD.getBody(), &Ctx, BO);
  if (!G) {
    Result->State = FunctionResult::NoCFG;
    return Result;
  }
  ParentMap Parents(FD.getBody());
  Transfer T(Ctx, FD, Result->Sites, Parents);
  FactBuilder Builder(Result->Sites);

  // Lower every element once.
  unsigned NumBlocks = G->getNumBlockIDs();
  std::vector<FactList> Facts(NumBlocks);
  for (const CFGBlock *B : *G)
    for (const CFGElement &E : *B)
      Builder.lower(E, Facts[B->getBlockID()]);

  std::vector<unsigned> Order = reversePostOrder(*G);
  std::vector<unsigned> Rank(NumBlocks, ~0u);
  for (unsigned I = 0; I < Order.size(); ++I)
    Rank[Order[I]] = I;
  std::vector<const CFGBlock *> ById(NumBlocks);
  for (const CFGBlock *B : *G)
    ById[B->getBlockID()] = B;

  std::vector<StreamState> In(NumBlocks), Out(NumBlocks);
  std::vector<char> Visited(NumBlocks, 0);
  const StreamState Entry = T.entryState();
  unsigned EntryId = G->getEntry().getBlockID();

  auto InputOf = [&](const CFGBlock *B) {
    StreamState S;
    if (B->getBlockID() == EntryId)
      S = Entry;
    for (const CFGBlock *P : B->preds())
      if (P)
        S.join(Out[P->getBlockID()]);
    return S;
  };
  auto Run = [&](unsigned Id, StreamState S, std::vector<Finding> *Findings) {
    for (const Fact &F : Facts[Id])
      T.apply(F, S, Findings);
    T.collectGarbage(S);
    return S;
  };

  std::set<unsigned> Work = {Rank[EntryId]};
  const unsigned Budget = Opts.VisitsPerBlock * NumBlocks + 16;
  Result->Blocks = NumBlocks;
  while (!Work.empty()) {
    unsigned Id = Order[*Work.begin()];
    Work.erase(Work.begin());
    if (++Result->BlockVisits > Budget) {
      Result->State = FunctionResult::BudgetExceeded;
      return Result;
    }
    StreamState NewIn = InputOf(ById[Id]);
    if (Visited[Id] && NewIn == In[Id])
      continue;
    Visited[Id] = 1;
    In[Id] = NewIn;
    StreamState NewOut = Run(Id, NewIn, nullptr);
    if (NewOut == Out[Id] && Out[Id].Reachable)
      continue;
    Out[Id] = std::move(NewOut);
    for (const CFGBlock *Succ : ById[Id]->succs())
      if (Succ && Rank[Succ->getBlockID()] != ~0u)
        Work.insert(Rank[Succ->getBlockID()]);
  }

  // Report from the fixpoint, once per block.
  bool Dump = !Opts.DumpFunction.empty() &&
              FD.getQualifiedNameAsString() == Opts.DumpFunction;
  if (Dump)
    llvm::errs() << "streamsafe: facts and states of " << Opts.DumpFunction
                 << "\n";
  std::vector<Finding> Findings;
  for (unsigned Id : Order) {
    if (!Visited[Id])
      continue;
    if (Dump)
      llvm::errs() << " block B" << Id << "\n";
    StreamState S = In[Id];
    for (const Fact &F : Facts[Id]) {
      T.apply(F, S, &Findings);
      if (Dump)
        T.dump(F, S, llvm::errs());
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
  // One finding per tensor, cause and line: t.mm(t) reads t twice.
  auto Same = [&](const Finding &L, const Finding &R) {
    return L.Kind == R.Kind && L.Tensor == R.Tensor &&
           L.Prior.Site == R.Prior.Site &&
           SM.getPresumedLineNumber(Sites[L.Access.Site].Loc) ==
               SM.getPresumedLineNumber(Sites[R.Access.Site].Loc);
  };
  Findings.erase(std::unique(Findings.begin(), Findings.end(), Same),
                 Findings.end());
  Result->Findings = std::move(Findings);
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
