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

// The parameter or the member of `this` an argument names, as written
// (through implicit conversions, copies and CUDAStream accessors).
const ValueDecl *namedSource(const Expr *Arg, ApiTable &Table) {
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return nullptr;
  const Expr *E = streamExprAsWritten(Arg, Table);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<ParmVarDecl>(Ref->getDecl());
  return scan::BodyScan::thisMember(E);
}

} // namespace

const StreamParameterUse *StreamParameters::use(const FunctionDecl &Callee,
                                                unsigned Index) {
  for (const StreamParameterUse &U : of(Callee, 0).Params)
    if (U.Index == Index)
      return &U;
  return nullptr;
}

llvm::ArrayRef<StreamMemberUse>
StreamParameters::members(const FunctionDecl &Method) {
  return of(Method, 0).Members;
}

const StreamSummary &StreamParameters::of(const FunctionDecl &Callee,
                                          unsigned Depth) {
  static const StreamSummary None;
  // A template's specialization has its own (instantiated) definition.
  const FunctionDecl *FD = Callee.getDefinition();
  if (!FD || !FD->getBody())
    return None;
  if (auto It = Memo.find(FD); It != Memo.end())
    return *It->second;
  if (Depth > bounds::MaxStreamForwarding)
    return None;
  // In progress: a recursive call sees no summary (the memo entry is
  // empty until this one is computed).
  auto Slot = std::make_unique<StreamSummary>();
  StreamSummary &Summary = *Slot;
  Memo[FD] = std::move(Slot);
  StreamSummary Computed = compute(*FD, Depth);
  Summary = std::move(Computed);
  return Summary;
}

StreamSummary StreamParameters::compute(const FunctionDecl &FD,
                                        unsigned Depth) {
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD.getLocation())) ||
      isDeviceOnlyCode(FD))
    return {};
  auto IsRawStream = [&](const ValueDecl *D) {
    return Table.classify(D->getType()) == ValueClass::RawStream;
  };
  const auto *Method = dyn_cast<CXXMethodDecl>(&FD);
  const CXXRecordDecl *Object =
      Method && Method->isInstance() ? Method->getParent() : nullptr;
  bool AnyStream = llvm::any_of(FD.parameters(), IsRawStream) ||
                   (Object && llvm::any_of(Object->fields(), IsRawStream));
  if (!AnyStream)
    return {};

  scan::BodyScan Scan(Table, scan::BodyScan::WithLambdas);
  Scan.TraverseStmt(FD.getBody());
  Scan.finish();

  // The first step of each source, in source order: the work on it, or the
  // call that passes it on (with the callee's steps after it).
  llvm::DenseMap<const ValueDecl *, std::vector<StreamParameterStep>> Found;
  auto Judged = [&](const ValueDecl *D) {
    if (!D || !IsRawStream(D) || Scan.Tested.count(D))
      return false;
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return P->getDeclContext() == &FD && !Scan.mayChange(*P);
    const auto *F = cast<FieldDecl>(D);
    return Object && F->getParent() == Object && !Scan.AssignedFields.count(F);
  };
  auto Keep = [&](const ValueDecl *D, std::vector<StreamParameterStep> Steps) {
    auto [It, New] = Found.try_emplace(D, std::move(Steps));
    if (!New &&
        SM.isBeforeInTranslationUnit(Steps.front().At, It->second.front().At))
      It->second = std::move(Steps);
  };
  auto Work = [&](const ValueDecl *D, SourceLocation At, WorkKind Kind,
                  StringRef Api) {
    if (!Judged(D))
      return;
    StreamParameterStep Step;
    Step.Function = &FD;
    Step.Param = D->getName();
    Step.At = SM.getExpansionLoc(At);
    Step.Work = Kind;
    Step.Api = Api;
    Keep(D, {Step});
  };

  for (const CUDAKernelCallExpr *L : Scan.Launches)
    if (const CallExpr *Config = L->getConfig();
        Config && Config->getNumArgs() > 3)
      Work(namedSource(Config->getArg(3), Table), L->getBeginLoc(),
           WorkKind::KernelLaunch, "");
  for (const CallExpr *Call : Scan.Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const ApiEntry &Api = Table.lookup(Callee);
    if (workKind(Api.Effect) != WorkKind::StreamApi)
      continue;
    if (std::optional<unsigned> I = runtimeStreamIndex(*Callee, Api, Table);
        I && *I < Call->getNumArgs())
      Work(namedSource(Call->getArg(*I), Table), Call->getBeginLoc(),
           WorkKind::StreamApi, Callee->getName());
  }
  for (const CallExpr *Call : Scan.ThrustCalls) {
    ThrustWork T = thrustWork(
        *Call, [](const VarDecl &) -> const Expr * { return nullptr; });
    Work(namedSource(T.OnStream, Table), Call->getBeginLoc(),
         WorkKind::StreamApi, Call->getDirectCallee()->getName());
  }
  for (const CallExpr *Call : Scan.LibraryCalls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (isa<CXXOperatorCallExpr>(Call))
      continue;
    bool Cub = isCubFunction(Callee);
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
         ++I) {
      const ValueDecl *D = namedSource(Call->getArg(I), Table);
      if (!Judged(D))
        continue;
      if (Cub) {
        // A size query does no work; one on the function's own storage
        // parameter may be, as its callers decide.
        if (!isCubSizeQuery(*Call, /*ParameterMayBeNull=*/true))
          Work(D, Call->getBeginLoc(), WorkKind::StreamApi, Callee->getName());
        continue;
      }
      for (const StreamParameterUse &Sub : of(*Callee, Depth + 1).Params) {
        if (Sub.Index != I)
          continue;
        StreamParameterStep Step;
        Step.Function = &FD;
        Step.Param = D->getName();
        Step.At = SM.getExpansionLoc(Call->getBeginLoc());
        Step.PassedTo = Callee;
        std::vector<StreamParameterStep> Steps{Step};
        llvm::append_range(Steps, Sub.Steps);
        Keep(D, std::move(Steps));
      }
    }
  }

  StreamSummary Summary;
  for (auto &[D, Steps] : Found) {
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      Summary.Params.push_back({P->getFunctionScopeIndex(), std::move(Steps)});
    else
      Summary.Members.push_back({cast<FieldDecl>(D), std::move(Steps)});
  }
  llvm::sort(Summary.Params,
             [](const StreamParameterUse &A, const StreamParameterUse &B) {
               return A.Index < B.Index;
             });
  llvm::sort(Summary.Members,
             [](const StreamMemberUse &A, const StreamMemberUse &B) {
               return A.Member->getFieldIndex() < B.Member->getFieldIndex();
             });
  return Summary;
}

} // namespace streamsafe
