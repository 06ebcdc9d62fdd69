//===--- LowerCalls.cpp - Calls to stream facts, by API effect ------------===//
//
// One switch per family of effects (streams and guards, events and
// synchronisation, memory, threads, tensors, ATen); the API table decides
// which effect a call has, so the order of the tests below does not.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/frontend/MemberCode.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/lower/KeptTensors.h"
#include "lib/lower/SyncCalls.h"
#include "lib/model/Naming.h"
#include "lib/model/Recipes.h"
#include "lib/model/TensorMethods.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

using namespace clang;

namespace streamsafe {

void Lowering::access(FactList &Out, bool Write, const Expr *Tensor,
                      StreamRef Stream, bool Async, bool Copy, const Stmt *At) {
  // At: where the access is written when the tensor is reached through a
  // pointer variable (the launch argument, not the pointer's initialiser).
  const Stmt *Where = At ? At : Tensor;
  emit(Out, site(SiteKind::Access, Where),
       fact::Access{Write, tensorRef(Tensor), Stream, Async, Copy});
}

void Lowering::hostAccess(FactList &Out, bool Write, const Expr *Tensor,
                          const Stmt *At) {
  if (!Tensor)
    return;
  emit(Out, site(SiteKind::Access, At ? At : Tensor),
       fact::HostAccess{Write, tensorRef(Tensor)});
}

// `ev.block(getCurrentCUDAStream())`, `cudaStreamWaitEvent(
// getCurrentCUDAStream().stream(), e, 0)`, `getCurrentCUDAStream().wait(ev)`:
// the stream asked for is only made to wait.
bool Lowering::onlyWaits(const CallExpr *Query) {
  const Stmt *Child = Query;
  for (const Stmt *P = Parents ? Parents->getParent(Query) : nullptr; P;
       Child = P, P = Parents->getParent(P)) {
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, ParenExpr, CXXConstructExpr, MemberExpr>(P))
      continue;
    const auto *Call = dyn_cast<CallExpr>(P);
    if (!Call)
      return false;
    const ApiEntry &A = Table.lookup(Call->getDirectCallee());
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    // The query is the object: `q.f(...)` reaches the call through its
    // callee, a MemberExpr.
    bool IsObject = MC && MC->getCallee()->IgnoreParens() == Child;
    switch (A.Effect) {
    case ApiEffect::StreamIdentity:
      if (IsObject)
        continue; // getCurrentCUDAStream().stream()
      return false;
    case ApiEffect::StreamWaitEvent:
      return IsObject;
    case ApiEffect::EventBlock:
    case ApiEffect::ConfiguredEventWait:
      return !IsObject;
    case ApiEffect::RawStreamWaitEvent:
      return Call->getNumArgs() > 0 && Call->getArg(0) == Child;
    default:
      return false;
    }
  }
  return false;
}

void Lowering::lowerCall(const CallExpr *CE, FactList &Out) {
  if (const auto *KE = dyn_cast<CUDAKernelCallExpr>(CE))
    return lowerKernelLaunch(KE, Out);
  if (lowerContainerCall(CE, Out))
    return;
  const ApiEntry &A = Table.lookup(CE->getDirectCallee());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    // [&] { ... }() or fn() of a local lambda: its body runs here, on this
    // thread, with the current stream as it is.
    if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 1)
      if (const LambdaExpr *L = callableOf(OC->getArg(0))) {
        fact::Spawn S;
        S.Body = LowerBody(*L);
        S.InPlace = true;
        return emit(Out, site(SiteKind::Other, OC), S);
      }
    // `w->wait()`: reaching the handle hands it nowhere.
    if ((OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star) &&
        OC->getNumArgs() == 1 &&
        Table.classify(OC->getArg(0)->getType()) == ValueClass::Event)
      return;
    // `w = pg->allreduce(v)`: the local handle takes the new work.
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (VarId W = eventVar(OC->getArg(0));
          W != NoVar &&
          bindWork(W, OC->getArg(1), site(SiteKind::EventDecl, OC), Out))
        return;
    if (OC->getNumArgs() >= 1 &&
        Table.classify(OC->getArg(0)->getType()) == ValueClass::Tensor &&
        isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()))
      return lowerTensorOperator(OC, Out);
  }
  // loss.backward() writes the gradients, and is a tensor op too.
  if (lowerGradientUse(CE, Out))
    return;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && isTensorEffect(A.Effect) && lowerTensorMethod(MC, A, Out))
    return;
  if (lowerHostOrderCall(CE, A, Out) || lowerStreamCall(CE, A, Out) ||
      lowerEventCall(CE, A, Out) || lowerMemoryCall(CE, A, Out) ||
      lowerThreadCall(CE, A, Out) || lowerAtenCall(CE, A, Out) ||
      lowerCaptureCall(CE, A, Out) || lowerCollectiveCall(CE, A, Out))
    return;
  if (A.Effect == ApiEffect::TransparentCast)
    return;
  if (A.Effect == ApiEffect::None && lowerInlinedCall(CE, Out))
    return;
  lowerUnknownCall(CE, Out);
}

void Lowering::lowerKernelLaunch(const CUDAKernelCallExpr *KE, FactList &Out) {
  const CallExpr *Config = KE->getConfig();
  StreamRef Stream = StreamRef::legacy(); // kernel<<<g, b>>>: no stream
  if (Config && Config->getNumArgs() >= 4 &&
      !isa<CXXDefaultArgExpr>(Config->getArg(3)))
    Stream = streamRef(Config->getArg(3));
  for (const Expr *Arg : KE->arguments())
    if (const Expr *T = tensorBehindPointer(Arg))
      access(Out, /*Write=*/false, T, Stream, false, false, Arg);
}

void Lowering::lowerTensorOperator(const CXXOperatorCallExpr *OC,
                                   FactList &Out) {
  // Member operators of Tensor: t = u, t += u, t[i].
  const Expr *Self = OC->getArg(0);
  if (OC->getOperator() == OO_Subscript)
    return; // a view
  if (OC->getOperator() == OO_Equal) {
    const Expr *RHS = OC->getArg(1);
    if (Table.classify(RHS->getType()) != ValueClass::Tensor)
      return access(Out, /*Write=*/true, Self, StreamRef::current()); // t = 0
    SiteId At = site(SiteKind::Other, OC);
    const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Self, Table));
    if (const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr)
      return emit(Out, At, fact::BindTensor{varOf(V), tensorRef(RHS)});
    // h.t = u of a local struct followed member by member: a local's bind.
    if (Records.ownerOf(stripValue(Self, Table), analysedRoot()))
      if (const auto *ME = dyn_cast<MemberExpr>(stripValue(Self, Table)))
        return emit(
            Out, At,
            fact::BindTensor{varOf(ME->getMemberDecl()), tensorRef(RHS)});
    if (lowerContainerCall(OC, Out))
      return; // v[k] = t
    // `buf_ = t` in a method: the object holds t from now on, for this
    // method and those run in place after it on the object (one variable
    // per member, as the member's own storage is).
    const auto *ME = dyn_cast<MemberExpr>(stripValue(Self, Table));
    const auto *Field =
        ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())
            ? dyn_cast<FieldDecl>(ME->getMemberDecl())
            : nullptr;
    escape(Out, At, RHS); // stored into a member or element
    if (Field) {
      emit(Out, At, fact::BindTensor{varOf(Field), tensorRef(RHS)});
      // Stored by the analysed method for the object's users
      // (lib/lower/KeptTensors.h).
      if (keptByObject(OC, Field)) {
        fact::EscapeTensor Kept{TensorRef::var(varOf(Field))};
        Kept.KeptByObject = true;
        emit(Out, At, Kept);
      }
    }
  }
  for (unsigned I = 1; I < OC->getNumArgs(); ++I) {
    llvm::SmallVector<const Expr *, 2> Tensors;
    collectTensors(OC->getArg(I), Tensors);
    for (const Expr *T : Tensors)
      access(Out, /*Write=*/false, T, StreamRef::current());
  }
  access(Out, /*Write=*/true, Self, StreamRef::current()); // t += u
}

bool Lowering::keptByObject(const CXXOperatorCallExpr *Store,
                            const FieldDecl *Field) {
  if (!Held || CurrentFunction != Root || !Root || !Root->getBody())
    return false;
  lower::KeptEvidence E;
  Held->keptEvidence(Field, E);
  if (!lower::keptForUsers(E))
    return false; // the class's evidence alone rules it out
  // A wait or synchronization before the store, in the method.
  for (const CallExpr *CE : callsIn(Root->getBody(), [&](const CallExpr *C) {
         return SM.isBeforeInTranslationUnit(C->getBeginLoc(),
                                             Store->getBeginLoc());
       })) {
    switch (Table.lookup(CE->getDirectCallee()).Effect) {
    case ApiEffect::EventBlock:
    case ApiEffect::StreamWaitEvent:
    case ApiEffect::EventSynchronize:
    case ApiEffect::RawStreamWaitEvent:
    case ApiEffect::RawEventSynchronize:
    case ApiEffect::StreamSynchronize:
    case ApiEffect::StreamSyncFunction:
    case ApiEffect::DeviceSynchronize:
    case ApiEffect::ConfiguredEventWait:
      E.WaitBeforeStore = true;
      break;
    default:
      break;
    }
  }
  // A store the next statements of its block replace.
  const Stmt *Statement = Store;
  const Stmt *Parent = Parents ? Parents->getParent(Statement) : nullptr;
  while (Parent && !isa<CompoundStmt>(Parent)) {
    Statement = Parent;
    Parent = Parents->getParent(Parent);
  }
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Parent)) {
    bool After = false;
    for (const Stmt *S : Block->body()) {
      if (After) {
        const auto *E2 = dyn_cast<Expr>(S);
        const auto *OC =
            E2 ? dyn_cast<CXXOperatorCallExpr>(E2->IgnoreImplicit()) : nullptr;
        E.ReplacedAfter |= OC && OC->getOperator() == OO_Equal &&
                           OC->getNumArgs() == 2 &&
                           thisField(OC->getArg(0), Table) == Field;
      }
      After |= S == Statement;
    }
  }
  return lower::keptForUsers(E);
}

void Lowering::emitRecipe(const TensorCall &C,
                          llvm::ArrayRef<const Stmt *> Nodes, FactList &Out) {
  emitSteps(recipeOf(C), Nodes, Out);
}

void Lowering::emitSteps(const Recipe &Steps,
                         llvm::ArrayRef<const Stmt *> Nodes, FactList &Out) {
  // One site per node and kind: a call's sync and record share the call's.
  llvm::SmallDenseMap<std::pair<unsigned, unsigned>, SiteId, 4> Sites;
  for (const RecipeStep &S : Steps) {
    auto [It, New] = Sites.try_emplace({S.At, unsigned(S.Kind)}, NoSite);
    if (New)
      It->second = site(S.Kind, Nodes[S.At]);
    emit(Out, It->second, S.What);
  }
}

void Lowering::collectTensorArgs(const CallExpr *CE, unsigned From,
                                 TensorCall &C,
                                 llvm::SmallVectorImpl<const Stmt *> &Nodes) {
  for (unsigned I = From; I < CE->getNumArgs(); ++I) {
    llvm::SmallVector<const Expr *, 2> Tensors;
    collectTensors(CE->getArg(I), Tensors);
    for (const Expr *T : Tensors) {
      C.Args.push_back({tensorRef(T), unsigned(Nodes.size())});
      Nodes.push_back(T);
    }
  }
}

std::optional<ObjectId> Lowering::resultOf(const CallExpr *CE) {
  if (Table.classify(CE->getType()) != ValueClass::Tensor ||
      CE->getType()->isReferenceType())
    return std::nullopt;
  return objectOf(CE);
}

bool Lowering::lowerTensorMethod(const CXXMemberCallExpr *MC, const ApiEntry &A,
                                 FactList &Out) {
  const Expr *Self = MC->getImplicitObjectArgument();
  if (!Self || Table.classify(Self->getType()) != ValueClass::Tensor)
    return false;
  switch (A.Effect) {
  case ApiEffect::TensorReset:
    if (const auto *DR = dyn_cast<DeclRefExpr>(stripValue(Self, Table)))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        emit(Out, site(SiteKind::LifetimeEnd, MC), fact::Unbind{varOf(V)});
    return true;
  case ApiEffect::TensorView:
    // contiguous() of a transposed tensor copies: a read of it here.
    if (const auto *MD = MC->getMethodDecl();
        MD && MD->getIdentifier() && viewMayCopy(MD->getName()))
      access(Out, /*Write=*/false, Self, StreamRef::current());
    return true;
  case ApiEffect::TensorMetadata:
  case ApiEffect::TensorViewList:
    return true;
  default:
    break;
  }
  // Nodes[0] is the call, Nodes[1] the receiver; then the tensor arguments.
  llvm::SmallVector<const Stmt *, 6> Nodes = {MC, Self};
  TensorCall C;
  C.Effect = A.Effect;
  C.Self = SitedTensor{tensorRef(Self), 1};
  C.Result = resultOf(MC);
  switch (A.Effect) {
  case ApiEffect::TensorCopyFrom:
    if (const Expr *Src = arg(MC, A.Source)) {
      C.Args.push_back({tensorRef(Src), unsigned(Nodes.size())});
      Nodes.push_back(Src);
    }
    C.Async = nonBlocking(MC);
    break;
  case ApiEffect::TensorRecordStream:
    C.Stream = streamArg(MC, A.Stream, StreamRef::unknown());
    break;
  case ApiEffect::TensorRawPointer:
    // A pointer kept in a variable is read later, which is not followed.
    C.PointerKept = pointerKeptForLater(MC);
    break;
  case ApiEffect::TensorTo:
    C.Async = nonBlocking(MC);
    C.Place = placementOf(MC, /*Like=*/true, &C.Device);
    break;
  case ApiEffect::TensorInPlace:
  case ApiEffect::TensorOp:
  case ApiEffect::TensorSizedByData:
    collectTensorArgs(MC, 0, C, Nodes);
    break;
  default:
    break;
  }
  emitRecipe(C, Nodes, Out);
  return true;
}

bool Lowering::lowerStreamCall(const CallExpr *CE, const ApiEntry &A,
                               FactList &Out) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  auto GuardOf = [&]() -> VarId {
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(stripValue(Obj, Table)))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        return varOf(V);
    return NoVar;
  };
  switch (A.Effect) {
  case ApiEffect::SetCurrentStream:
  case ApiEffect::ConfiguredSetCurrent: {
    fact::SetCurrent Set{streamArg(CE, 0, StreamRef::unknown())};
    // setCurrentCUDAStream(saved_) of a member a method saved the current
    // stream in: a restore (StreamSections.cpp).
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(
            CE->getNumArgs() ? streamOperand(CE->getArg(0), Table) : nullptr))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          F && Held && Held->savedCurrent(F))
        Set.Restores = true;
    // main()'s stream is the program's: no caller's work runs after it.
    Set.ForProcess =
        CurrentFunction && CurrentFunction == Root && CurrentFunction->isMain();
    emit(Out, site(SiteKind::SetCurrent, CE), Set);
    return true;
  }
  case ApiEffect::CurrentStream:
  case ApiEffect::ConfiguredCurrentStream:
    emit(Out, site(SiteKind::Other, CE), fact::CurrentQuery{onlyWaits(CE)});
    // The stable ABI's getters write the stream through an out-parameter:
    // aoti_torch_get_current_cuda_stream(device, (void **)&stream).
    if (A.Stream >= 0 && unsigned(A.Stream) < CE->getNumArgs())
      if (const auto *U =
              dyn_cast<UnaryOperator>(CE->getArg(A.Stream)->IgnoreParenCasts()))
        if (const auto *DR =
                dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts());
            DR && U->getOpcode() == UO_AddrOf)
          if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
            if (IR.var(varOf(V)).Class == VarClass::Stream)
              emit(Out, site(SiteKind::Other, CE),
                   fact::BindStream{varOf(V), StreamRef::queried()});
    return true;
  case ApiEffect::GuardResetStream:
    emit(Out, site(SiteKind::GuardEnter, CE),
         fact::GuardEnter{
             GuardOf(), streamArg(CE, A.Stream, StreamRef::unknown()), false});
    return true;
  case ApiEffect::SetDevice:
    // cudaSetDevice(1): device 1 becomes current, and with it its current
    // stream, until changed (a device guard with no exit). A device that is
    // not a constant is taken to be the current one, as for CUDAGuard.
    if (const Expr *Device = arg(CE, 0))
      if (std::optional<int8_t> D = deviceIndexOf(Device); D && *D >= 0)
        emit(Out, site(SiteKind::Other, CE),
             fact::GuardEnter{NoVar, StreamRef::currentOf(*D), false, *D});
    return true;
  case ApiEffect::GuardReset:
    emit(Out, site(SiteKind::GuardExit, CE), fact::GuardExit{GuardOf()});
    return true;
  case ApiEffect::StreamCreate:
    // cudaStreamCreate(&s): s now holds a stream no other code uses.
    if (VarId V = eventVar(arg(CE, 0)); V != NoVar)
      emit(Out, site(SiteKind::Other, CE),
           fact::BindStream{V, {StreamRef::Created, objectOf(CE), NoVar}});
    return true;
  case ApiEffect::StreamFromPool:
  case ApiEffect::DefaultStream:
  case ApiEffect::ExternalStream:
  case ApiEffect::StreamIdentity:
    return true; // evaluated where their value is used
  default:
    return false;
  }
}

bool Lowering::lowerEventCall(const CallExpr *CE, const ApiEntry &A,
                              FactList &Out) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  switch (A.Effect) {
  case ApiEffect::EventRecord:
  case ApiEffect::ConfiguredEventRecord:
  case ApiEffect::EventBlock:
  case ApiEffect::ConfiguredEventWait:
  case ApiEffect::StreamWaitEvent:
  case ApiEffect::EventSynchronize:
  case ApiEffect::ConfiguredEventSync:
  case ApiEffect::RawEventRecord:
  case ApiEffect::RawStreamWaitEvent:
  case ApiEffect::RawEventSynchronize:
  case ApiEffect::StreamSynchronize:
  case ApiEffect::StreamSyncFunction:
  case ApiEffect::ConfiguredStreamSync:
  case ApiEffect::DeviceSynchronize: {
    // The operands, from the syntax; what they mean: lib/lower/SyncCalls.h.
    lower::SyncCall C;
    C.Effect = A.Effect;
    bool Raw = A.Effect == ApiEffect::RawEventRecord ||
               A.Effect == ApiEffect::RawStreamWaitEvent ||
               A.Effect == ApiEffect::RawEventSynchronize;
    bool OnEvent = A.Effect == ApiEffect::StreamWaitEvent || Raw;
    bool OnStream = A.Effect == ApiEffect::StreamSynchronize ||
                    A.Effect == ApiEffect::StreamSyncFunction ||
                    A.Effect == ApiEffect::ConfiguredStreamSync ||
                    A.Effect == ApiEffect::DeviceSynchronize;
    if (!OnStream)
      C.Event = eventVar(OnEvent ? arg(CE, A.Event) : Obj);
    StreamRef Omitted = lower::omittedStream(A.Effect);
    if (A.Effect == ApiEffect::StreamWaitEvent ||
        A.Effect == ApiEffect::StreamSynchronize)
      C.Stream = Obj ? streamRef(Obj) : StreamRef::unknown();
    else if (A.Effect == ApiEffect::ConfiguredStreamSync) {
      // f(stream), obj.f() on a stream object, or f(): the whole device.
      const Expr *S = arg(CE, 0);
      if (!S)
        S = Obj;
      if (S)
        C.Stream = streamRef(S);
      else
        C.Effect = ApiEffect::DeviceSynchronize;
    } else
      C.Stream = streamArg(CE, A.Stream, Omitted);
    if (C.Effect == ApiEffect::EventBlock ||
        C.Effect == ApiEffect::ConfiguredEventWait ||
        C.Effect == ApiEffect::StreamWaitEvent ||
        C.Effect == ApiEffect::RawStreamWaitEvent)
      C.RecordedLaterInLoop = recordedLaterInLoop(CE, C.Event);
    // The flags follow the event: anything but a literal 0 may be
    // cudaEventWaitExternal.
    if (const Expr *Flags = C.Effect == ApiEffect::RawStreamWaitEvent
                                ? arg(CE, std::max(A.Event, A.Stream) + 1)
                                : nullptr) {
      Expr::EvalResult R;
      C.External = Flags->isValueDependent() || !Flags->EvaluateAsInt(R, Ctx) ||
                   R.Val.getInt() != 0;
    }
    emitSteps(*lower::syncCallSteps(C), {CE}, Out);
    return true;
  }
  case ApiEffect::ConfiguredEventOther:
    return true; // Create(), Query(): no stream effect
  default:
    return false;
  }
}

bool Lowering::lowerMemoryCall(const CallExpr *CE, const ApiEntry &A,
                               FactList &Out) {
  auto Here = [&] { return site(SiteKind::Other, CE); };
  switch (A.Effect) {
  case ApiEffect::AllocatorRecordStream:
  case ApiEffect::ConfiguredRecordStream: {
    bool Configured = A.Effect == ApiEffect::ConfiguredRecordStream;
    const Expr *T = Configured ? arg(CE, 0) : arg(CE, A.Dest);
    if (!T || (Configured && CE->getNumArgs() < 2))
      return true;
    if (Table.classify(T->getType()) != ValueClass::Tensor)
      T = tensorBehindPointer(T);
    if (T)
      emit(Out, Here(),
           fact::RecordStream{
               tensorRef(T),
               streamArg(CE, Configured ? 1 : A.Stream, StreamRef::unknown())});
    return true;
  }
  case ApiEffect::HostMemcpy:
    if (const Expr *Src = arg(CE, A.Source))
      hostAccess(Out, /*Write=*/false, tensorBehindPointer(Src), Src);
    if (const Expr *Dst = arg(CE, A.Dest))
      hostAccess(Out, /*Write=*/true, tensorBehindPointer(Dst), Dst);
    return true;
  case ApiEffect::MemcpyAsync:
  case ApiEffect::MemsetAsync:
  case ApiEffect::NcclOnStream:
  case ApiEffect::MemcpySync:
  case ApiEffect::MemsetSync:
  case ApiEffect::MemcpyAndSync: {
    // The synchronous calls run on the legacy stream, then the host waits.
    bool Sync = A.Effect == ApiEffect::MemcpySync ||
                A.Effect == ApiEffect::MemsetSync ||
                A.Effect == ApiEffect::MemcpyAndSync;
    StreamRef Stream = streamArg(CE, A.Stream, StreamRef::legacy());
    auto Copy = [&](bool Write, const Expr *Arg) {
      if (const Expr *T = Arg ? tensorBehindPointer(Arg) : nullptr)
        access(Out, Write, T, Stream, /*Async=*/!Sync, /*Copy=*/true, Arg);
    };
    Copy(/*Write=*/false, arg(CE, A.Source));
    Copy(/*Write=*/true, arg(CE, A.Dest));
    if (Sync)
      emit(Out, Here(),
           fact::StreamSync{
               Stream, false, {}, {}, A.Effect != ApiEffect::MemcpyAndSync});
    return true;
  }
  default:
    return false;
  }
}

bool Lowering::lowerAtenCall(const CallExpr *CE, const ApiEntry &A,
                             FactList &Out) {
  if (!isTorchFunctionEffect(A.Effect))
    return false;
  llvm::SmallVector<const Stmt *, 6> Nodes = {CE};
  TensorCall C;
  C.Effect = A.Effect;
  C.Result = resultOf(CE);
  collectTensorArgs(CE, 0, C, Nodes);
  const FunctionDecl *FD = CE->getDirectCallee();
  StringRef Bare =
      FD && FD->getDeclName().isIdentifier() ? FD->getName() : StringRef();
  C.AllocateOnly = naming::allocatesOnly(Bare);
  if (A.Effect == ApiEffect::AtenFactory) {
    C.Place = placementOf(CE, naming::isLikeFactory(Bare), &C.Device);
    // at::tensor({1, 2}, opts): its data is host data, never a tensor.
    C.FromHostData = naming::copiesData(Bare) && C.Args.empty();
  }
  emitRecipe(C, Nodes, Out);
  return true;
}

} // namespace streamsafe
