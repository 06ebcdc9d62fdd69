//===--- DefaultStreamLaunch.cpp - CUDA work on the default stream --------===//

#include "lib/frontend/DefaultStreamLaunch.h"
#include "lib/frontend/DefaultStreamScan.h"
#include "lib/frontend/SyncCallMemory.h"
#include "lib/frontend/ThrustPolicies.h"
#include "lib/frontend/VariableChanges.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>

using namespace clang;

namespace streamsafe {
namespace {

using scan::BodyScan;
using scan::StreamClassifier;

bool isDefaultOrigin(StreamOrigin O) {
  return O != StreamOrigin::Unknown && O != StreamOrigin::Current;
}

// The spelled expression behind implicit conversions, copies and accessors.
// A location in the main file or a header where the user wrote it: macro
// arguments are followed to their spelling; a macro body yields an invalid
// location (no fix-it can be made there).
SourceLocation spelledLoc(SourceLocation Loc, const SourceManager &SM) {
  while (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc))
      return {};
    Loc = SM.getImmediateSpellingLoc(Loc);
  }
  return Loc;
}

// Where work is reported: where the user spelled it, or, for work written in
// the body of the project's own macro (#define KERNEL_CALL(k, ...)
// k<<<...>>>(...)), at the macro's use. Work from the body of a macro of a
// system header (CUDA, LibTorch, cub) is not the user's: invalid.
SourceLocation reportLoc(SourceLocation Loc, const SourceManager &SM) {
  SourceLocation Spelled = spelledLoc(Loc, SM);
  if (Spelled.isValid() || !Loc.isMacroID() ||
      SM.isInSystemHeader(SM.getSpellingLoc(Loc)))
    return Spelled;
  // The use of the macro, also when it is itself written in the argument of
  // another macro (KERNEL_RUN(...) inside AT_DISPATCH_*'s lambda).
  while (Loc.isMacroID())
    Loc = SM.isMacroArgExpansion(Loc)
              ? SM.getImmediateSpellingLoc(Loc)
              : SM.getImmediateExpansionRange(Loc).getBegin();
  return Loc;
}

// For work written in the body of the project's macro: where, and which.
void noteMacroBody(DefaultStreamWork &W, SourceLocation Loc,
                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Loc.isMacroID() || spelledLoc(Loc, SM).isValid())
    return;
  W.MacroBody = SM.getSpellingLoc(Loc);
  W.MacroName = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
}

// Work of a kind, at a place, on a stream; the rest filled in later.
DefaultStreamWork work(WorkKind Kind, SourceLocation Loc, StringRef Api,
                       StringRef AsyncApi, StreamSource Stream) {
  DefaultStreamWork W;
  W.Kind = Kind;
  W.Loc = Loc;
  W.Api = Api;
  W.AsyncApi = AsyncApi;
  W.Stream = Stream;
  return W;
}

class FunctionAnalysis {
public:
  FunctionAnalysis(const FunctionDecl &FD, const Stmt &Body, ASTContext &Ctx,
                   ApiTable &Table, UnitSummaries &Unit)
      : Body(Body), Ctx(Ctx), SM(Ctx.getSourceManager()), Table(Table),
        Unit(Unit), Scan(Table), Streams(FD, Scan, Table, &Unit.LoadTime) {
    Scan.TraverseStmt(const_cast<Stmt *>(&Body));
    Scan.finish();
  }

  std::vector<DefaultStreamWork> run() {
    for (const VarDecl *V : Scan.Locals)
      if (Streams.classifyVariable(*V, 0).Origin == StreamOrigin::Current)
        CurrentStreamVars.push_back(V);
    findStreamWork();
    std::vector<DefaultStreamWork> Found;
    for (const CUDAKernelCallExpr *L : Scan.Launches)
      if (auto W = analyzeLaunch(*L))
        Found.push_back(*W);
    for (const CallExpr *Call : Scan.Calls)
      if (auto W = analyzeCall(*Call))
        Found.push_back(*W);
    for (const CallExpr *Call : Scan.LibraryCalls)
      if (auto W = analyzeLibraryCall(*Call))
        Found.push_back(*W);
    for (const CallExpr *Call : Scan.ThrustCalls)
      if (auto W = analyzeThrustCall(*Call))
        Found.push_back(*W);
    for (const CXXMemberCallExpr *Call : Scan.MemberCalls)
      analyzeMemberCall(*Call, Found);
    llvm::sort(Found, [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    return Found;
  }

private:
  // Work written with a stream that is not a default one (the current
  // stream, a pool stream, a parameter): after it, the function works on
  // PyTorch's streams, and a synchronous call is not ordered with that work.
  void findStreamWork() {
    auto Note = [&](const Expr *StreamArg, SourceLocation Loc) {
      if (!StreamArg || isa<CXXDefaultArgExpr>(StreamArg) ||
          isDefaultOrigin(Streams.classify(StreamArg).Origin))
        return;
      StreamWork.push_back(Loc);
    };
    for (const CUDAKernelCallExpr *L : Scan.Launches)
      if (const CallExpr *Config = L->getConfig())
        Note(Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr,
             SM.getExpansionLoc(L->getBeginLoc()));
    for (const CallExpr *Call : Scan.Calls) {
      const FunctionDecl *FD = Call->getDirectCallee();
      const ApiEntry &Api = Table.lookup(FD);
      if (workKind(Api.Effect) != WorkKind::StreamApi)
        continue;
      if (std::optional<unsigned> I = runtimeStreamIndex(*FD, Api, Table))
        if (*I < Call->getNumArgs())
          Note(Call->getArg(*I), SM.getExpansionLoc(Call->getBeginLoc()));
    }
  }

  // Whether some work on a stream that is not a default one may run before
  // \p Loc: written before it, and not in the other branch of an if (the
  // `if (stream) cudaMemcpyAsync(..., stream); else cudaMemcpy(...);`
  // fallback of exllamav2's q_matrix.cu is no work after stream work).
  bool followsStreamWork(SourceLocation Loc) const {
    auto Within = [&](SourceLocation L, const Stmt *S) {
      CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
      return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
             !SM.isBeforeInTranslationUnit(R.getEnd(), L);
    };
    auto Apart = [&](SourceLocation A, SourceLocation B) {
      return llvm::any_of(Scan.Branches, [&](const IfStmt *If) {
        return (Within(A, If->getThen()) && Within(B, If->getElse())) ||
               (Within(A, If->getElse()) && Within(B, If->getThen()));
      });
    };
    return llvm::any_of(StreamWork, [&](SourceLocation W) {
      return SM.isBeforeInTranslationUnit(W, Loc) && !Apart(W, Loc);
    });
  }

  std::optional<DefaultStreamWork>
  analyzeLaunch(const CUDAKernelCallExpr &Launch) {
    const CallExpr *Config = Launch.getConfig();
    if (!Config)
      return std::nullopt;
    SourceLocation Open = spelledLoc(Config->getBeginLoc(), SM);
    SourceLocation Close = spelledLoc(Config->getRParenLoc(), SM);
    // The <<<...>>> decides: a kernel name passed to a system header's
    // launch macro does not make the launch the user's.
    SourceLocation Name = reportLoc(Config->getBeginLoc(), SM);
    if (Name.isInvalid())
      return std::nullopt;
    // Written by the user: at the kernel's name; in the body of the
    // project's macro: at the macro's use.
    if (SourceLocation Kernel = spelledLoc(Launch.getBeginLoc(), SM);
        Open.isValid() && Kernel.isValid())
      Name = Kernel;
    const Expr *StreamArg =
        Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr;
    StreamSource Stream = Streams.classify(StreamArg);
    if (!isDefaultOrigin(Stream.Origin))
      return std::nullopt;
    DefaultStreamWork W = work(WorkKind::KernelLaunch, Name, "", "", Stream);
    if (Open.isInvalid() || Close.isInvalid()) {
      // Written in a macro body: no fix there.
    } else if (Stream.Origin == StreamOrigin::Omitted) {
      const Expr *Smem = Config->getNumArgs() > 2 ? Config->getArg(2) : nullptr;
      bool SmemOmitted = !Smem || isa<CXXDefaultArgExpr>(Smem);
      W.Fix = {SmemOmitted ? StreamFix::InsertSmemAndStream
                           : StreamFix::InsertStream,
               Close,
               {}};
    } else if (Stream.Origin == StreamOrigin::Null && !Stream.Via) {
      W.Fix = replaceArgument(*StreamArg);
    }
    noteMacroBody(W, Launch.getBeginLoc(), Ctx);
    if (W.MacroBody.isInvalid())
      noteMacroBody(W, Config->getBeginLoc(), Ctx);
    finish(W);
    return W;
  }

  std::optional<DefaultStreamWork> analyzeCall(const CallExpr &Call) {
    const FunctionDecl *FD = Call.getDirectCallee();
    const ApiEntry &Api = Table.lookup(FD);
    std::optional<WorkKind> Kind = workKind(Api.Effect);
    SourceLocation Begin = reportLoc(Call.getBeginLoc(), SM);
    SourceLocation Close = spelledLoc(Call.getRParenLoc(), SM);
    if (!Kind || Begin.isInvalid() ||
        reportLoc(Call.getRParenLoc(), SM).isInvalid())
      return std::nullopt;
    bool CanFix =
        Close.isValid() && spelledLoc(Call.getBeginLoc(), SM).isValid();
    DefaultStreamWork W = work(*Kind, Begin, FD->getName(),
                               Api.AsyncAlternative ? Api.AsyncAlternative : "",
                               {StreamOrigin::Omitted, nullptr});
    if (*Kind == WorkKind::StreamApi) {
      std::optional<unsigned> Index = runtimeStreamIndex(*FD, Api, Table);
      if (!Index || *Index >= Call.getNumArgs())
        return std::nullopt;
      const Expr *Arg = Call.getArg(*Index);
      W.Stream = Streams.classify(Arg);
      if (!isDefaultOrigin(W.Stream.Origin))
        return std::nullopt;
      if (!CanFix) {
        // Written in a macro body: no fix there.
      } else if (W.Stream.Origin == StreamOrigin::Omitted && *Index > 0 &&
                 !isa<CXXDefaultArgExpr>(Call.getArg(*Index - 1)))
        W.Fix = {StreamFix::InsertStream, Close, {}};
      else if (W.Stream.Origin == StreamOrigin::Null && !W.Stream.Via)
        W.Fix = replaceArgument(*Arg);
    } else {
      W.OnStreamMemory =
          followsStreamWork(SM.getExpansionLoc(Call.getBeginLoc())) ||
          touchesTensorMemory(Call, Api, Body, Table);
    }
    noteMacroBody(W, Call.getBeginLoc(), Ctx);
    finish(W);
    return W;
  }

  // A library or project function given a stream it names as the default
  // one (getDefaultCUDAStream(), cudaStreamLegacy). A null or omitted
  // stream is not judged: many such functions read null as "the current
  // stream".
  // cub's device-wide algorithms are documented to run on the stream as
  // given, 0 (the default) being the legacy stream, like the runtime's
  // calls: an omitted or null stream is judged for them too. So is a
  // project function whose work runs on the parameter as given, without
  // testing it (its summary, StreamParameters.h); an omitted argument is
  // then judged by the parameter's default.
  std::optional<DefaultStreamWork> analyzeLibraryCall(const CallExpr &Call) {
    const FunctionDecl *FD = Call.getDirectCallee();
    SourceLocation Begin = reportLoc(Call.getBeginLoc(), SM);
    if (Begin.isInvalid() || reportLoc(Call.getRParenLoc(), SM).isInvalid())
      return std::nullopt;
    bool Cub = isCubFunction(FD);
    if (Cub && isCubSizeQuery(Call, /*ParameterMayBeNull=*/false))
      return std::nullopt;
    for (unsigned I = 0; I < Call.getNumArgs() && I < FD->getNumParams(); ++I) {
      if (Table.classify(FD->getParamDecl(I)->getType()) !=
          ValueClass::RawStream)
        continue;
      const Expr *Arg = Call.getArg(I);
      StreamSource Stream = Streams.classify(Arg);
      const StreamParameterUse *Use = Cub || isa<CXXOperatorCallExpr>(Call)
                                          ? nullptr
                                          : Unit.Params.use(*FD, I);
      StreamOrigin Default = StreamOrigin::Unknown;
      if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg); D && Use)
        Default = Streams.classify(D->getExpr()).Origin;
      bool Judged =
          Stream.Origin == StreamOrigin::DefaultGetter ||
          Stream.Origin == StreamOrigin::Legacy ||
          Stream.Origin == StreamOrigin::LoadTime ||
          (Cub && (Stream.Origin == StreamOrigin::Omitted ||
                   Stream.Origin == StreamOrigin::Null)) ||
          (Use && Stream.Origin == StreamOrigin::Null) ||
          (Use && Stream.Origin == StreamOrigin::Omitted &&
           isDefaultOrigin(Default) && Default != StreamOrigin::Omitted);
      if (!Judged)
        continue;
      DefaultStreamWork W =
          work(WorkKind::StreamApi, Begin, FD->getName(), "", Stream);
      if (Use) {
        W.Through = Use->Steps;
        W.DefaultArgument = Default;
      }
      bool CanFix = spelledLoc(Call.getRParenLoc(), SM).isValid() &&
                    spelledLoc(Call.getBeginLoc(), SM).isValid();
      if (!CanFix) {
        // Written in a macro body: no fix there.
      } else if (Stream.Origin == StreamOrigin::Omitted && I > 0 &&
                 !isa<CXXDefaultArgExpr>(Call.getArg(I - 1)))
        W.Fix = {
            StreamFix::InsertStream, spelledLoc(Call.getRParenLoc(), SM), {}};
      else if (Stream.Origin == StreamOrigin::Null && !Stream.Via)
        W.Fix = replaceArgument(*Arg);
      noteMacroBody(W, Call.getBeginLoc(), Ctx);
      finish(W);
      return W;
    }
    return std::nullopt;
  }

  // A method whose work runs on a stream member of its object that is still
  // the default stream its constructors gave it (UnsetStreamMembers.h).
  void analyzeMemberCall(const CXXMemberCallExpr &Call,
                         std::vector<DefaultStreamWork> &Found) {
    SourceLocation Begin = reportLoc(Call.getBeginLoc(), SM);
    if (Begin.isInvalid() || reportLoc(Call.getRParenLoc(), SM).isInvalid())
      return;
    const CXXMethodDecl *Method = Call.getMethodDecl();
    for (const StreamMemberUse &Use : Unit.Params.members(*Method)) {
      std::optional<UnsetStreamMember> Unset =
          Unit.Members.atCall(Call, *Use.Member);
      if (!Unset)
        continue;
      DefaultStreamWork W = work(WorkKind::StreamApi, Begin, Method->getName(),
                                 "", {Unset->Origin, nullptr});
      W.Through = Use.Steps;
      W.Member = Use.Member;
      W.MemberInitializedAt = SM.getExpansionLoc(Unset->InitializedAt);
      W.UncalledSetter = Unset->Setter;
      noteMacroBody(W, Call.getBeginLoc(), Ctx);
      finish(W);
      Found.push_back(std::move(W));
      return; // one finding per call
    }
  }

  // cub's first call of a pair only asks for the temporary storage's size:
  // a null d_temp_storage, no work on any stream.
  // A thrust algorithm on a CUDA policy without a stream (or on device
  // iterators with no policy) runs on thrust's default stream, the legacy
  // one; with `.on(stream)` it is judged by that stream, like a kernel
  // launch's. No fix-it: see docs/checks/default-stream-launch.md.
  std::optional<DefaultStreamWork> analyzeThrustCall(const CallExpr &Call) {
    SourceLocation Begin = reportLoc(Call.getBeginLoc(), SM);
    if (Begin.isInvalid() || reportLoc(Call.getRParenLoc(), SM).isInvalid())
      return std::nullopt;
    ThrustWork T = thrustWork(Call, [&](const VarDecl &V) {
      return Streams.initializerIfUnchanged(V);
    });
    StreamSource Stream{StreamOrigin::Omitted, nullptr};
    if (T.OnStream) {
      Stream = Streams.classify(T.OnStream);
      if (!isDefaultOrigin(Stream.Origin) ||
          Stream.Origin == StreamOrigin::Omitted)
        return std::nullopt;
    } else if (T.Policy == ThrustPolicy::None) {
      return std::nullopt;
    }
    DefaultStreamWork W = work(WorkKind::StreamApi, Begin,
                               Call.getDirectCallee()->getName(), "", Stream);
    W.Policy = T.Policy;
    W.PolicyVar = T.Via;
    noteMacroBody(W, Call.getBeginLoc(), Ctx);
    finish(W);
    return W;
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

  const Stmt &Body;
  ASTContext &Ctx;
  const SourceManager &SM;
  ApiTable &Table;
  UnitSummaries &Unit;
  BodyScan Scan;
  StreamClassifier Streams;
  std::vector<const VarDecl *> CurrentStreamVars;
  /// Where the function issues work on a stream that is not a default one.
  std::vector<SourceLocation> StreamWork;
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

bool followsCurrentStream(const ASTContext &Ctx) {
  const DeclContext &TU = *Ctx.getTranslationUnitDecl();
  return findNamespace(TU, "c10", Ctx) || findNamespace(TU, "at", Ctx) ||
         Ctx.Idents.find("getCurrentCUDAStream") != Ctx.Idents.end();
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
                                                     ASTContext &Ctx,
                                                     ApiTable &Table,
                                                     UnitSummaries &Unit) {
  const Stmt *Body = FD.getBody();
  if (!Body || isDeviceOnlyCode(FD))
    return {};
  return FunctionAnalysis(FD, *Body, Ctx, Table, Unit).run();
}

} // namespace streamsafe
