//===--- FunctionAnalysis.cpp - Clang CFGs to the fact IR, solved ---------===//

#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/ForwardingSetters.h"
#include "lib/frontend/IRBuilder.h"
#include "lib/frontend/ValueExprs.h"
#include "lib/lower/LeavesStreamSet.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
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
      Found |= isStreamEffect(E) ||
               (MD && streamValue(Table.classify(MD->getParent())));
      // A function of the unit that does (`S.Begin()` of a class whose
      // methods set streams) runs in place here.
      if (!Found && E == ApiEffect::None)
        Found |= calleeMentions(*FD);
    } else if (const auto *VD = dyn_cast_or_null<ValueDecl>(D)) {
      Found |= streamValue(Table.classify(VD->getType()));
    }
    return !Found;
  }
  bool calleeMentions(const FunctionDecl &FD) {
    const FunctionDecl *Def = nullptr;
    if (!FD.hasBody(Def) || !Def->getBody() ||
        Def->getASTContext().getSourceManager().isInSystemHeader(
            Def->getLocation()))
      return false;
    return mentionsStreamApis(*Def, Table);
  }
  ApiTable &Table;
};

/// Does the body call item(), tolist() or cpu() of a tensor?
class HostWaitFinder : public RecursiveASTVisitor<HostWaitFinder> {
public:
  explicit HostWaitFinder(ApiTable &Table) : Table(Table) {}
  bool Found = false;
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const Expr *Self = MC->getImplicitObjectArgument();
    Found |= Self && Table.classify(Self->getType()) == ValueClass::Tensor &&
             isHostWaitEffect(Table.lookup(MC->getMethodDecl()).Effect);
    return !Found;
  }

private:
  ApiTable &Table;
};

/// Whether a body of \p IR makes a stream current.
bool setsAStream(const Function &IR) {
  for (const Body &B : IR.Bodies)
    for (const Block &Bl : B.Blocks)
      for (const Fact &F : Bl.Facts)
        if (F.as<fact::SetCurrent>())
          return true;
  return false;
}

} // namespace

bool waitsForHost(const FunctionDecl &FD, ApiTable &Table) {
  auto [It, New] = Table.HostWaits.try_emplace(FD.getCanonicalDecl(), false);
  if (!New)
    return It->second;
  HostWaitFinder Finder(Table);
  Finder.TraverseStmt(FD.getBody());
  Table.HostWaits[FD.getCanonicalDecl()] = Finder.Found;
  return Finder.Found;
}

bool mentionsStreamApis(const FunctionDecl &FD, ApiTable &Table) {
  const FunctionDecl *Key = FD.getCanonicalDecl();
  // Taken as no while it is being scanned (recursion).
  auto [It, New] = Table.StreamMentions.try_emplace(Key, false);
  if (!New)
    return It->second;
  StreamApiFinder Finder(Table);
  Finder.TraverseStmt(FD.getBody());
  Table.StreamMentions[Key] = Finder.Found;
  return Finder.Found;
}

bool classUsesStreams(const CXXRecordDecl &RD, ApiTable &Table) {
  const CXXRecordDecl *Key = RD.getCanonicalDecl();
  auto [It, New] = Table.ClassStreamMentions.try_emplace(Key, false);
  if (!New || !RD.hasDefinition())
    return It->second;
  bool Found = false;
  for (const CXXMethodDecl *M : RD.getDefinition()->methods())
    if (M->hasBody() && mentionsStreamApis(*M, Table)) {
      Found = true;
      break;
    }
  Table.ClassStreamMentions[Key] = Found;
  return Found;
}

std::unique_ptr<FunctionResult> analyzeFunction(const FunctionDecl &FD,
                                                ASTContext &Ctx,
                                                const AnalysisOptions &Opts,
                                                ApiTable &Table,
                                                ObjectStreams *Held) {
  auto Result = std::make_unique<FunctionResult>();
  if (!FD.hasBody() || !mentionsStreamApis(FD, Table)) {
    Result->State = FunctionResult::NoStreamCode;
    return Result;
  }
  Result->IR = lowerFunction(FD, Ctx, Table, Held, Opts.SideStreamParameters);
  if (!Result->IR) {
    Result->State = FunctionResult::NoCFG;
    return Result;
  }
  Function &IR = *Result->IR;
  Result->Blocks = IR.Bodies[0].Blocks.size();
  // Whether the stream it may leave set is not its caller's to have back
  // (lib/lower/LeavesStreamSet.h).
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  lower::LeaveSetEvidence Leave;
  Leave.BindingInitializer =
      Opts.Config.StreamBindingInitializers.contains(canonicalName(&FD));
  Leave.Lambda = MD && MD->getParent()->isLambda();
  Leave.ThreadBody = Held && Held->threadBody(&FD);
  Leave.OpensSection = Held && Held->opensSection(&FD);
  Leave.GuardMember =
      MD && Table.classify(MD->getParent()) == ValueClass::StreamGuard;
  // (Read only where it can matter: the function sets a stream.)
  Leave.ForwardsParameters =
      !lower::mayLeaveStreamSet(Leave) && setsAStream(IR) &&
      forwardsStreamParameters(FD, Table, Leave.ReadsCurrent);
  IR.MayLeaveStreamSet = lower::mayLeaveStreamSet(Leave);

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
    const auto Start = std::chrono::steady_clock::now();
    if (!Held)
      Held = std::make_unique<ObjectStreams>(Ctx, Table);
    Slot = analyzeFunction(FD, Ctx, Opts, Table, Held.get());
    if (Opts.TimeFunctionsMs) {
      const double Ms = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
      if (Ms >= Opts.TimeFunctionsMs)
        llvm::errs() << "streamsafe: analysed '"
                     << FD.getQualifiedNameAsString() << "' in "
                     << llvm::format("%.1f", Ms) << " ms (" << Slot->Blocks
                     << " blocks, " << Slot->BlockVisits << " block visits, "
                     << Slot->StateWork << " state entries touched)\n";
    }
    if (Slot->State == FunctionResult::BudgetExceeded)
      ++Skipped;
  }
  return *Slot;
}

} // namespace streamsafe
