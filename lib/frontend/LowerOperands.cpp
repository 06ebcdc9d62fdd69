//===--- LowerOperands.cpp - Expressions to IR operands -------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/StreamOperands.h"
#include "lib/lower/Regions.h"
#include "lib/model/Arguments.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

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

static bool isTransparentCall(const Expr *E, ApiLookup &Table) {
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
         Table.lookup(Call->getDirectCallee()).Effect ==
             ApiEffect::TransparentCast;
}

// `*p`, `p->`, `p.value()` of a pointer, shared_ptr or optional holding a
// tensor: the holder, which the analysis follows as the tensor.
static const Expr *tensorHolder(const Expr *E, ApiLookup &Table) {
  const Expr *Holder = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    Holder = U->getSubExpr();
  else if (const auto *O = dyn_cast<CXXOperatorCallExpr>(E);
           O && O->getNumArgs() == 1 &&
           (O->getOperator() == OO_Star || O->getOperator() == OO_Arrow))
    Holder = O->getArg(0);
  else if (const auto *M = dyn_cast<CXXMemberCallExpr>(E);
           M && M->getNumArgs() == 0 && M->getMethodDecl() &&
           M->getMethodDecl()->getIdentifier() &&
           M->getMethodDecl()->getName() == "value")
    Holder = M->getImplicitObjectArgument();
  // The operators of shared_ptr are its base class's: look through the
  // derived-to-base conversion.
  if (Holder)
    Holder = Holder->IgnoreParenImpCasts();
  if (!Holder || Table.classify(Holder->getType()) != ValueClass::Tensor)
    return nullptr;
  return Holder;
}

const Expr *temporaryInside(const Expr *E) {
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return M->getSubExpr();
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return B->getSubExpr();
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    return C->getSubExpr();
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return F->getSubExpr();
  return nullptr;
}

const Expr *stripValue(const Expr *E, ApiLookup &Table) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const Expr *Holder = tensorHolder(E, Table)) {
      E = Holder;
      continue;
    }
    if (const Expr *Inner = temporaryInside(E))
      E = Inner;
    else if (const auto *S = dyn_cast<CXXStaticCastExpr>(E))
      E = S->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() >= 1 &&
             (CE->getConstructor()->isCopyOrMoveConstructor() ||
              CE->getConstructor()->isConvertingConstructor(true)) &&
             sameKind(Table.classify(CE->getType()),
                      Table.classify(CE->getArg(0)->getType())))
      E = CE->getArg(0);
    else if (isTransparentCall(E, Table))
      E = cast<CallExpr>(E)->getArg(0);
    else
      return E;
  }
  return E;
}

const LambdaExpr *lambdaOf(const Expr *E, ApiTable &Table) {
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
    } else if (isTransparentCall(E, Table))
      E = cast<CallExpr>(E)->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

const LambdaExpr *Lowering::callableOf(const Expr *E) {
  if (const LambdaExpr *L = lambdaOf(E, Table))
    return L;
  const auto *DR = dyn_cast_or_null<DeclRefExpr>(stripValue(E, Table));
  if (!DR || !Callables)
    return nullptr;
  for (const auto &[Param, Lambda] : *Callables)
    if (Param == DR->getDecl())
      return Lambda;
  return nullptr;
}

bool nonBlocking(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I)
    if (FD->getParamDecl(I)->getName() == arguments::NonBlocking)
      if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(
              CE->getArg(I)->IgnoreParenImpCasts()))
        return B->getValue();
  return false;
}

//===-- Variables, objects and sites --------------------------------------===//

VarId Lowering::varOf(const NamedDecl *D) {
  auto [It, New] = Vars.try_emplace(D, 0);
  if (!New)
    return It->second;
  Variable V;
  V.Name = D->getNameAsString();
  V.Decl = D;
  if (const auto *VD = dyn_cast<ValueDecl>(D)) {
    switch (Table.classify(VD->getType())) {
    case ValueClass::Tensor:
      V.Class = VarClass::Tensor;
      break;
    case ValueClass::Stream:
    case ValueClass::RawStream:
      V.Class = VarClass::Stream;
      break;
    case ValueClass::Event:
    case ValueClass::RawEvent:
      V.Class = VarClass::Event;
      break;
    case ValueClass::StreamGuard:
    case ValueClass::OptionalGuard:
    case ValueClass::MultiGuard:
    case ValueClass::DeviceGuard:
      V.Class = VarClass::Guard;
      break;
    case ValueClass::None:
      if (const auto *Var = dyn_cast<VarDecl>(VD); Var && isPieceListVar(Var))
        V.Class = VarClass::Tensor;
      break;
    }
    // A reference or a raw pointer never owns a storage.
    V.Reference =
        VD->getType()->isReferenceType() || VD->getType()->isPointerType();
  }
  if (const auto *Var = dyn_cast<VarDecl>(D))
    V.Persistent = Var->hasGlobalStorage();
  else if (const auto *FD = dyn_cast<FieldDecl>(D))
    // A member of a local struct followed member by member is a local.
    V.Persistent = !Records.followedMember(FD, Root);
  // A member or global the whole unit only ever gives fresh streams: the
  // note of a finding points at where it is created, in whatever function.
  if (V.Persistent && V.Class == VarClass::Stream && Held)
    if (HeldStream H = Held->held(cast<ValueDecl>(D));
        H.Proof != StreamProof::None) {
      V.Proof = H.Proof;
      V.ProvenAt = site(SiteKind::StreamProven, H.At->getBeginLoc(), H.At);
    }
  IR.Vars.push_back(std::move(V));
  return It->second = static_cast<VarId>(IR.Vars.size() - 1);
}

ObjectId Lowering::objectOf(const void *Node) {
  auto [It, New] = Objects.try_emplace(Node, 0);
  if (New)
    It->second = IR.newObject();
  return It->second;
}

SiteId Lowering::site(SiteKind K, SourceLocation L, const Stmt *S,
                      const Decl *D) {
  Site Out;
  Out.Kind = K;
  Out.Loc = L.getRawEncoding();
  Out.Node = S;
  Out.Decl = D;
  Out.Scope = ContextIndex;
  if (L.isValid()) {
    // Sites of one function compare by where their expansion is written.
    auto [File, Offset] = SM.getDecomposedExpansionLoc(L);
    Out.Order = (uint64_t(File.getHashValue()) << 32) | Offset;
    Out.Line = SM.getPresumedLineNumber(L);
  }
  return IR.Sites.add(Out);
}

SiteId Lowering::site(SiteKind K, const Stmt *S) {
  return site(K, S->getBeginLoc(), S);
}

//===-- Operands ----------------------------------------------------------===//

const Expr *Lowering::arg(const CallExpr *CE, int Index) const {
  if (Index < 0 || unsigned(Index) >= CE->getNumArgs() ||
      isa<CXXDefaultArgExpr>(CE->getArg(Index)))
    return nullptr;
  return CE->getArg(Index);
}

StreamRef Lowering::streamArg(const CallExpr *CE, int Index, StreamRef Absent) {
  const Expr *E = arg(CE, Index);
  return E ? streamRef(E) : Absent;
}

TensorRef Lowering::tensorRef(const Expr *E) {
  E = stripValue(E, Table);
  if (!E)
    return {};
  if (std::optional<TensorRef> Element = containerTensorRef(E))
    return *Element;
  TensorRef R;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      R = TensorRef::var(varOf(V));
    else if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()))
      // auto [a, b] = pair: a names what its holding variable was bound to.
      R = B->getHoldingVar() ? TensorRef::var(varOf(B->getHoldingVar()))
                             : TensorRef::var(varOf(B));
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (VarId Caller = callerField(ME); Caller != NoVar)
      R = TensorRef::var(Caller);
    else if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      R = TensorRef::var(varOf(FD));
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && MC->getMethodDecl() &&
             Table.classify(MC->getImplicitObjectArgument()->getType()) ==
                 ValueClass::Tensor &&
             methodResultAliasesObject(
                 Table.lookup(MC->getMethodDecl()).Effect)) {
    R = tensorRef(MC->getImplicitObjectArgument());
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
             isPieceList(OC->getArg(0))) {
    R = tensorRef(OC->getArg(0)); // pieces[i]
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getNumArgs() >= 1 &&
             isa_and_nonnull<CXXMethodDecl>(OC->getCalleeDecl()) &&
             Table.classify(OC->getArg(0)->getType()) == ValueClass::Tensor) {
    R = tensorRef(OC->getArg(0)); // t[i], t += u, t = u
  } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
    ApiEffect Effect = Table.lookup(CE->getDirectCallee()).Effect;
    if (auto It = Inlined.Results.find(CE); It != Inlined.Results.end())
      R = TensorRef{TensorRef::Var, It->second, NoVar, {}};
    else if (CE->getNumArgs() > 0 && (Effect == ApiEffect::AtenInPlace ||
                                      Effect == ApiEffect::AtenOutFirst))
      R = tensorRef(CE->getArg(0));
    else if (CE->getNumArgs() > 0 && Effect == ApiEffect::AtenOutLast)
      R = tensorRef(CE->getArg(CE->getNumArgs() - 1));
    else
      R = TensorRef::result(objectOf(CE));
  }
  R.Named = tensorName(E);
  if (R.K == TensorRef::Var)
    R.Part = regionOf(E);
  return R;
}

VarId Lowering::callerField(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *Base =
      dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *Object = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
  const auto *P = dyn_cast_or_null<ParmVarDecl>(Object);
  // `for (auto &b : buckets)` of a parameter or of the object's member: b
  // is the caller's object too.
  const Expr *Container = nullptr;
  if (Object && !P && Parents)
    for (const Stmt *S = ME; S; S = Parents->getParent(S))
      if (const auto *FR = dyn_cast<CXXForRangeStmt>(S);
          FR && FR->getLoopVariable() == Object) {
        const Expr *Range = FR->getRangeInit()->IgnoreParenImpCasts();
        if (const auto *R = dyn_cast<DeclRefExpr>(Range))
          P = dyn_cast<ParmVarDecl>(R->getDecl());
        else if (const auto *M = dyn_cast<MemberExpr>(Range);
                 M && isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
          Container = M;
        break;
      }
  // The analysed function's own (not a helper's run in place), an object
  // whose field is a tensor.
  if (!FD || (!P && !Container) || !analysedRoot() ||
      (P && P->getDeclContext() != Root) ||
      Table.classify(FD->getType()) != ValueClass::Tensor ||
      Table.classify(Object->getType()) != ValueClass::None)
    return NoVar;
  auto [It, New] = CallerFieldVars.try_emplace({Object, FD}, NoVar);
  if (New) {
    Variable V;
    V.Name = Object->getNameAsString() + "." + FD->getNameAsString();
    V.Class = VarClass::Tensor;
    V.Decl = FD;
    IR.Vars.push_back(std::move(V));
    It->second = static_cast<VarId>(IR.Vars.size() - 1);
    CallerFields.push_back(
        {It->second,
         P ? site(SiteKind::ParamReady, P->getLocation(), nullptr, P)
           : site(SiteKind::ParamReady, Container)});
  }
  return It->second;
}

VarId Lowering::tensorName(const Expr *E) {
  for (const Expr *Cur = stripValue(E, Table); Cur;) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(Cur))
      return varOf(DR->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(Cur)) {
      VarId Caller = callerField(ME);
      return Caller != NoVar ? Caller : varOf(ME->getMemberDecl());
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Cur);
        MC && MC->getMethodDecl() &&
        Table.classify(MC->getImplicitObjectArgument()->getType()) ==
            ValueClass::Tensor &&
        Table.lookup(MC->getMethodDecl()).Effect == ApiEffect::TensorView) {
      Cur = stripValue(MC->getImplicitObjectArgument(), Table);
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cur);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        (isPieceList(OC->getArg(0)) ||
         Table.classify(OC->getArg(0)->getType()) == ValueClass::Tensor)) {
      Cur = stripValue(OC->getArg(0), Table); // pieces[i], t[i]
      continue;
    }
    break;
  }
  return NoVar;
}

StreamRef Lowering::streamRef(const Expr *E) {
  E = streamOperand(E, Table);
  if (!E)
    return StreamRef::unknown();
  switch (streamLiteral(E)) {
  case StreamLiteral::Null:
  case StreamLiteral::Legacy:
    return StreamRef::legacy();
  case StreamLiteral::PerThread:
    // cudaStreamPerThread: the thread's own default stream, one stream for
    // every spelling of it (the analysis follows one thread at a time).
    return {StreamRef::Other, objectOf(&PerThreadKey), NoVar};
  case StreamLiteral::Other:
    return {StreamRef::Other, objectOf(E), NoVar};
  case StreamLiteral::NotLiteral:
    break;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    switch (streamCallEffect(CE, Table)) {
    case ApiEffect::CurrentStream:
      // getCurrentCUDAStream(1): the current stream of device 1.
      if (CE->getNumArgs() == 1)
        if (std::optional<int8_t> D = deviceIndexOf(CE->getArg(0)))
          return StreamRef::currentOf(*D);
      return StreamRef::queried();
    case ApiEffect::ConfiguredCurrentStream:
      return StreamRef::queried();
    case ApiEffect::StreamFromPool: {
      // getStreamFromPool(priority, 1): a stream of device 1.
      StreamRef R{StreamRef::Pool, objectOf(CE), NoVar};
      if (const Expr *Device = arg(CE, 1))
        if (std::optional<int8_t> D = deviceIndexOf(Device); D && *D >= 0)
          R.Device = *D;
      return R;
    }
    case ApiEffect::DefaultStream:
      return StreamRef::legacy();
    case ApiEffect::ExternalStream: {
      // getStreamFromExternal(raw, device): the stream the raw handle came
      // from, when it is known (CUDAStream::stream() of a pool stream, a
      // parameter); otherwise a stream of its own.
      StreamRef Raw =
          CE->getNumArgs() ? streamRef(CE->getArg(0)) : StreamRef::unknown();
      if (Raw.K != StreamRef::Unknown)
        return Raw;
      return {StreamRef::Other, objectOf(CE), NoVar};
    }
    default:
      return StreamRef::unknown();
    }
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return StreamRef::var(varOf(V));
    return StreamRef::unknown();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // A member the class only ever gives fresh streams is a variable of
    // its own kind (varOf); any other member is a stream of its own, named
    // by the member in the messages.
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (FD && Held && Held->held(FD).Proof != StreamProof::None)
      return StreamRef::var(varOf(FD));
    return {StreamRef::Other, objectOf(ME->getMemberDecl()),
            FD ? varOf(FD) : NoVar};
  }
  return StreamRef::unknown();
}

VarId Lowering::eventVar(const Expr *E) {
  if (!E)
    return NoVar;
  E = stripValue(E, Table);
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E))
    E = stripValue(UO->getSubExpr(), Table); // cudaEventRecord(&e) styles
  // `work->wait()`: the handle behind intrusive_ptr's operator->.
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
    E = stripValue(OC->getArg(0), Table);
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return varOf(V);
  // An event member of this object (`ready_`, `this->ready_`): followed from
  // its first record in the function, as a local is. Another object's
  // member is not: two objects would share one variable.
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return varOf(FD);
  return NoVar;
}

const Expr *Lowering::tensorBehindPointer(const Expr *E) {
  E = stripValue(E, Table);
  if (const auto *CS = dyn_cast_or_null<CStyleCastExpr>(E))
    E = stripValue(CS->getSubExpr(), Table);
  // float *p = t.data_ptr<float>(); ... kernel<<<..>>>(p): a local pointer
  // initialised from a tensor's data (the usual extension-code shape). A
  // pointer assigned again later is not followed.
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
        V->getType()->isPointerType() && V->getInit() &&
        !isa<DeclRefExpr>(stripValue(V->getInit(), Table)))
      return tensorBehindPointer(V->getInit());
    // auto acc = t.accessor<float, 2>(): a host view of the tensor's
    // memory, read and written through acc[i][j].
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
        V->getType()->isRecordType() && V->getInit())
      if (const auto *MC =
              dyn_cast<CXXMemberCallExpr>(stripValue(V->getInit(), Table));
          MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
          MC->getMethodDecl()->getName() == "accessor" &&
          Table.classify(MC->getImplicitObjectArgument()->getType()) ==
              ValueClass::Tensor)
        return MC->getImplicitObjectArgument();
    // A pointer parameter: the tensor a caller running this body in place
    // bound it to (nothing, when the function is analysed on its own).
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
        P && P->getType()->isPointerType() &&
        !P->getType()->getPointeeType()->isRecordType())
      return DR;
  }
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!MC || !MC->getMethodDecl())
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (Table.classify(Obj->getType()) == ValueClass::Tensor)
    return Table.lookup(MC->getMethodDecl()).Effect ==
                   ApiEffect::TensorRawPointer
               ? Obj
               : nullptr;
  // t.storage().data_ptr()
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (MD->getIdentifier() && MD->getName() == "data_ptr")
    if (const auto *Inner = dyn_cast<CXXMemberCallExpr>(stripValue(Obj, Table)))
      if (Inner->getMethodDecl() && Inner->getMethodDecl()->getIdentifier() &&
          Inner->getMethodDecl()->getName() == "storage" &&
          Table.classify(Inner->getImplicitObjectArgument()->getType()) ==
              ValueClass::Tensor)
        return Inner->getImplicitObjectArgument();
  return nullptr;
}

void Lowering::collectTensors(const Expr *E,
                              llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!E)
    return;
  if (Table.classify(E->getType()) == ValueClass::Tensor || isPieceList(E) ||
      containerOf(E)) {
    Out.push_back(E);
    return;
  }
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return collectTensors(M->getSubExpr(), Out);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return collectTensors(B->getSubExpr(), Out);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return collectTensors(F->getSubExpr(), Out);
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    return collectTensors(IL->getSubExpr(), Out);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : IL->inits())
      collectTensors(Init, Out);
    return;
  }
  // TensorList / ArrayRef<Tensor> / std::vector<Tensor> built from a list.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    for (const Expr *Arg : CE->arguments())
      collectTensors(Arg, Out);
}

// `for (...) { if (i > 0) ev.block(s); ...; ev.record(); }`: the wait sees
// the previous iteration's record; its first-iteration path is guarded by a
// condition the analysis does not follow. Not reported (precision first).
bool Lowering::recordedLaterInLoop(const Stmt *Wait, VarId Event) {
  const Stmt *Loop = nullptr;
  for (const Stmt *P = Parents->getParent(Wait); P && !Loop;
       P = Parents->getParent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      Loop = P;
  if (!Loop)
    return false;
  std::function<bool(const Stmt *)> Records = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE->getDirectCallee()) {
      const ApiEntry &A = Table.lookup(CE->getDirectCallee());
      const Expr *Recorded = nullptr;
      if (A.Effect == ApiEffect::EventRecord ||
          A.Effect == ApiEffect::ConfiguredEventRecord) {
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
          Recorded = MC->getImplicitObjectArgument();
      } else if (A.Effect == ApiEffect::RawEventRecord) {
        Recorded = arg(CE, A.Event);
      }
      if (Recorded && eventVar(Recorded) == Event)
        return true;
    }
    for (const Stmt *C : S->children())
      if (Records(C))
        return true;
    return false;
  };
  return Records(Loop);
}

// `float *p = h.data_ptr<float>();` only takes an address; the read is the
// later dereference, which the analysis does not follow (silent).
bool Lowering::pointerKeptForLater(const Stmt *Call) const {
  const Stmt *P = Parents->getParent(Call);
  while (P &&
         isa<ImplicitCastExpr, ParenExpr, CXXStaticCastExpr, CStyleCastExpr>(P))
    P = Parents->getParent(P);
  if (isa_and_nonnull<DeclStmt>(P))
    return true;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
  return BO && BO->isAssignmentOp();
}

} // namespace streamsafe
