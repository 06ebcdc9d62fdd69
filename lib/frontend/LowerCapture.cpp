//===--- LowerCapture.cpp - CUDA graph capture calls to facts -------------===//
//
// capture_begin() captures on the current stream (PyTorch's CUDAGraph asks
// getCurrentCUDAStream()); cudaStreamBeginCapture(s, mode) on s. The calls
// the runtime refuses while capturing (cudaMalloc, queries) become
// Restricted facts; the synchronising calls already are host waits.
// docs/api-model.md, section 9.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe {

namespace {

/// True when every use of the local \p V in its function is `&V` handed to
/// cudaThreadExchangeStreamCaptureMode: then only the exchanges change it,
/// and its initializer is its value before the first.
class OnlyExchanged : public RecursiveASTVisitor<OnlyExchanged> {
public:
  OnlyExchanged(const VarDecl *V, ApiLookup &Table) : V(V), Table(Table) {}
  bool VisitCallExpr(CallExpr *CE) {
    if (CE->getNumArgs() && Table.lookup(CE->getDirectCallee()).Effect ==
                                ApiEffect::CaptureModeExchange)
      if (const auto *U =
              dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
          U && U->getOpcode() == UO_AddrOf)
        Exchanged.insert(U->getSubExpr()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (R->getDecl() == V)
      Uses.push_back(R);
    return true;
  }
  bool holds() const {
    return llvm::all_of(Uses,
                        [&](const Expr *R) { return Exchanged.contains(R); });
  }

private:
  const VarDecl *V;
  ApiLookup &Table;
  llvm::SmallVector<const Expr *, 4> Uses;
  llvm::SmallPtrSet<const Expr *, 4> Exchanged;
};

} // namespace

CaptureMode Lowering::captureMode(const CallExpr *CE, int Index) const {
  const Expr *E = arg(CE, Index);
  if (!E)
    return CaptureMode::Global; // the default of capture_begin
  return modeValue(E);
}

CaptureMode Lowering::modeValue(const Expr *E) const {
  // cudaStreamCaptureModeGlobal, ...ThreadLocal, ...Relaxed are 0, 1, 2.
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return CaptureMode::Unknown;
  switch (R.Val.getInt().getExtValue()) {
  case 0:
    return CaptureMode::Global;
  case 1:
    return CaptureMode::ThreadLocal;
  case 2:
    return CaptureMode::Relaxed;
  default:
    return CaptureMode::Unknown;
  }
}

const Expr *Lowering::stripAddressOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return U->getSubExpr()->IgnoreParenImpCasts();
  return E;
}

VarId Lowering::graphVar(const Expr *E) {
  if (!E)
    return NoVar;
  // cudaStreamEndCapture(s, &graph), cudaGraphInstantiate(&exec, graph).
  return channelOf(stripAddressOf(E));
}

bool Lowering::lowerCaptureModeGuard(const VarDecl *V, const Stmt *DS,
                                     FactList &Out) {
  const Expr *Init = V->getInit();
  const auto *CE =
      Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  if (!CE || CE->getNumArgs() < 1 ||
      Table.lookup(CE->getConstructor()).Effect !=
          ApiEffect::CaptureModeExchange)
    return false;
  Capture.ModeGuards.insert(V);
  emit(Out, site(SiteKind::Other, V->getLocation(), DS, V),
       fact::CaptureModeExchange{varOf(V), modeValue(CE->getArg(0))});
  return true;
}

bool Lowering::lowerCaptureCall(const CallExpr *CE, const ApiEntry &A,
                                FactList &Out) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  // The graph: the CUDAGraph whose method it is, or the argument.
  VarId Graph = graphVar(Obj ? Obj : arg(CE, A.Graph));
  switch (A.Effect) {
  case ApiEffect::CaptureBegin: {
    fact::CaptureBegin B{streamArg(CE, A.Stream, StreamRef::current()),
                         captureMode(CE, A.Mode)};
    B.Graph = Graph;
    emit(Out, site(SiteKind::CaptureBegin, CE), B);
    return true;
  }
  case ApiEffect::GraphReplay:
    emit(Out, site(SiteKind::Other, CE),
         fact::GraphReplay{Graph,
                           streamArg(CE, A.Stream, StreamRef::current())});
    return true;
  case ApiEffect::GraphInstantiate:
    emit(Out, site(SiteKind::Other, CE),
         fact::GraphInstantiate{graphVar(arg(CE, A.Dest)), Graph});
    return true;
  case ApiEffect::ConfiguredCaptureBegin: {
    // f(stream) captures on its stream argument; f() or obj.f() on the
    // current stream. A wrapper's mode is not known.
    const Expr *S = arg(CE, 0);
    ValueClass C = S ? Table.classify(S->getType()) : ValueClass::None;
    bool HasStream = C == ValueClass::Stream || C == ValueClass::RawStream;
    emit(Out, site(SiteKind::CaptureBegin, CE),
         fact::CaptureBegin{HasStream ? streamRef(S) : StreamRef::current(),
                            CaptureMode::Unknown});
    return true;
  }
  case ApiEffect::CaptureEnd:
  case ApiEffect::ConfiguredCaptureEnd:
    emit(Out, site(SiteKind::CaptureEnd, CE),
         fact::CaptureEnd{streamArg(CE, A.Stream, StreamRef::unknown()),
                          A.Effect == ApiEffect::CaptureEnd ? Graph : NoVar});
    return true;
  case ApiEffect::RestrictedAllocation:
    emit(Out, site(SiteKind::Other, CE),
         fact::Restricted{RestrictedCall::Allocation, NoVar,
                          StreamRef::unknown()});
    return true;
  case ApiEffect::RestrictedEventQuery:
    emit(Out, site(SiteKind::Other, CE),
         fact::Restricted{RestrictedCall::EventQuery,
                          eventVar(Obj ? Obj : arg(CE, A.Event)),
                          StreamRef::unknown()});
    return true;
  case ApiEffect::CaptureModeExchange: {
    // cudaThreadExchangeStreamCaptureMode(&mode): the slot is the variable;
    // its value is read from its initializer (the engine follows the
    // exchanges after the first).
    const Expr *M = arg(CE, A.Mode);
    const Expr *Slot = M ? stripAddressOf(M) : nullptr;
    const auto *D = dyn_cast_or_null<DeclRefExpr>(Slot);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    CaptureMode Value = CaptureMode::Unknown;
    // A local written only by the exchanges: its initializer is the value.
    if (V && V->hasLocalStorage() && V->getInit())
      if (const auto *FD =
              dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
          FD && FD->getBody()) {
        OnlyExchanged Scan(V, Table);
        Scan.TraverseStmt(FD->getBody());
        if (Scan.holds())
          Value = modeValue(V->getInit());
      }
    emit(Out, site(SiteKind::Other, CE),
         fact::CaptureModeExchange{Slot ? channelOf(Slot) : NoVar, Value});
    return true;
  }
  case ApiEffect::RestrictedStreamQuery:
    emit(Out, site(SiteKind::Other, CE),
         fact::Restricted{RestrictedCall::StreamQuery, NoVar,
                          Obj ? streamRef(Obj)
                              : streamArg(CE, A.Stream, StreamRef::legacy())});
    return true;
  default:
    return false;
  }
}

} // namespace streamsafe
