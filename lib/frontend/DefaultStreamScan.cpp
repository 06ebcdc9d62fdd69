//===--- DefaultStreamScan.cpp - Launches and stream arguments ------------===//

#include "lib/frontend/DefaultStreamScan.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe {

static bool isInSystemHeader(const FunctionDecl &FD) {
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(FD.getLocation()));
}

std::optional<WorkKind> workKind(ApiEffect E) {
  switch (E) {
  case ApiEffect::MemcpyAsync:
  case ApiEffect::MemsetAsync:
  case ApiEffect::NcclOnStream:
  case ApiEffect::StreamOrdered:
    return WorkKind::StreamApi;
  case ApiEffect::MemcpySync:
    return WorkKind::SyncCopy;
  case ApiEffect::MemsetSync:
    return WorkKind::SyncSet;
  default:
    return std::nullopt;
  }
}

bool isRuntimeFunction(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         (FD->isExternC() || isInSystemHeader(*FD));
}

std::optional<unsigned> runtimeStreamIndex(const FunctionDecl &FD,
                                           const ApiEntry &Api,
                                           ApiTable &Table) {
  if (Api.Stream < 0 || unsigned(Api.Stream) >= FD.getNumParams() ||
      Table.classify(FD.getParamDecl(Api.Stream)->getType()) !=
          ValueClass::RawStream)
    return std::nullopt;
  return unsigned(Api.Stream);
}

bool isDeviceOnlyCode(const FunctionDecl &FD) {
  for (const DeclContext *DC = &FD; DC; DC = DC->getParent()) {
    const auto *F = dyn_cast<FunctionDecl>(DC);
    if (!F)
      continue;
    if (F->hasAttr<CUDAGlobalAttr>() ||
        (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()))
      return true;
  }
  return false;
}

const Expr *streamExprAsWritten(const Expr *E, ApiTable &Table) {
  while (true) {
    const Expr *Next = E->IgnoreImplicitAsWritten()->IgnoreParens();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Next))
      if (Table.lookup(MC->getMethodDecl()).Effect == ApiEffect::StreamIdentity)
        Next = MC->getImplicitObjectArgument();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Next))
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        Next = CE->getArg(0);
    // `(cudaStream_t)stream` and `static_cast<cudaStream_t>(stream)`: the
    // CUDAStream's conversion, written as a cast.
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Next)) {
      ValueClass To = Table.classify(Cast->getType());
      if (To == ValueClass::RawStream || To == ValueClass::Stream)
        Next = Cast->getSubExprAsWritten();
    }
    if (Next == E)
      return E;
    E = Next;
  }
}

StreamOrigin spelledOrigin(const Expr *E, ApiTable &Table) {
  E = streamExprAsWritten(E, Table);
  // The literals and calls as the dataflow lowering reads them
  // (StreamOperands.h).
  switch (streamLiteral(E)) {
  case StreamLiteral::Null:
    return StreamOrigin::Null;
  case StreamLiteral::Legacy:
    return StreamOrigin::Legacy;
  case StreamLiteral::PerThread:
    return StreamOrigin::PerThread;
  case StreamLiteral::Other:
    return StreamOrigin::Unknown;
  case StreamLiteral::NotLiteral:
    break;
  }
  if (!isa<CallExpr>(E))
    return StreamOrigin::Unknown;
  switch (streamCallEffect(E, Table)) {
  case ApiEffect::DefaultStream:
    return StreamOrigin::DefaultGetter;
  case ApiEffect::CurrentStream:
  case ApiEffect::ConfiguredCurrentStream:
    return StreamOrigin::Current;
  default:
    return StreamOrigin::Unknown;
  }
}

bool isProjectFunction(const FunctionDecl *FD, ApiTable &Table) {
  // A function of the project may be declared at global scope; the
  // runtime's are declared in a system header (or known to the table).
  bool Runtime =
      FD && FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      isInSystemHeader(*FD);
  return FD && FD->getIdentifier() && !Runtime &&
         Table.lookup(FD).Effect == ApiEffect::None &&
         !isInTopNamespace(FD, "c10") && !isInTopNamespace(FD, "at") &&
         !isInTopNamespace(FD, "torch") && !isInTopNamespace(FD, "std") &&
         // thrust takes streams in policies (`par.on(s)`): judged at the
         // algorithm that runs on them.
         !isInTopNamespace(FD, "thrust");
}

bool isCubFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (isInTopNamespace(FD, "cub"))
    return true;
  // cub wrapped in a project's namespace (THRUST_CUB_WRAPPED_NAMESPACE=dgl
  // gives dgl::cub).
  for (const DeclContext *C = FD->getDeclContext(); C; C = C->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(C);
        N && N->getName() == "cub" &&
        N->getParent()->getRedeclContext()->isNamespace() &&
        N->getParent()->getRedeclContext()->getParent()->isTranslationUnit())
      return true;
  return false;
}

bool isCubSizeQuery(const CallExpr &Call, bool ParameterMayBeNull) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || Call.getNumArgs() == 0 || FD->getNumParams() == 0 ||
      !FD->getParamDecl(0)->getType()->isVoidPointerType())
    return false;
  const Expr *Storage = Call.getArg(0)->IgnoreParenImpCasts();
  if (const auto *R = dyn_cast<DeclRefExpr>(Storage);
      ParameterMayBeNull && R && isa<ParmVarDecl>(R->getDecl()))
    return true;
  return Storage->isNullPointerConstant(FD->getASTContext(),
                                        Expr::NPC_ValueDependentIsNotNull) !=
         Expr::NPCK_NotNull;
}

bool isStreamTakingLibraryCall(const FunctionDecl *FD, ApiTable &Table) {
  if (!isProjectFunction(FD, Table))
    return false;
  return llvm::any_of(FD->parameters(), [&](const ParmVarDecl *P) {
    return Table.classify(P->getType()) == ValueClass::RawStream;
  });
}

} // namespace streamsafe
