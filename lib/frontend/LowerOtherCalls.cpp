//===--- LowerOtherCalls.cpp - Calls the API table does not know ----------===//
//
// A call with no row in the table is one of: a helper defined in this file
// that uses streams (run in place at the call), a launcher defined in
// another file (data pointers and a stream), or code the analysis does not
// see (an op on the current stream that may keep its tensor arguments).
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/lower/UnknownCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

using namespace clang;

namespace streamsafe {

// A callee defined in this translation unit that uses streams runs here, in
// place: its parameters are bound to the arguments (a tensor, a stream, the
// tensor behind a data pointer), its body runs on the current stream as it
// is, and a tensor it returns is the call's value.
bool Lowering::lowerInlinedCall(const CallExpr *CE, FactList &Out) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def))
    return false;
  // Lambdas handed to the helper run where it calls them; each body is
  // lowered in the context it is written in (here). Library code (a
  // container's push_back, an executor of a library) may also keep one and
  // run it later.
  bool Library = SM.isInSystemHeader(Def->getLocation());
  BoundCallables Lambdas;
  for (unsigned I = 0; I < CE->getNumArgs() && I < Def->getNumParams(); ++I)
    if (const LambdaExpr *L = callableOf(CE->getArg(I))) {
      Lambdas.push_back({Def->getParamDecl(I), L});
      LowerBody(*L);
      if (Library)
        escapeCapturedEvents(*L, CE, Out);
    }
  std::optional<BodyId> Body = LowerCallee(*Callee, Lambdas, false);
  if (!Body)
    return false;
  SiteId At = site(SiteKind::Other, CE);
  llvm::SmallVector<VarId, 4> Bound = bindParameters(
      *Def, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), At, Out);
  // The variable the callee's return binds is the caller's, so that what
  // the body binds it to comes back.
  bool Returns = Table.classify(CE->getType()) == ValueClass::Tensor;
  if (Returns)
    emit(Out, At, fact::BindTensor{returnVar(*Def), TensorRef()});
  fact::Spawn S;
  S.Body = *Body;
  S.InPlace = true;
  S.Callee = true;
  emit(Out, At, S);
  for (VarId V : Bound)
    emit(Out, At, fact::Unbind{V});
  if (Returns)
    Inlined.Results[CE] = returnVar(*Def);
  return true;
}

// A tensor, a stream, the tensor behind a data pointer: bound to what the
// argument names. An event handed over may be recorded there: not followed.
llvm::SmallVector<VarId, 4>
Lowering::bindParameters(const FunctionDecl &Def,
                         llvm::ArrayRef<const Expr *> Args, SiteId At,
                         FactList &Out) {
  llvm::SmallVector<VarId, 4> Bound;
  unsigned N = std::min<unsigned>(Args.size(), Def.getNumParams());
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Def.getParamDecl(I);
    const Expr *Arg = Args[I];
    VarId V = varOf(P);
    switch (IR.var(V).Class) {
    case VarClass::Tensor:
      emit(Out, At, fact::BindTensor{V, tensorRef(Arg)});
      Bound.push_back(V);
      break;
    case VarClass::Stream:
      emit(Out, At, fact::BindStream{V, streamRef(Arg)});
      Bound.push_back(V);
      break;
    case VarClass::Other: {
      if (P->getType()->isPointerType())
        if (const Expr *T = tensorBehindPointer(Arg)) {
          emit(Out, At, fact::BindTensor{V, tensorRef(T)});
          Bound.push_back(V);
        }
      // A flag given as written (`scaled(x, false)`, a constexpr): the
      // helper's tests of it are decided (BranchConditions.h).
      bool Truth = false;
      if (P->getType()->isScalarType() && !Arg->isValueDependent() &&
          Arg->EvaluateAsBooleanCondition(Truth, Ctx))
        emit(Out, At, fact::Forget{fact::Forget::Step::Known, V, Truth});
      break;
    }
    case VarClass::Event:
      handOnEvent(Out, At, Arg);
      break;
    case VarClass::Guard:
      break;
    }
  }
  return Bound;
}

// A callable handed to code that may keep it (a task for an executor the
// analysis does not know, a queue's element) may run later, elsewhere: the
// events it captures may be recorded there.
void Lowering::escapeCapturedEvents(const LambdaExpr &L, const CallExpr *At,
                                    FactList &Out) {
  for (const LambdaCapture &Cap : L.captures()) {
    const auto *V = dyn_cast_or_null<VarDecl>(
        Cap.capturesVariable() ? Cap.getCapturedVar() : nullptr);
    ValueClass C = V ? Table.classify(V->getType()) : ValueClass::None;
    if (C == ValueClass::Event || C == ValueClass::RawEvent)
      emit(Out, site(SiteKind::Other, At), fact::EscapeEvent{varOf(V)});
  }
}

void Lowering::lowerUnknownCall(const CallExpr *CE, FactList &Out) {
  // What the callee may do (lib/lower/UnknownCode.h): library code (std::,
  // c10::) only keeps what it is handed.
  const FunctionDecl *FD = CE->getDirectCallee();
  bool Library =
      FD && (isInTopNamespace(FD, "std") || isInTopNamespace(FD, "c10"));
  // Program code named as a CUDA op (`set_cuda`) enqueues its work.
  bool DeviceOp = FD && FD->getDeclName().isIdentifier() &&
                  lower::namesDeviceOp(FD->getName());
  lower::UnknownEffects Effects =
      lower::unknownCallEffects(Library    ? lower::UnknownCallee::Keeps
                                : DeviceOp ? lower::UnknownCallee::DeviceOp
                                           : lower::UnknownCallee::Program);
  // pieces[i], pieces.begin(), pieces.size(): the list's own methods keep
  // nothing (its elements are followed as views of the tensor).
  const Expr *Self = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Self = MC->getImplicitObjectArgument();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
           OC && isa_and_nonnull<CXXMethodDecl>(FD) && OC->getNumArgs())
    Self = OC->getArg(0);
  if (Library && Self && isPieceList(Self))
    return;
  llvm::SmallVector<const Expr *, 4> Tensors;
  for (const Expr *Arg : CE->arguments())
    collectTensors(Arg, Tensors);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    collectTensors(MC->getImplicitObjectArgument(), Tensors);
  // An event handed to code we do not see may be recorded there. A stream
  // handed to it may be made to wait on events of its own (a fork or a
  // join the analysis cannot see): an escape of no event we follow.
  bool GivesStream = false;
  for (const Expr *Arg : CE->arguments()) {
    ValueClass C = Table.classify(Arg->getType());
    if (C == ValueClass::Event || C == ValueClass::RawEvent)
      handOnEvent(Out, site(SiteKind::Other, CE), Arg);
    GivesStream |= C == ValueClass::Stream || C == ValueClass::RawStream;
    // A task for an executor the analysis does not know may run there.
    if (const LambdaExpr *L = callableOf(Arg))
      escapeCapturedEvents(*L, CE, Out);
  }
  if (GivesStream && Effects.MayUseStreams)
    emit(Out, site(SiteKind::Other, CE), fact::EscapeEvent{NoVar});
  if (Effects.MayWaitForThreads)
    emit(Out, site(SiteKind::Other, CE), fact::HostWait{NoVar});
  for (const Expr *T : Tensors) {
    // It reads them, and fills what nothing has written (UnknownCode.h).
    if (Effects.ReadsTensors) {
      fact::Access Read{false, tensorRef(T), StreamRef::current()};
      Read.FillsIfBlank = true;
      // Host memory read on the stream: as a non_blocking copy reads it.
      Read.Copy = Read.Async = Effects.ReadsInStreamOrder;
      emit(Out, site(SiteKind::Access, T), Read);
    }
    if (Effects.KeepsTensors)
      escape(Out, site(SiteKind::Other, CE), T);
  }
  if (FD && !FD->hasBody() && !Library)
    lowerLauncher(CE, *FD, Out);
}

// A launcher defined in another file (the usual shape of extension code:
// `kernels::dispatch(out.data_ptr<float>(), in.data_ptr<float>(), n,
// stream)`): it receives tensor data pointers and a stream, so it accesses
// those tensors on that stream, writing through a pointer to non-const and
// reading through a pointer to const. Without a stream argument nothing is
// assumed (the work may be synchronous or on any stream).
void Lowering::lowerLauncher(const CallExpr *CE, const FunctionDecl &FD,
                             FactList &Out) {
  const Expr *Stream = nullptr;
  for (const Expr *Arg : CE->arguments()) {
    ValueClass C = Table.classify(Arg->getType());
    if (C == ValueClass::Stream || C == ValueClass::RawStream) {
      Stream = Arg;
      break;
    }
  }
  if (!Stream)
    return;
  StreamRef On = streamRef(Stream);
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *Arg = CE->getArg(I);
    const Expr *T = tensorBehindPointer(Arg);
    if (!T)
      continue;
    // The parameter says whether the launcher may write (a variadic
    // argument: the argument's own type).
    QualType Param = I < FD.getNumParams() ? FD.getParamDecl(I)->getType()
                                           : Arg->IgnoreImpCasts()->getType();
    bool Write = true;
    if (const auto *PT = Param->getAs<PointerType>())
      Write = !PT->getPointeeType().isConstQualified();
    access(Out, Write, T, On, /*Async=*/false, /*Copy=*/false, Arg);
  }
}

} // namespace streamsafe
