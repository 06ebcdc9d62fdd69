//===--- LowerStatements.cpp - Statements to stream facts -----------------===//

#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/GradientHooks.h"
#include "lib/frontend/Lowering.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace streamsafe {

Lowering::Lowering(ASTContext &Ctx, ApiTable &Table, Function &IR,
                   BodyLowerer LowerBody, CalleeLowerer LowerCallee,
                   ObjectStreams *Held)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Table(Table), IR(IR), Held(Held),
      LowerBody(std::move(LowerBody)), LowerCallee(std::move(LowerCallee)),
      Containers(Ctx, Table), Records(Table) {}

void Lowering::setContext(const FunctionDecl &F, const ParentMap &P,
                          const BranchConditions &C, unsigned Index,
                          const BoundCallables &Bound) {
  CurrentFunction = &F;
  Containers.prepare(F);
  if (Index == 0 && Root != &F) {
    Root = &F;
    HookGradient = droppedGradientParameter(F);
  }
  Parents = &P;
  Conditions = &C;
  ContextIndex = Index;
  Callables = &Bound;
}

void Lowering::emit(FactList &Out, SiteId At, Fact::Op What) {
  if (!Slotted.Groups.empty() && expandGroup(Out, At, What))
    return;
  Fact F;
  F.Site = At;
  F.What = std::move(What);
  Out.push_back(std::move(F));
}

void Lowering::escape(FactList &Out, SiteId At, const Expr *Tensor) {
  emit(Out, At, fact::EscapeTensor{tensorRef(Tensor)});
}

void Lowering::lower(const CFGElement &Elem, FactList &Out) {
  if (auto S = Elem.getAs<CFGStmt>())
    return lowerStmt(S->getStmt(), Out);
  if (auto D = Elem.getAs<CFGAutomaticObjDtor>())
    return lowerDtor(*D, Out);
}

void Lowering::lowerDtor(const CFGAutomaticObjDtor &D, FactList &Out) {
  const VarDecl *V = D.getVarDecl();
  if (V->getType()->isReferenceType())
    return;
  // Where the variable goes: the end of its scope (a new site each time).
  auto EndOfScope = [&](SiteKind K) {
    return site(K,
                D.getTriggerStmt() ? D.getTriggerStmt()->getEndLoc()
                                   : V->getLocation(),
                D.getTriggerStmt(), V);
  };
  if ((isa<DecompositionDecl>(V) || Containers.isContainerType(V->getType())) &&
      lowerContainerDtor(V, EndOfScope(SiteKind::LifetimeEnd), Out))
    return;
  VarId Id = varOf(V);
  VarClass C = IR.var(Id).Class;
  // ... and its destructor at the end of its scope.
  if (C == VarClass::Other)
    if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
        RD && RD->hasDefinition() &&
        Table.classify(V->getType()) == ValueClass::None)
      runSpecialMember(RD->getDestructor(), EndOfScope(SiteKind::Other), Out);
  // A std::jthread joins, and std::async's future waits for its task, when
  // it goes.
  if (C == VarClass::Other && Threads.Joinables.contains(Id)) {
    const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
    std::string Name = RD ? canonicalName(RD) : std::string();
    if (Name == "std::jthread" || Name == "std::future")
      emit(Out, EndOfScope(SiteKind::LifetimeEnd), fact::HostWait{Id});
  }
  if (Capture.ModeGuards.contains(V))
    emit(Out, EndOfScope(SiteKind::Other),
         fact::CaptureModeExchange{Id, CaptureMode::Unknown});
  // A struct followed member by member dies with its members.
  if (C == VarClass::Other && Records.followed(V, analysedRoot()))
    if (const auto *RD = V->getType()->getAsCXXRecordDecl())
      for (const FieldDecl *FD : RD->fields())
        if (auto It = Vars.find(FD); It != Vars.end())
          emit(Out, EndOfScope(SiteKind::LifetimeEnd),
               fact::Unbind{It->second});
  if (C == VarClass::Other)
    return;
  bool IsGuard = C == VarClass::Guard;
  SiteId At = EndOfScope(IsGuard ? SiteKind::GuardExit : SiteKind::LifetimeEnd);
  if (IsGuard)
    emit(Out, At, fact::GuardExit{Id});
  else
    emit(Out, At, fact::Unbind{Id});
}

void Lowering::lowerStmt(const Stmt *S, FactList &Out) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        lowerDecl(V, DS, Out);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return lowerCall(CE, Out);
  if (const auto *RS = dyn_cast<ReturnStmt>(S))
    return lowerReturn(RS, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return lowerAssign(BO, Out);
  // `v = p[i]`, `*p`: the host reads through a pointer into a tensor.
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S);
      IC && IC->getCastKind() == CK_LValueToRValue)
    if (const Expr *Base = pointerElementBase(IC->getSubExpr()))
      return hostAccess(Out, /*Write=*/false, tensorBehindPointer(Base), IC);
  if (const auto *LE = dyn_cast<LambdaExpr>(S))
    return lowerLambda(LE, Out);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    return lowerConstruct(CE, Out);
}

void Lowering::bind(const VarDecl *V, const Expr *Value, SiteId At,
                    FactList &Out) {
  VarId Id = varOf(V);
  switch (IR.var(Id).Class) {
  case VarClass::Tensor:
    emit(Out, At, fact::BindTensor{Id, Value ? tensorRef(Value) : TensorRef()});
    return;
  case VarClass::Stream:
    // A stream variable with no initialiser is a null cudaStream_t.
    emit(Out, At,
         fact::BindStream{Id, Value ? streamRef(Value) : StreamRef::legacy()});
    return;
  case VarClass::Event: {
    if (bindWork(Id, Value, At, Out))
      return;
    // Only events born here are followed: one copied, moved or loaded from
    // elsewhere may have been recorded there.
    const auto *Init =
        Value ? dyn_cast<CXXConstructExpr>(Value->IgnoreImplicit()) : nullptr;
    bool Fresh =
        !Value || (Init && !Init->getConstructor()->isCopyOrMoveConstructor());
    emit(Out, At, fact::BindEvent{Id, Fresh});
    return;
  }
  case VarClass::Guard:
  case VarClass::Other:
    return;
  }
  llvm_unreachable("every variable class is handled");
}

void Lowering::lowerDecl(const VarDecl *V, const Stmt *DS, FactList &Out) {
  const Expr *Init = V->getInit();
  // A tracked condition variable declared in a loop takes a new value each
  // time round: what the last iteration's branches told is forgotten.
  if (Conditions->tracked(V) && inLoop(DS))
    emit(Out, site(SiteKind::Other, V->getLocation(), DS, V),
         fact::Forget{fact::Forget::Step::None, varOf(V)});
  // A list of a tensor's pieces is followed as a view of the tensor; a
  // range-for over one binds its variable to the tensor.
  if (isPieceListVar(V))
    return bind(V, Init, site(SiteKind::Other, V->getLocation(), DS, V), Out);
  if (const Expr *Range = rangeOfLoopVar(V))
    return bind(V, Range, site(SiteKind::Other, V->getLocation(), DS, V), Out);
  if (lowerContainerDecl(V, DS, Out) || lowerCaptureModeGuard(V, DS, Out))
    return;
  if (V->isImplicit() && V->getType()->isReferenceType())
    hoistLoopRecords(DS, Out); // the range of a range-for
  switch (Table.classify(V->getType())) {
  case ValueClass::None: {
    // Holder h{t}: a struct followed member by member binds each.
    if (Records.followed(V, analysedRoot())) {
      const auto *IL =
          Init ? dyn_cast<InitListExpr>(Init->IgnoreImplicit()) : nullptr;
      const auto *RD = V->getType()->getAsCXXRecordDecl();
      unsigned I = 0;
      for (const FieldDecl *FD : RD->fields()) {
        const Expr *Value =
            IL && I < IL->getNumInits() ? IL->getInit(I) : nullptr;
        ++I;
        if (Value && Table.classify(FD->getType()) == ValueClass::Tensor)
          emit(Out, site(SiteKind::Other, V->getLocation(), DS, V),
               fact::BindTensor{varOf(FD), tensorRef(Value)});
      }
      return;
    }
    // std::vector<at::Tensor> v{a, b}; Pair p{a, b}: the object keeps them.
    llvm::SmallVector<const Expr *, 2> Kept;
    if (Init && !V->getType()->isReferenceType())
      collectTensors(Init, Kept);
    for (const Expr *T : Kept)
      escape(Out, site(SiteKind::Other, V->getLocation(), DS, V), T);
    return;
  }
  case ValueClass::Tensor:
  case ValueClass::Stream:
  case ValueClass::RawStream:
    return bind(V, Init, site(SiteKind::Other, V->getLocation(), DS, V), Out);
  case ValueClass::Event:
  case ValueClass::RawEvent:
    return bind(V, Init, site(SiteKind::EventDecl, V->getLocation(), DS, V),
                Out);
  case ValueClass::StreamGuard:
  case ValueClass::OptionalGuard:
  case ValueClass::MultiGuard: {
    const auto *CE =
        Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    if (!CE)
      return;
    SiteId At = site(SiteKind::GuardEnter, V->getLocation(), DS, V);
    // An empty optional guard sets nothing yet, but a later reset_stream is
    // undone at its scope end: it remembers the stream to restore now.
    unsigned P = Table.guardStreamParameter(V->getType()->getAsCXXRecordDecl());
    if (CE->getNumArgs() <= P || isa<CXXDefaultArgExpr>(CE->getArg(P)))
      return emit(Out, At,
                  fact::GuardEnter{varOf(V), StreamRef::unknown(), true});
    emit(Out, At, fact::GuardEnter{varOf(V), streamRef(CE->getArg(P)), false});
    return;
  }
  case ValueClass::DeviceGuard: {
    // CUDAGuard(1), OptionalCUDAGuard(at::Device(at::kCUDA, 1)): device 1
    // becomes current, and with it its current stream. A device the
    // analysis cannot read (x.device()) is assumed to be the current one,
    // as in single-device code.
    const auto *CE =
        Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    std::optional<int8_t> D =
        CE && CE->getNumArgs() ? deviceIndexOf(CE->getArg(0)) : std::nullopt;
    if (!D)
      return;
    emit(Out, site(SiteKind::GuardEnter, V->getLocation(), DS, V),
         fact::GuardEnter{varOf(V), StreamRef::currentOf(*D), false, *D});
    return;
  }
  }
  llvm_unreachable("every value class is handled");
}

bool Lowering::inLoop(const Stmt *S) const {
  for (const Stmt *P = Parents->getParent(S); P; P = Parents->getParent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return true;
  return false;
}

void Lowering::lowerReturn(const ReturnStmt *RS, FactList &Out) {
  llvm::SmallVector<const Expr *, 2> Tensors;
  collectTensors(RS->getRetValue(), Tensors);
  // The analysed function's own return (not a helper's run in place, not a
  // lambda's) hands the tensors to its caller.
  bool Returned = CurrentFunction && CurrentFunction == Root;
  for (const Stmt *P = Parents ? Parents->getParent(RS) : nullptr;
       P && Returned; P = Parents->getParent(P))
    Returned = !isa<LambdaExpr>(P);
  for (const Expr *T : Tensors)
    emit(Out, site(SiteKind::Other, RS),
         fact::EscapeTensor{tensorRef(T), Returned});
  // A gradient hook's replacement: autograd lets go of the gradient.
  if (Returned && HookGradient && dropsGradient(*RS, *HookGradient))
    emit(Out, site(SiteKind::LifetimeEnd, RS),
         fact::Unbind{varOf(HookGradient)});
  // A returned tensor is what a call of this function (run in place) gives.
  if (const Expr *Value = RS->getRetValue();
      Value && Table.classify(Value->getType()) == ValueClass::Tensor &&
      CurrentFunction)
    emit(Out, site(SiteKind::Other, RS),
         fact::BindTensor{returnVar(*CurrentFunction), tensorRef(Value)});
}

VarId Lowering::returnVar(const FunctionDecl &F) {
  auto [It, New] = Inlined.ReturnVars.try_emplace(&F, 0);
  if (New) {
    Variable V;
    V.Name = F.getNameAsString() + "()";
    V.Class = VarClass::Tensor;
    V.Synthetic = true;
    V.Decl = &F;
    IR.Vars.push_back(std::move(V));
    It->second = static_cast<VarId>(IR.Vars.size() - 1);
  }
  return It->second;
}

const Expr *Lowering::pointerElementBase(const Expr *E) const {
  E = E->IgnoreParens();
  const Expr *Base = nullptr;
  // acc[i][j] of a host accessor (`auto acc = t.accessor<float, 2>()`): an
  // element of the tensor's memory, as p[i] is.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
      !OC->getType()->isRecordType()) {
    const Expr *Acc = OC->getArg(0)->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<CXXOperatorCallExpr>(Acc)) {
      if (Inner->getOperator() != OO_Subscript || Inner->getNumArgs() != 2)
        return nullptr;
      Acc = Inner->getArg(0)->IgnoreParenImpCasts();
    }
    return isa<DeclRefExpr>(Acc) ? Acc : nullptr;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Base = AS->getBase();
  else if (const auto *U = dyn_cast<UnaryOperator>(E);
           U && U->getOpcode() == UO_Deref)
    Base = U->getSubExpr();
  if (!Base || !Base->IgnoreParenImpCasts()->getType()->isPointerType())
    return nullptr;
  return Base;
}

void Lowering::lowerAssign(const BinaryOperator *BO, FactList &Out) {
  // `p[i] = v`, `*p += v`: the host writes through a pointer into a tensor.
  if (BO->isAssignmentOp())
    if (const Expr *Base = pointerElementBase(BO->getLHS()))
      return hostAccess(Out, /*Write=*/true, tensorBehindPointer(Base), BO);
  // cudaStream_t s = ...; s = other;
  if (BO->getOpcode() != BO_Assign)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      bind(V, BO->getRHS(), site(SiteKind::Other, BO), Out);
}

void Lowering::lowerLambda(const LambdaExpr *LE, FactList &Out) {
  // A lambda may run later or on another thread; a tensor it captures may
  // outlive this function. Its body is analysed where it is run.
  for (const LambdaCapture &Cap : LE->captures()) {
    if (!Cap.capturesVariable())
      continue;
    const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
    if (!V || Table.classify(V->getType()) != ValueClass::Tensor)
      continue;
    emit(Out, site(SiteKind::Other, LE),
         fact::EscapeTensor{TensorRef::var(varOf(V))});
  }
}

bool Lowering::runSpecialMember(const CXXMethodDecl *M, SiteId At,
                                FactList &Out) {
  const FunctionDecl *Def = nullptr;
  if (!M || M->isVirtual() || !M->hasBody(Def) || !Def->getBody() ||
      SM.isInSystemHeader(Def->getLocation()) ||
      !(waitsForHost(*Def, Table) || mentionsStreamApis(*Def, Table)))
    return false;
  std::optional<BodyId> Body = LowerCallee(*Def, {}, false);
  if (!Body)
    return false;
  fact::Spawn S;
  S.Body = *Body;
  S.InPlace = true;
  S.Callee = true;
  emit(Out, At, S);
  return true;
}

void Lowering::lowerConstruct(const CXXConstructExpr *CE, FactList &Out) {
  if (isThreadClass(CE->getType()->getAsCXXRecordDecl()))
    spawn(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), nullptr, Out);
  // std::lock_guard lock(m): a host wait (LowerHostOrder.cpp).
  if (const CXXConstructorDecl *Ctor = CE->getConstructor();
      Ctor && Table.lookup(Ctor).Effect == ApiEffect::HostWaitAny)
    hostOrder(ApiEffect::HostWaitAny, NoVar, site(SiteKind::Other, CE), Out);
  // The elements of a followed container are bound, not kept.
  if (Containers.consumed(CE))
    return;
  // A non-tensor object built from tensors (a container, a struct) keeps
  // them.
  if (Table.classify(CE->getType()) != ValueClass::None)
    return;
  // An RAII object of the unit whose constructor waits or uses streams (a
  // timer that synchronises): its body runs here.
  runSpecialMember(CE->getConstructor(), site(SiteKind::Other, CE), Out);
  llvm::SmallVector<const Expr *, 2> Tensors;
  for (const Expr *Arg : CE->arguments())
    collectTensors(Arg, Tensors);
  for (const Expr *T : Tensors)
    escape(Out, site(SiteKind::Other, CE), T);
}

} // namespace streamsafe
