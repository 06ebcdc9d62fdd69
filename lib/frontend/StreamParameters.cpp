//===--- StreamParameters.cpp - Parameters CUDA work runs on --------------===//

#include "lib/frontend/StreamParameters.h"
#include "lib/frontend/DefaultStreamScan.h"
#include "lib/frontend/ThrustPolicies.h"
#include "lib/model/Bounds.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe {

namespace {

// The parameter an argument names, as written (through implicit
// conversions, copies and CUDAStream accessors).
const ParmVarDecl *namedParameter(const Expr *Arg, ApiTable &Table) {
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(streamExprAsWritten(Arg, Table));
  return Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
}

} // namespace

const StreamParameterUse *StreamParameters::use(const FunctionDecl &Callee,
                                                unsigned Index) {
  for (const StreamParameterUse &U : of(Callee, 0))
    if (U.Index == Index)
      return &U;
  return nullptr;
}

const std::vector<StreamParameterUse> &
StreamParameters::of(const FunctionDecl &Callee, unsigned Depth) {
  static const std::vector<StreamParameterUse> None;
  // A template's specialization has its own (instantiated) definition.
  const FunctionDecl *FD = Callee.getDefinition();
  if (!FD || !FD->getBody())
    return None;
  if (auto It = Memo.find(FD); It != Memo.end())
    return It->second;
  if (Depth > bounds::MaxStreamForwarding)
    return None;
  // In progress: a recursive call sees no summary (the memo entry is
  // empty until this one is computed).
  Memo[FD];
  std::vector<StreamParameterUse> Uses = compute(*FD, Depth);
  std::vector<StreamParameterUse> &Slot = Memo[FD];
  Slot = std::move(Uses);
  return Slot;
}

std::vector<StreamParameterUse>
StreamParameters::compute(const FunctionDecl &FD, unsigned Depth) {
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD.getLocation())) ||
      isDeviceOnlyCode(FD))
    return {};
  bool AnyStream = llvm::any_of(FD.parameters(), [&](const ParmVarDecl *P) {
    return Table.classify(P->getType()) == ValueClass::RawStream;
  });
  if (!AnyStream)
    return {};

  scan::BodyScan Scan(Table, scan::BodyScan::WithLambdas);
  Scan.TraverseStmt(FD.getBody());
  Scan.finish();

  // The first step of each parameter, in source order: the work on it, or
  // the call that passes it on (with the callee's steps after it).
  llvm::DenseMap<const ParmVarDecl *, StreamParameterUse> Found;
  auto Judged = [&](const ParmVarDecl *P) {
    return P && P->getDeclContext() == &FD &&
           Table.classify(P->getType()) == ValueClass::RawStream &&
           !Scan.mayChange(*P) && !Scan.Tested.count(P);
  };
  auto Keep = [&](const ParmVarDecl *P, StreamParameterUse Use) {
    auto [It, New] = Found.try_emplace(P, std::move(Use));
    if (!New && SM.isBeforeInTranslationUnit(Use.Steps.front().At,
                                             It->second.Steps.front().At))
      It->second = std::move(Use);
  };
  auto Work = [&](const ParmVarDecl *P, SourceLocation At, WorkKind Kind,
                  StringRef Api) {
    if (!Judged(P))
      return;
    StreamParameterStep Step;
    Step.Function = &FD;
    Step.Param = P->getName();
    Step.At = SM.getExpansionLoc(At);
    Step.Work = Kind;
    Step.Api = Api;
    Keep(P, {P->getFunctionScopeIndex(), {Step}});
  };

  for (const CUDAKernelCallExpr *L : Scan.Launches)
    if (const CallExpr *Config = L->getConfig();
        Config && Config->getNumArgs() > 3)
      Work(namedParameter(Config->getArg(3), Table), L->getBeginLoc(),
           WorkKind::KernelLaunch, "");
  for (const CallExpr *Call : Scan.Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const ApiEntry &Api = Table.lookup(Callee);
    if (workKind(Api.Effect) != WorkKind::StreamApi)
      continue;
    if (std::optional<unsigned> I = runtimeStreamIndex(*Callee, Api, Table);
        I && *I < Call->getNumArgs())
      Work(namedParameter(Call->getArg(*I), Table), Call->getBeginLoc(),
           WorkKind::StreamApi, Callee->getName());
  }
  for (const CallExpr *Call : Scan.ThrustCalls) {
    ThrustWork T = thrustWork(
        *Call, [](const VarDecl &) -> const Expr * { return nullptr; });
    Work(namedParameter(T.OnStream, Table), Call->getBeginLoc(),
         WorkKind::StreamApi, Call->getDirectCallee()->getName());
  }
  for (const CallExpr *Call : Scan.LibraryCalls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (isa<CXXOperatorCallExpr>(Call))
      continue;
    bool Cub = isInTopNamespace(Callee, "cub");
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
         ++I) {
      const ParmVarDecl *P = namedParameter(Call->getArg(I), Table);
      if (!Judged(P))
        continue;
      if (Cub) {
        Work(P, Call->getBeginLoc(), WorkKind::StreamApi, Callee->getName());
        continue;
      }
      for (const StreamParameterUse &Sub : of(*Callee, Depth + 1)) {
        if (Sub.Index != I)
          continue;
        StreamParameterStep Step;
        Step.Function = &FD;
        Step.Param = P->getName();
        Step.At = SM.getExpansionLoc(Call->getBeginLoc());
        Step.PassedTo = Callee;
        StreamParameterUse Use{P->getFunctionScopeIndex(), {Step}};
        llvm::append_range(Use.Steps, Sub.Steps);
        Keep(P, std::move(Use));
      }
    }
  }

  std::vector<StreamParameterUse> Uses;
  for (auto &[P, Use] : Found)
    Uses.push_back(std::move(Use));
  llvm::sort(Uses,
             [](const StreamParameterUse &A, const StreamParameterUse &B) {
               return A.Index < B.Index;
             });
  return Uses;
}

} // namespace streamsafe
