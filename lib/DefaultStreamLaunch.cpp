//===--- DefaultStreamLaunch.cpp - CUDA work on the default stream --------===//

#include "lib/DefaultStreamLaunch.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace streamsafe {
namespace {

// The CUDA runtime functions we judge, by name. StreamApi entries take a
// cudaStream_t parameter (found by its type); Sync* entries have none and
// always run on the legacy default stream.
struct RuntimeApi {
  const char *Name;
  WorkKind Kind;
  const char *AsyncName;
};
constexpr RuntimeApi RuntimeApis[] = {
    {"cudaMemcpyAsync", WorkKind::StreamApi, ""},
    {"cudaMemcpy2DAsync", WorkKind::StreamApi, ""},
    {"cudaMemcpy3DAsync", WorkKind::StreamApi, ""},
    {"cudaMemcpyPeerAsync", WorkKind::StreamApi, ""},
    {"cudaMemcpyToSymbolAsync", WorkKind::StreamApi, ""},
    {"cudaMemcpyFromSymbolAsync", WorkKind::StreamApi, ""},
    {"cudaMemsetAsync", WorkKind::StreamApi, ""},
    {"cudaMemset2DAsync", WorkKind::StreamApi, ""},
    {"cudaMemset3DAsync", WorkKind::StreamApi, ""},
    {"cudaMallocAsync", WorkKind::StreamApi, ""},
    {"cudaFreeAsync", WorkKind::StreamApi, ""},
    {"cudaLaunchKernel", WorkKind::StreamApi, ""},
    {"cudaLaunchCooperativeKernel", WorkKind::StreamApi, ""},
    {"cudaMemcpy", WorkKind::SyncCopy, "cudaMemcpyAsync"},
    {"cudaMemcpy2D", WorkKind::SyncCopy, "cudaMemcpy2DAsync"},
    {"cudaMemcpy3D", WorkKind::SyncCopy, "cudaMemcpy3DAsync"},
    {"cudaMemcpyPeer", WorkKind::SyncCopy, "cudaMemcpyPeerAsync"},
    {"cudaMemcpyToSymbol", WorkKind::SyncCopy, "cudaMemcpyToSymbolAsync"},
    {"cudaMemcpyFromSymbol", WorkKind::SyncCopy, "cudaMemcpyFromSymbolAsync"},
    {"cudaMemset", WorkKind::SyncSet, "cudaMemsetAsync"},
    {"cudaMemset2D", WorkKind::SyncSet, "cudaMemset2DAsync"},
    {"cudaMemset3D", WorkKind::SyncSet, "cudaMemset3DAsync"},
};

const RuntimeApi *findRuntimeApi(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  StringRef Name = FD->getName();
  for (const RuntimeApi &Api : RuntimeApis)
    if (Name == Api.Name)
      return &Api;
  return nullptr;
}

bool isDefaultOrigin(StreamOrigin O) {
  return O != StreamOrigin::Unknown && O != StreamOrigin::Current;
}

bool isCudaStreamType(QualType T) {
  const auto *Ptr = T.getCanonicalType()->getAs<PointerType>();
  const auto *Rec = Ptr ? Ptr->getPointeeType()->getAsRecordDecl() : nullptr;
  return Rec && Rec->getName() == "CUstream_st";
}

bool isNamed(const NamedDecl *D, StringRef QualifiedName) {
  return D && D->getQualifiedNameAsString() == QualifiedName;
}

// c10::cuda::CUDAStream's `stream()` and `operator cudaStream_t`: the stream
// they return is the CUDAStream object's.
bool isStreamAccessor(const CXXMethodDecl *M) {
  if (!M || !isNamed(M->getParent(), "c10::cuda::CUDAStream"))
    return false;
  return isa<CXXConversionDecl>(M) ||
         (M->getIdentifier() && M->getName() == "stream");
}

// The spelled expression behind implicit conversions, copies and accessors.
const Expr *streamExprAsWritten(const Expr *E) {
  while (true) {
    const Expr *Next = E->IgnoreImplicitAsWritten()->IgnoreParens();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Next))
      if (isStreamAccessor(MC->getMethodDecl()))
        Next = MC->getImplicitObjectArgument();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Next))
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        Next = CE->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
}

// A location in the main file or a header where the user wrote it: macro
// arguments are followed to their spelling; a macro body yields an invalid
// location (that code is not analysed).
SourceLocation spelledLoc(SourceLocation Loc, const SourceManager &SM) {
  while (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc))
      return {};
    Loc = SM.getImmediateSpellingLoc(Loc);
  }
  return Loc;
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

// One pass over a function body. It collects the launches and runtime calls
// of the body itself (nested lambdas and local classes are functions of their
// own, analysed when the matcher reaches them) and the local variables, and
// tells which local variables may change after their initialization: every
// use must be a plain read (an lvalue-to-rvalue conversion, a const view of
// the object such as a const method call or a const reference, a copy,
// `(void)v`), also inside nested lambdas; anything else (assignment, address
// taken, non-const reference) counts as a change. Much cheaper than clang's
// ExprMutationAnalyzer, which costs seconds on a LibTorch translation unit.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
  using Base = RecursiveASTVisitor<BodyScan>;

public:
  std::vector<const CUDAKernelCallExpr *> Launches;
  std::vector<const CallExpr *> Calls;
  std::vector<const VarDecl *> Locals;

  bool mayChange(const VarDecl &V) const { return Changed.count(&V); }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    return nested([&] { return Base::TraverseLambdaExpr(L); });
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *D) {
    return nested([&] { return Base::TraverseCXXRecordDecl(D); });
  }
  bool TraverseBlockExpr(BlockExpr *B) {
    return nested([&] { return Base::TraverseBlockExpr(B); });
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Nested)
      return true;
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(C))
      Launches.push_back(Launch);
    else if (findRuntimeApi(C->getDirectCallee()))
      Calls.push_back(C);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!Nested && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit())
      Locals.push_back(V);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue ||
        (C->getCastKind() == CK_NoOp && C->getType().isConstQualified()))
      Reads.insert(C->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *C) {
    if (C->getCastKind() == CK_ToVoid)
      Reads.insert(C->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyConstructor())
      Reads.insert(C->getArg(0)->IgnoreParens());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      if (V->hasLocalStorage())
        Refs.push_back(R);
    return true;
  }

  // Call after the traversal: a use that is not a read changes its variable.
  void finish() {
    for (const DeclRefExpr *R : Refs)
      if (!Reads.count(R))
        Changed.insert(R->getDecl());
  }

private:
  template <typename F> bool nested(F Traverse) {
    ++Nested;
    bool Continue = Traverse();
    --Nested;
    return Continue;
  }

  unsigned Nested = 0;
  std::vector<const DeclRefExpr *> Refs;
  llvm::SmallPtrSet<const Expr *, 32> Reads;
  llvm::SmallPtrSet<const ValueDecl *, 8> Changed;
};

// Classifies stream arguments within one function body.
class StreamClassifier {
public:
  explicit StreamClassifier(const BodyScan &Scan) : Scan(Scan) {}

  StreamSource classify(const Expr *E, unsigned Depth = 0) {
    if (!E || isa<CXXDefaultArgExpr>(E))
      return {StreamOrigin::Omitted, nullptr};
    if (E->isTypeDependent() || E->isValueDependent() || Depth > 4)
      return {};
    E = streamExprAsWritten(E);
    const Expr *Bare = E->IgnoreParenCasts();
    if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(Bare))
      return {StreamOrigin::Null, nullptr};
    if (const auto *Lit = dyn_cast<IntegerLiteral>(Bare)) {
      switch (Lit->getValue().getZExtValue()) {
      case 0:
        return {StreamOrigin::Null, nullptr};
      case 1: // the value of the cudaStreamLegacy macro
        return {StreamOrigin::Legacy, nullptr};
      case 2: // the value of the cudaStreamPerThread macro
        return {StreamOrigin::PerThread, nullptr};
      }
      return {};
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (isNamed(FD, "c10::cuda::getDefaultCUDAStream"))
        return {StreamOrigin::DefaultGetter, nullptr};
      if (isNamed(FD, "c10::cuda::getCurrentCUDAStream"))
        return {StreamOrigin::Current, nullptr};
      return {};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        return classifyVariable(*V, Depth);
    return {};
  }

  // A local variable stands for its initializer if nothing in the function
  // may change it (assignment, non-const reference, address taken, ...).
  StreamSource classifyVariable(const VarDecl &V, unsigned Depth) {
    if (!V.hasLocalStorage() || isa<ParmVarDecl>(V) || !V.getInit() ||
        isMutated(V))
      return {};
    StreamSource S = classify(V.getInit(), Depth + 1);
    if (S.Origin == StreamOrigin::Unknown)
      return {};
    return {S.Origin, &V};
  }

private:
  bool isMutated(const VarDecl &V) const {
    return (V.getType()->isReferenceType() &&
            !V.getType().getNonReferenceType().isConstQualified()) ||
           Scan.mayChange(V);
  }

  const BodyScan &Scan;
};

class FunctionAnalysis {
public:
  FunctionAnalysis(const Stmt &Body, ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Streams(Scan) {
    Scan.TraverseStmt(const_cast<Stmt *>(&Body));
    Scan.finish();
  }

  std::vector<DefaultStreamWork> run() {
    for (const VarDecl *V : Scan.Locals)
      if (Streams.classifyVariable(*V, 0).Origin == StreamOrigin::Current)
        CurrentStreamVars.push_back(V);
    std::vector<DefaultStreamWork> Found;
    for (const CUDAKernelCallExpr *L : Scan.Launches)
      if (auto W = analyzeLaunch(*L))
        Found.push_back(*W);
    for (const CallExpr *Call : Scan.Calls)
      if (auto W = analyzeCall(*Call))
        Found.push_back(*W);
    llvm::sort(Found, [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    return Found;
  }

private:
  std::optional<DefaultStreamWork>
  analyzeLaunch(const CUDAKernelCallExpr &Launch) {
    const CallExpr *Config = Launch.getConfig();
    if (!Config)
      return std::nullopt;
    SourceLocation Open = spelledLoc(Config->getBeginLoc(), SM);
    SourceLocation Close = spelledLoc(Config->getRParenLoc(), SM);
    if (Open.isInvalid() || Close.isInvalid())
      return std::nullopt;
    const Expr *StreamArg =
        Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr;
    StreamSource Stream = Streams.classify(StreamArg);
    if (!isDefaultOrigin(Stream.Origin))
      return std::nullopt;
    SourceLocation Name = spelledLoc(Launch.getBeginLoc(), SM);
    DefaultStreamWork W{WorkKind::KernelLaunch,
                        Name.isValid() ? Name : Open,
                        "",
                        "",
                        Stream,
                        {},
                        nullptr};
    if (Stream.Origin == StreamOrigin::Omitted) {
      const Expr *Smem = Config->getNumArgs() > 2 ? Config->getArg(2) : nullptr;
      bool SmemOmitted = !Smem || isa<CXXDefaultArgExpr>(Smem);
      W.Fix = {SmemOmitted ? StreamFix::InsertSmemAndStream
                           : StreamFix::InsertStream,
               Close,
               {}};
    } else if (Stream.Origin == StreamOrigin::Null && !Stream.Via) {
      W.Fix = replaceArgument(*StreamArg);
    }
    finish(W);
    return W;
  }

  std::optional<DefaultStreamWork> analyzeCall(const CallExpr &Call) {
    const FunctionDecl *FD = Call.getDirectCallee();
    const RuntimeApi *Api = findRuntimeApi(FD);
    SourceLocation Begin = spelledLoc(Call.getBeginLoc(), SM);
    SourceLocation Close = spelledLoc(Call.getRParenLoc(), SM);
    if (!Api || Begin.isInvalid() || Close.isInvalid())
      return std::nullopt;
    DefaultStreamWork W{Api->Kind,
                        Begin,
                        Api->Name,
                        Api->AsyncName,
                        {StreamOrigin::Omitted, nullptr},
                        {},
                        nullptr};
    if (Api->Kind == WorkKind::StreamApi) {
      std::optional<unsigned> Index = streamParameter(*FD);
      if (!Index || *Index >= Call.getNumArgs())
        return std::nullopt;
      const Expr *Arg = Call.getArg(*Index);
      W.Stream = Streams.classify(Arg);
      if (!isDefaultOrigin(W.Stream.Origin))
        return std::nullopt;
      if (W.Stream.Origin == StreamOrigin::Omitted && *Index > 0 &&
          !isa<CXXDefaultArgExpr>(Call.getArg(*Index - 1)))
        W.Fix = {StreamFix::InsertStream, Close, {}};
      else if (W.Stream.Origin == StreamOrigin::Null && !W.Stream.Via)
        W.Fix = replaceArgument(*Arg);
    }
    finish(W);
    return W;
  }

  static std::optional<unsigned> streamParameter(const FunctionDecl &FD) {
    for (unsigned I = 0; I < FD.getNumParams(); ++I)
      if (isCudaStreamType(FD.getParamDecl(I)->getType()))
        return I;
    return std::nullopt;
  }

  StreamFix replaceArgument(const Expr &Arg) {
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Arg.getSourceRange()), SM,
        Ctx.getLangOpts());
    if (Range.isInvalid())
      return {};
    return {StreamFix::ReplaceArgument, {}, Range};
  }

  // Drops a fix the TU cannot spell and names an unused current stream.
  void finish(DefaultStreamWork &W) {
    if (W.Fix.K != StreamFix::None && !currentStreamSpellable(Ctx, W.Loc))
      W.Fix = {};
    for (const VarDecl *V : CurrentStreamVars)
      if (SM.isBeforeInTranslationUnit(V->getLocation(), W.Loc))
        W.UnusedCurrentStream = V;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  BodyScan Scan;
  StreamClassifier Streams;
  std::vector<const VarDecl *> CurrentStreamVars;
};

const NamespaceDecl *findNamespace(const DeclContext &DC, StringRef Name,
                                   const ASTContext &Ctx) {
  for (const NamedDecl *D : DC.lookup(&Ctx.Idents.get(Name)))
    if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      return NS;
  return nullptr;
}

const FunctionDecl *findFunction(const DeclContext &DC, StringRef Name,
                                 const ASTContext &Ctx) {
  for (const NamedDecl *D : DC.lookup(&Ctx.Idents.get(Name)))
    if (const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl()))
      return FD;
  return nullptr;
}

} // namespace

bool isLibTorchTranslationUnit(const ASTContext &Ctx) {
  const DeclContext &TU = *Ctx.getTranslationUnitDecl();
  return findNamespace(TU, "c10", Ctx) || findNamespace(TU, "at", Ctx);
}

bool currentStreamSpellable(const ASTContext &Ctx, SourceLocation Loc) {
  const NamespaceDecl *At =
      findNamespace(*Ctx.getTranslationUnitDecl(), "at", Ctx);
  const NamespaceDecl *AtCuda = At ? findNamespace(*At, "cuda", Ctx) : nullptr;
  if (!AtCuda)
    return false;
  // at::cuda holds `using namespace c10::cuda;` rather than declarations.
  const FunctionDecl *Getter =
      findFunction(*AtCuda, "getCurrentCUDAStream", Ctx);
  for (const UsingDirectiveDecl *U : AtCuda->using_directives())
    if (!Getter && U->getNominatedNamespace())
      Getter = findFunction(*U->getNominatedNamespace(), "getCurrentCUDAStream",
                            Ctx);
  return Getter && Ctx.getSourceManager().isBeforeInTranslationUnit(
                       Getter->getLocation(), Loc);
}

std::vector<DefaultStreamWork> findDefaultStreamWork(const FunctionDecl &FD,
                                                     ASTContext &Ctx) {
  const Stmt *Body = FD.getBody();
  if (!Body || isDeviceOnlyCode(FD))
    return {};
  return FunctionAnalysis(*Body, Ctx).run();
}

} // namespace streamsafe
