//===--- FactBuilder.cpp - Lowers CFG elements to stream facts ------------===//

#include "lib/FactBuilder.h"
#include "lib/ApiConfig.h"
#include "lib/ApiModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace streamsafe {

// CUDAStream <-> c10::Stream <-> cudaStream_t conversions keep the stream;
// Tensor <-> TensorBase keep the tensor.
static bool sameKind(ValueClass A, ValueClass B) {
  auto IsStream = [](ValueClass C) {
    return C == ValueClass::Stream || C == ValueClass::RawStream;
  };
  return A != ValueClass::None && (A == B || (IsStream(A) && IsStream(B)));
}

const Expr *stripValue(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *S = dyn_cast<CXXStaticCastExpr>(E))
      E = S->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() >= 1 &&
             (CE->getConstructor()->isCopyOrMoveConstructor() ||
              CE->getConstructor()->isConvertingConstructor(true)) &&
             sameKind(classifyType(CE->getType()),
                      classifyType(CE->getArg(0)->getType())))
      E = CE->getArg(0);
    else if (const auto *Call = dyn_cast<CallExpr>(E);
             Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
             isTransparentCast(canonicalName(Call->getDirectCallee())))
      E = Call->getArg(0);
    else
      return E;
  }
  return E;
}

static const Expr *argOrNull(const CallExpr *CE, unsigned I) {
  if (I >= CE->getNumArgs() || isa<CXXDefaultArgExpr>(CE->getArg(I)))
    return nullptr;
  return CE->getArg(I);
}

const Expr *tensorBehindPointer(const Expr *E) {
  E = stripValue(E);
  if (const auto *CS = dyn_cast_or_null<CStyleCastExpr>(E))
    E = stripValue(CS->getSubExpr());
  // float *p = t.data_ptr<float>(); ... kernel<<<..>>>(p): a local pointer
  // initialised from a tensor's data (the usual extension-code shape). A
  // pointer assigned again later is not followed.
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
        V->getType()->isPointerType() && V->getInit() &&
        !isa<DeclRefExpr>(stripValue(V->getInit())))
      return tensorBehindPointer(V->getInit());
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!MC || !MC->getMethodDecl())
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument();
  StringRef Name = MC->getMethodDecl()->getName();
  if (classifyType(Obj->getType()) == ValueClass::Tensor)
    return classifyTensorMethod(Name) == TensorMethod::RawPointer ? Obj
                                                                  : nullptr;
  // t.storage().data_ptr()
  if (Name == "data_ptr")
    if (const auto *Inner = dyn_cast<CXXMemberCallExpr>(stripValue(Obj)))
      if (Inner->getMethodDecl() &&
          Inner->getMethodDecl()->getName() == "storage" &&
          classifyType(Inner->getImplicitObjectArgument()->getType()) ==
              ValueClass::Tensor)
        return Inner->getImplicitObjectArgument();
  return nullptr;
}

void collectTensorOperands(const Expr *E,
                           llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!E)
    return;
  if (classifyType(E->getType()) == ValueClass::Tensor) {
    Out.push_back(E);
    return;
  }
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return collectTensorOperands(M->getSubExpr(), Out);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return collectTensorOperands(B->getSubExpr(), Out);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return collectTensorOperands(F->getSubExpr(), Out);
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    return collectTensorOperands(IL->getSubExpr(), Out);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : IL->inits())
      collectTensorOperands(Init, Out);
    return;
  }
  // TensorList / ArrayRef<Tensor> / std::vector<Tensor> built from a list.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    for (const Expr *Arg : CE->arguments())
      collectTensorOperands(Arg, Out);
}

const LambdaExpr *lambdaOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(E))
      return L;
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E))
      E = C->getNumArgs() == 1 ? C->getArg(0) : nullptr; // std::function
    else if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      E = V ? V->getInit() : nullptr;
    } else if (const auto *Call = dyn_cast<CallExpr>(E);
               Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
               isTransparentCast(canonicalName(Call->getDirectCallee())))
      E = Call->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

// Device spellings in a call's arguments: at::kCPU, DeviceType::CPU, "cpu",
// pinned_memory(true) say host; kCUDA, "cuda", x.options() say device (or
// unknown).
static void deviceMentions(const Stmt *S, bool &Host, bool &Device) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    StringRef N = DR->getDecl()->getName();
    Host |= N == "kCPU" || N == "CPU";
    Device |= N == "kCUDA" || N == "CUDA";
  } else if (const auto *SL = dyn_cast<StringLiteral>(S)) {
    if (SL->getCharByteWidth() == 1) {
      Host |= SL->getString().starts_with("cpu");
      Device |= SL->getString().starts_with("cuda");
    }
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    if (const auto *MD = MC->getMethodDecl()) {
      Host |= MD->getName() == "pinned_memory" || MD->getName() == "pin_memory";
      // x.options() and x.device() take another tensor's device.
      Device |= (MD->getName() == "options" || MD->getName() == "device") &&
                MC->getNumArgs() == 0;
    }
  }
  for (const Stmt *Child : S->children())
    deviceMentions(Child, Host, Device);
}

static bool targetsHost(const CallExpr *CE) {
  bool Host = false, Device = false;
  for (const Expr *Arg : CE->arguments())
    deviceMentions(Arg, Host, Device);
  return Host && !Device;
}

// The argument bound to a parameter named non_blocking is literally true.
bool nonBlocking(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I)
    if (FD->getParamDecl(I)->getName() == "non_blocking")
      if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(
              CE->getArg(I)->IgnoreParenImpCasts()))
        return B->getValue();
  return false;
}

// std::launch::deferred alone (not "async | deferred").
static bool isDeferredPolicy(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DR && DR->getDecl()->getName() == "deferred";
}

void FactBuilder::spawn(const Stmt *At, llvm::ArrayRef<const Expr *> Args,
                        const Expr *Executor, FactList &Out) {
  for (const Expr *A : Args)
    if (const LambdaExpr *L = lambdaOf(A)) {
      Fact F = make(FactKind::Spawn, SiteKind::ThreadStart, At);
      F.Body = L;
      F.Executor = Executor;
      Out.push_back(F);
      return;
    }
}

void FactBuilder::host(FactKind K, const Expr *Tensor, FactList &Out) {
  if (!Tensor)
    return;
  Fact F = make(K, SiteKind::Access, Tensor);
  F.Tensor = Tensor;
  Out.push_back(F);
}

Fact FactBuilder::make(FactKind K, SiteKind SK, const Stmt *At) {
  Fact F{K};
  F.Site = Sites.add(SK, At->getBeginLoc(), At);
  return F;
}

void FactBuilder::access(FactKind K, const Expr *Tensor, const Expr *Stream,
                         bool Legacy, FactList &Out, bool Async,
                         const Stmt *At) {
  // At: where the access is written when the tensor is reached through a
  // pointer variable (the launch argument, not the pointer's initialiser).
  Fact F = make(K, SiteKind::Access, At ? At : Tensor);
  F.Tensor = Tensor;
  F.Stream = Stream;
  F.LegacyStream = Legacy;
  F.Async = Async;
  Out.push_back(F);
}

void FactBuilder::allocate(const CallExpr *CE, bool Foreign, FactList &Out,
                           bool Host, bool Async) {
  if (classifyType(CE->getType()) != ValueClass::Tensor ||
      CE->getType()->isReferenceType())
    return;
  Fact F = make(FactKind::Allocate, SiteKind::Allocation, CE);
  F.Tensor = CE;
  F.Foreign = Foreign;
  F.HostResult = Host;
  F.Async = Async;
  if (const FunctionDecl *FD = CE->getDirectCallee())
    F.AllocateOnly =
        FD->getDeclName().isIdentifier() && FD->getName().starts_with("empty");
  Out.push_back(F);
}

void FactBuilder::lower(const CFGElement &Elem, FactList &Out) {
  if (auto S = Elem.getAs<CFGStmt>())
    return lowerStmt(S->getStmt(), Out);
  if (auto D = Elem.getAs<CFGAutomaticObjDtor>()) {
    const VarDecl *V = D->getVarDecl();
    ValueClass C = classifyType(V->getType(), &Config);
    if (C == ValueClass::None || V->getType()->isReferenceType())
      return;
    bool IsGuard = C == ValueClass::StreamGuard ||
                   C == ValueClass::OptionalGuard ||
                   C == ValueClass::MultiGuard;
    Fact F{IsGuard ? FactKind::GuardExit : FactKind::Unbind};
    F.Site = Sites.add(IsGuard ? SiteKind::GuardExit : SiteKind::LifetimeEnd,
                       D->getTriggerStmt() ? D->getTriggerStmt()->getEndLoc()
                                           : V->getLocation(),
                       D->getTriggerStmt(), V);
    F.Var = V;
    Out.push_back(F);
  }
}

void FactBuilder::lowerDecl(const VarDecl *V, const Stmt *DS, FactList &Out) {
  ValueClass C = classifyType(V->getType(), &Config);
  const Expr *Init = V->getInit();
  switch (C) {
  case ValueClass::None: {
    // std::vector<at::Tensor> v{a, b}; Pair p{a, b}: the object keeps them.
    llvm::SmallVector<const Expr *, 2> Kept;
    if (Init && !V->getType()->isReferenceType())
      collectTensorOperands(Init, Kept);
    for (const Expr *T : Kept) {
      Fact F(FactKind::Escape);
      F.Site = Sites.add(SiteKind::Other, V->getLocation(), DS, V);
      F.Tensor = T;
      Out.push_back(F);
    }
    return;
  }
  case ValueClass::Tensor:
  case ValueClass::Stream:
  case ValueClass::RawStream:
  case ValueClass::Event:
  case ValueClass::RawEvent: {
    Fact F{FactKind::Bind};
    F.Site = Sites.add(C == ValueClass::Event || C == ValueClass::RawEvent
                           ? SiteKind::EventDecl
                           : SiteKind::Other,
                       V->getLocation(), DS, V);
    F.Var = V;
    F.Value = Init;
    Out.push_back(F);
    return;
  }
  case ValueClass::StreamGuard:
  case ValueClass::OptionalGuard:
  case ValueClass::MultiGuard: {
    const auto *CE =
        Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    if (!CE)
      return;
    if (CE->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(CE->getArg(0))) {
      // An empty optional guard sets nothing yet, but a later reset_stream
      // is undone at its scope end: remember the stream to restore now.
      Fact F{FactKind::GuardEnter};
      F.Site = Sites.add(SiteKind::GuardEnter, V->getLocation(), DS, V);
      F.Var = V;
      F.KeepCurrent = true;
      Out.push_back(F);
      return;
    }
    Fact F{FactKind::GuardEnter};
    F.Site = Sites.add(SiteKind::GuardEnter, V->getLocation(), DS, V);
    F.Var = V;
    F.Stream = CE->getArg(0);
    Out.push_back(F);
    return;
  }
  }
}

void FactBuilder::lowerStmt(const Stmt *S, FactList &Out) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        lowerDecl(V, DS, Out);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return lowerCall(CE, Out);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    llvm::SmallVector<const Expr *, 2> Tensors;
    collectTensorOperands(RS->getRetValue(), Tensors);
    for (const Expr *T : Tensors) {
      Fact F = make(FactKind::Escape, SiteKind::Other, RS);
      F.Tensor = T;
      Out.push_back(F);
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    // cudaStream_t s = ...; s = other;
    if (BO->getOpcode() != BO_Assign)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        Fact F = make(FactKind::Bind, SiteKind::Other, BO);
        F.Var = V;
        F.Value = BO->getRHS();
        Out.push_back(F);
      }
    return;
  }
  if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
    // A lambda may run later or on another thread; a tensor it captures may
    // outlive this function. Its body is not analysed here (documented).
    for (const LambdaCapture &Cap : LE->captures()) {
      if (!Cap.capturesVariable())
        continue;
      const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
      if (!V || classifyType(V->getType()) != ValueClass::Tensor)
        continue;
      Fact F = make(FactKind::Escape, SiteKind::Other, LE);
      F.Var = V;
      Out.push_back(F);
    }
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
        RD && isThreadClass(canonicalName(RD)))
      spawn(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), nullptr, Out);
    // A non-tensor object built from tensors (a container, a struct) keeps
    // them.
    if (classifyType(CE->getType(), &Config) != ValueClass::None)
      return;
    llvm::SmallVector<const Expr *, 2> Tensors;
    for (const Expr *Arg : CE->arguments())
      collectTensorOperands(Arg, Tensors);
    for (const Expr *T : Tensors) {
      Fact F = make(FactKind::Escape, SiteKind::Other, CE);
      F.Tensor = T;
      Out.push_back(F);
    }
  }
}

void FactBuilder::lowerCall(const CallExpr *CE, FactList &Out) {
  if (const auto *KE = dyn_cast<CUDAKernelCallExpr>(CE))
    return lowerKernelLaunch(KE, Out);
  if (lowerConfiguredCall(CE, Out))
    return;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (lowerTensorMethod(MC, Out) || lowerObjectMethod(MC, Out))
      return;
  }
  // [&] { ... }() or fn() of a local lambda: its body runs here, on this
  // thread, with the current stream as it is.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->getOperator() == OO_Call && OC->getNumArgs() >= 1)
    if (const LambdaExpr *L = lambdaOf(OC->getArg(0))) {
      Fact F = make(FactKind::Spawn, SiteKind::Other, OC);
      F.Body = L;
      F.InPlace = true;
      Out.push_back(F);
      return;
    }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->getNumArgs() >= 1 &&
      classifyType(OC->getArg(0)->getType()) == ValueClass::Tensor &&
      isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee())) {
    // Member operators of Tensor: t = u, t += u, t[i].
    const Expr *Self = OC->getArg(0);
    if (OC->getOperator() == OO_Subscript)
      return; // a view
    if (OC->getOperator() == OO_Equal) {
      const Expr *RHS = OC->getArg(1);
      const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Self));
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      if (classifyType(RHS->getType()) == ValueClass::Tensor) {
        Fact F =
            make(V ? FactKind::Bind : FactKind::Escape, SiteKind::Other, OC);
        if (V) {
          F.Var = V;
          F.Value = RHS;
        } else {
          F.Tensor = RHS; // stored into a member or element
        }
        Out.push_back(F);
        return;
      }
      return access(FactKind::Write, Self, nullptr, false, Out); // t = 0
    }
    for (unsigned I = 1; I < OC->getNumArgs(); ++I) {
      llvm::SmallVector<const Expr *, 2> Tensors;
      collectTensorOperands(OC->getArg(I), Tensors);
      for (const Expr *T : Tensors)
        access(FactKind::Read, T, nullptr, false, Out);
    }
    access(FactKind::Write, Self, nullptr, false, Out); // t += u
    return;
  }
  if (lowerApiCall(CE, Out))
    return;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (FD && (isInTopNamespace(FD, "at") || isInTopNamespace(FD, "torch")))
    return lowerAtenCall(CE, Out);
  if (FD && isTransparentCast(canonicalName(FD)))
    return;
  lowerUnknownCall(CE, Out);
}

bool FactBuilder::lowerConfiguredCall(const CallExpr *CE, FactList &Out) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  std::string Name = canonicalName(FD);
  auto Emit = [&](FactKind K, SiteKind SK) -> Fact & {
    Out.push_back(make(K, SK, CE));
    return Out.back();
  };
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
  if (Config.CurrentStreamSetters.contains(Name)) {
    Emit(FactKind::SetCurrent, SiteKind::SetCurrent).Stream = argOrNull(CE, 0);
    return true;
  }
  if (Config.CurrentStreamGetters.contains(Name)) {
    Emit(FactKind::CurrentQuery, SiteKind::Other);
    return true;
  }
  if (Config.StreamSyncFunctions.contains(Name)) {
    const Expr *S = argOrNull(CE, 0);
    if (MC && !S)
      S = MC->getImplicitObjectArgument();
    Emit(S ? FactKind::StreamSync : FactKind::DeviceSync, SiteKind::Other)
        .Stream = S;
    return true;
  }
  if (Config.RecordStreamFunctions.contains(Name) && CE->getNumArgs() >= 2) {
    const Expr *T = CE->getArg(0);
    if (classifyType(T->getType()) != ValueClass::Tensor)
      T = tensorBehindPointer(T);
    if (T) {
      Fact &F = Emit(FactKind::RecordStream, SiteKind::Other);
      F.Tensor = T;
      F.Stream = CE->getArg(1);
    }
    return true;
  }
  if (Config.ThreadSpawnFunctions.contains(Name)) {
    spawn(CE, Args, nullptr, Out);
    return true;
  }
  if (Config.ExecutorLaunchFunctions.contains(Name)) {
    const Expr *Executor = MC ? MC->getImplicitObjectArgument()
                              : (Args.empty() ? nullptr : Args.front());
    spawn(CE, Args, Executor, Out);
    return true;
  }
  return false;
}

void FactBuilder::lowerKernelLaunch(const CUDAKernelCallExpr *KE,
                                    FactList &Out) {
  const CallExpr *Config = KE->getConfig();
  const Expr *Stream = nullptr;
  bool Legacy = true;
  if (Config && Config->getNumArgs() >= 4 &&
      !isa<CXXDefaultArgExpr>(Config->getArg(3))) {
    Stream = Config->getArg(3);
    Legacy = false;
  }
  for (const Expr *Arg : KE->arguments())
    if (const Expr *T = tensorBehindPointer(Arg))
      access(FactKind::Read, T, Stream, Legacy, Out, false, Arg);
}

bool FactBuilder::lowerTensorMethod(const CXXMemberCallExpr *MC,
                                    FactList &Out) {
  const Expr *Self = MC->getImplicitObjectArgument();
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!Self || !MD || classifyType(Self->getType()) != ValueClass::Tensor)
    return false;
  auto ReadArgs = [&] {
    for (const Expr *Arg : MC->arguments()) {
      llvm::SmallVector<const Expr *, 2> Tensors;
      collectTensorOperands(Arg, Tensors);
      for (const Expr *T : Tensors)
        access(FactKind::Read, T, nullptr, false, Out);
    }
  };
  switch (classifyTensorMethod(MD->getName())) {
  case TensorMethod::Metadata:
  case TensorMethod::View:
    return true;
  case TensorMethod::RawPointer:
    // Host code reads through the pointer; for device memory this is no
    // access (the engine ignores it unless the tensor lives on the host).
    host(FactKind::HostRead, Self, Out);
    return true;
  case TensorMethod::InPlace:
    if (MD->getName() == "copy_") {
      // copy_(src, non_blocking): a host<->device copy does not block the
      // host when non_blocking is true.
      bool Async = nonBlocking(MC);
      if (MC->getNumArgs())
        access(FactKind::Read, MC->getArg(0), nullptr, false, Out, Async);
      Out.back().Copy = true;
      access(FactKind::Write, Self, nullptr, false, Out, Async);
      Out.back().Copy = true;
      if (!Async && MC->getNumArgs()) {
        // A blocking copy_ waits for the stream only when one side is on
        // the host; the engine decides, knowing where each tensor lives.
        Fact F = make(FactKind::StreamSync, SiteKind::Other, MC);
        F.Tensor = Self;
        F.Value = MC->getArg(0);
        F.IfHostInvolved = true;
        Out.push_back(F);
      }
      return true;
    }
    ReadArgs();
    access(FactKind::Write, Self, nullptr, false, Out);
    return true;
  case TensorMethod::RecordStream: {
    Fact F = make(FactKind::RecordStream, SiteKind::Other, MC);
    F.Tensor = Self;
    F.Stream = MC->getNumArgs() ? MC->getArg(0) : nullptr;
    Out.push_back(F);
    return true;
  }
  case TensorMethod::Reset:
    if (const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Self)))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        Fact F = make(FactKind::Unbind, SiteKind::LifetimeEnd, MC);
        F.Var = V;
        Out.push_back(F);
      }
    return true;
  case TensorMethod::HostRead: {
    // item(), cpu(): a blocking copy to the host on the current stream.
    access(FactKind::Read, Self, nullptr, false, Out);
    Out.push_back(make(FactKind::StreamSync, SiteKind::Other, MC));
    host(FactKind::HostRead, Self, Out);
    allocate(MC, false, Out, /*Host=*/true);
    return true;
  }
  case TensorMethod::To: {
    bool Async = nonBlocking(MC);
    bool ToHost = targetsHost(MC);
    access(FactKind::Read, Self, nullptr, false, Out, Async);
    Out.back().Copy = true;
    if (ToHost && !Async)
      Out.push_back(make(FactKind::StreamSync, SiteKind::Other, MC));
    allocate(MC, false, Out, ToHost, Async);
    return true;
  }
  case TensorMethod::Op:
    ReadArgs();
    access(FactKind::Read, Self, nullptr, false, Out);
    allocate(MC, false, Out, MD->getName() == "pin_memory");
    return true;
  }
  return true;
}

bool FactBuilder::lowerObjectMethod(const CXXMemberCallExpr *MC,
                                    FactList &Out) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD)
    return false;
  const Expr *Obj = MC->getImplicitObjectArgument();
  ApiEffect E = classifyCall(canonicalName(MD));
  if (E == ApiEffect::None && Obj && Config.isEventClass(MD->getParent())) {
    // A configured event wrapper: Record(stream), StreamWaitEvent(stream).
    if (ApiConfig::hasMethod(Config.EventRecordMethods, MD))
      E = ApiEffect::EventRecordOn;
    else if (ApiConfig::hasMethod(Config.EventWaitMethods, MD))
      E = ApiEffect::EventBlock;
    else if (ApiConfig::hasMethod(Config.EventSyncMethods, MD))
      E = ApiEffect::EventSynchronize;
    else
      return true; // Create(), Query(): no stream effect
  }
  auto Emit = [&](FactKind K, const Expr *Event, const Expr *Stream) {
    Fact F = make(K,
                  K == FactKind::EventRecord  ? SiteKind::EventRecord
                  : K == FactKind::EventWait  ? SiteKind::EventWait
                  : K == FactKind::GuardEnter ? SiteKind::GuardEnter
                  : K == FactKind::GuardExit  ? SiteKind::GuardExit
                                              : SiteKind::Other,
                  MC);
    F.Event = Event;
    F.Stream = Stream;
    if (K == FactKind::GuardEnter || K == FactKind::GuardExit)
      if (const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Obj)))
        F.Var = dyn_cast<VarDecl>(DR->getDecl());
    Out.push_back(F);
  };
  switch (E) {
  case ApiEffect::EventRecordOn:
    Emit(FactKind::EventRecord, Obj, argOrNull(MC, 0));
    return true;
  case ApiEffect::EventBlock:
    Emit(FactKind::EventWait, Obj, argOrNull(MC, 0));
    return true;
  case ApiEffect::StreamWaitEvent:
    Emit(FactKind::EventWait, argOrNull(MC, 0), Obj);
    return true;
  case ApiEffect::EventSynchronize:
    Emit(FactKind::EventSync, Obj, nullptr);
    return true;
  case ApiEffect::StreamSynchronize:
    Emit(FactKind::StreamSync, nullptr, Obj);
    return true;
  case ApiEffect::GuardResetStream:
    Emit(FactKind::GuardEnter, nullptr, argOrNull(MC, 0));
    return true;
  case ApiEffect::GuardReset:
    Emit(FactKind::GuardExit, nullptr, nullptr);
    return true;
  case ApiEffect::SpawnThread:
    spawn(MC, llvm::ArrayRef(MC->getArgs(), MC->getNumArgs()), nullptr, Out);
    return true;
  case ApiEffect::None:
    return false;
  default:
    return true; // stream accessors: pure
  }
}

bool FactBuilder::lowerApiCall(const CallExpr *CE, FactList &Out) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  ApiEffect E = classifyCall(canonicalName(FD));
  if (E == ApiEffect::None)
    return false;
  auto Emit = [&](FactKind K, SiteKind SK) -> Fact & {
    Out.push_back(make(K, SK, CE));
    return Out.back();
  };
  unsigned N = CE->getNumArgs();
  switch (E) {
  case ApiEffect::SetCurrentStream:
    Emit(FactKind::SetCurrent, SiteKind::SetCurrent).Stream = argOrNull(CE, 0);
    return true;
  case ApiEffect::RawEventRecord: {
    Fact &F = Emit(FactKind::EventRecord, SiteKind::EventRecord);
    F.Event = argOrNull(CE, 0);
    F.Stream = argOrNull(CE, 1);
    F.LegacyStream = !F.Stream;
    return true;
  }
  case ApiEffect::RawStreamWaitEvent: {
    Fact &F = Emit(FactKind::EventWait, SiteKind::EventWait);
    F.Event = argOrNull(CE, 1);
    F.Stream = argOrNull(CE, 0);
    F.LegacyStream = !F.Stream;
    return true;
  }
  case ApiEffect::RawEventSynchronize:
    Emit(FactKind::EventSync, SiteKind::Other).Event = argOrNull(CE, 0);
    return true;
  case ApiEffect::StreamSyncFunction: {
    Fact &F = Emit(FactKind::StreamSync, SiteKind::Other);
    F.Stream = argOrNull(CE, 0);
    F.LegacyStream = !F.Stream;
    return true;
  }
  case ApiEffect::DeviceSynchronize:
    Emit(FactKind::DeviceSync, SiteKind::Other);
    return true;
  case ApiEffect::CurrentStream:
    Emit(FactKind::CurrentQuery, SiteKind::Other);
    return true;
  case ApiEffect::HostMemcpy:
    if (N >= 2) {
      host(FactKind::HostRead, tensorBehindPointer(CE->getArg(1)), Out);
      host(FactKind::HostWrite, tensorBehindPointer(CE->getArg(0)), Out);
    }
    return true;
  case ApiEffect::SpawnThread:
    if (N && isDeferredPolicy(CE->getArg(0)))
      return true; // runs on the caller at get(): no new thread
    spawn(CE, llvm::ArrayRef(CE->getArgs(), N), nullptr, Out);
    return true;
  case ApiEffect::AllocatorRecordStream: {
    const Expr *T = N ? tensorBehindPointer(CE->getArg(0)) : nullptr;
    if (T) {
      Fact &F = Emit(FactKind::RecordStream, SiteKind::Other);
      F.Tensor = T;
      F.Stream = argOrNull(CE, 1);
    }
    return true;
  }
  case ApiEffect::MemcpyAsync:
  case ApiEffect::MemsetAsync:
  case ApiEffect::MemcpySync:
  case ApiEffect::MemcpyAndSync: {
    bool Sync = E == ApiEffect::MemcpySync || E == ApiEffect::MemcpyAndSync;
    const Expr *Stream =
        E == ApiEffect::MemcpySync ? nullptr : argOrNull(CE, N - 1);
    bool Legacy = !Stream;
    auto Copy = [&](FactKind K, const Expr *Arg) {
      if (const Expr *T = tensorBehindPointer(Arg)) {
        access(K, T, Stream, Legacy, Out, !Sync, Arg);
        Out.back().Copy = true;
      }
    };
    if (E != ApiEffect::MemsetAsync && N > 1)
      Copy(FactKind::Read,
           CE->getArg(canonicalName(FD) == "cudaMemcpy2DAsync" ? 2 : 1));
    if (N > 0)
      Copy(FactKind::Write, CE->getArg(0));
    if (Sync) {
      Fact &F = Emit(FactKind::StreamSync, SiteKind::Other);
      F.Stream = Stream;
      F.LegacyStream = Legacy;
    }
    return true;
  }
  default:
    return true; // stream getters: evaluated where their value is used
  }
}

void FactBuilder::lowerAtenCall(const CallExpr *CE, FactList &Out) {
  const FunctionDecl *FD = CE->getDirectCallee();
  llvm::SmallVector<const Expr *, 4> Tensors;
  for (const Expr *Arg : CE->arguments())
    collectTensorOperands(Arg, Tensors);
  AtenFunction Kind = classifyAtenFunction(
      FD->getDeclName().isIdentifier() ? FD->getName() : StringRef("op"));
  const Expr *Written = nullptr;
  if (!Tensors.empty()) {
    if (Kind == AtenFunction::InPlace || Kind == AtenFunction::OutFirst)
      Written = Tensors.front();
    else if (Kind == AtenFunction::OutLast)
      Written = Tensors.back();
  }
  if (Kind != AtenFunction::Factory && Kind != AtenFunction::Foreign)
    for (const Expr *T : Tensors)
      if (T != Written)
        access(FactKind::Read, T, nullptr, false, Out);
  if (Written)
    access(FactKind::Write, Written, nullptr, false, Out);
  else
    allocate(CE, Kind == AtenFunction::Foreign, Out,
             Kind == AtenFunction::Factory && targetsHost(CE));
}

void FactBuilder::lowerUnknownCall(const CallExpr *CE, FactList &Out) {
  // An unknown callee taking tensors is an op on the current stream, and it
  // may keep them. Library code (std::, c10::) only keeps them.
  const FunctionDecl *FD = CE->getDirectCallee();
  bool Library =
      FD && (isInTopNamespace(FD, "std") || isInTopNamespace(FD, "c10"));
  llvm::SmallVector<const Expr *, 4> Tensors;
  for (const Expr *Arg : CE->arguments())
    collectTensorOperands(Arg, Tensors);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    collectTensorOperands(MC->getImplicitObjectArgument(), Tensors);
  // An event handed to code we do not see may be recorded there.
  for (const Expr *Arg : CE->arguments()) {
    ValueClass C = classifyType(Arg->getType(), &Config);
    if (C == ValueClass::Event || C == ValueClass::RawEvent) {
      Fact F = make(FactKind::Escape, SiteKind::Other, CE);
      F.Event = Arg;
      Out.push_back(F);
    }
  }
  for (const Expr *T : Tensors) {
    if (!Library)
      access(FactKind::Read, T, nullptr, false, Out);
    Fact F = make(FactKind::Escape, SiteKind::Other, CE);
    F.Tensor = T;
    Out.push_back(F);
  }
}

} // namespace streamsafe
