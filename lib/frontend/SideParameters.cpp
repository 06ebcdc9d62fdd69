//===--- SideParameters.cpp - Stream parameters used as side streams ------===//

#include "lib/frontend/SideParameters.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/ValueExprs.h"
#include "lib/lower/SideParameters.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace streamsafe {

namespace {

using lower::StreamRole;
using lower::StreamUse;

/// Reads \p FD's own body (lambdas aside) into the records of the shared
/// rule (lib/lower/SideParameters.h), for one stream parameter.
class SideUseReader : public RecursiveASTVisitor<SideUseReader> {
public:
  SideUseReader(const ParmVarDecl &P, ApiTable &Table) : P(P), Table(Table) {}

  llvm::SmallVector<StreamUse, 8> Uses;
  bool Rebound = false;

  // A lambda's body may run elsewhere, on another thread.
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
    ValueClass C = RD ? Table.classify(RD) : ValueClass::None;
    if (C != ValueClass::StreamGuard && C != ValueClass::OptionalGuard)
      return true;
    unsigned I = Table.guardStreamParameter(RD);
    if (I < CE->getNumArgs())
      add(StreamUse::Enter, role(CE->getArg(I), StreamRole::Other), CE);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    Rebound |= BO->isAssignmentOp() && names(BO->getLHS());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE))
      Rebound |= Op->getOperator() == OO_Equal && Op->getNumArgs() > 0 &&
                 names(Op->getArg(0));
    const ApiEntry &A = Table.lookup(CE->getDirectCallee());
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
    switch (A.Effect) {
    case ApiEffect::SetCurrentStream:
    case ApiEffect::ConfiguredSetCurrent:
      add(StreamUse::Enter, role(arg(CE, 0), StreamRole::Other), CE);
      break;
    case ApiEffect::GuardResetStream:
      add(StreamUse::Enter, role(arg(CE, A.Stream), StreamRole::Other), CE);
      break;
    case ApiEffect::EventRecord:
    case ApiEffect::ConfiguredEventRecord:
      add(StreamUse::RecordEvent, role(arg(CE, A.Stream), StreamRole::Current),
          CE, eventOf(Obj));
      break;
    case ApiEffect::RawEventRecord:
      add(StreamUse::RecordEvent, role(arg(CE, A.Stream), StreamRole::Other),
          CE, eventOf(arg(CE, A.Event)));
      break;
    case ApiEffect::EventBlock:
    case ApiEffect::ConfiguredEventWait:
      add(StreamUse::WaitEvent, role(arg(CE, A.Stream), StreamRole::Current),
          CE, eventOf(Obj));
      break;
    case ApiEffect::StreamWaitEvent:
      add(StreamUse::WaitEvent, role(Obj, StreamRole::Other), CE,
          eventOf(arg(CE, A.Event)));
      break;
    case ApiEffect::RawStreamWaitEvent:
      add(StreamUse::WaitEvent, role(arg(CE, A.Stream), StreamRole::Other), CE,
          eventOf(arg(CE, A.Event)));
      break;
    default:
      break;
    }
    return true;
  }

private:
  void add(StreamUse::Kind K, StreamRole R, const Stmt *At,
           const ValueDecl *Event = nullptr) {
    StreamUse U;
    U.K = K;
    U.Stream = R;
    U.Event = reinterpret_cast<uintptr_t>(Event);
    U.At = At;
    Uses.push_back(U);
  }

  static const Expr *arg(const CallExpr *CE, int Index) {
    if (Index < 0 || unsigned(Index) >= CE->getNumArgs() ||
        isa<CXXDefaultArgExpr>(CE->getArg(Index)))
      return nullptr;
    return CE->getArg(Index);
  }

  bool names(const Expr *E) const {
    const auto *DR = dyn_cast_or_null<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == &P;
  }

  bool isParameter(const Expr *E) const {
    const auto *DR =
        dyn_cast_or_null<DeclRefExpr>(E ? streamOperand(E, Table) : nullptr);
    return DR && DR->getDecl() == &P;
  }

  /// \p Absent: what an omitted stream argument means.
  StreamRole role(const Expr *E, StreamRole Absent) const {
    if (!E)
      return Absent;
    if (isParameter(E))
      return StreamRole::Parameter;
    return isCurrentStream(E, Table) ? StreamRole::Current : StreamRole::Other;
  }

  /// The event variable or member an event operand names (`ev`, `&ev`,
  /// `ev_`), or null.
  const ValueDecl *eventOf(const Expr *E) const {
    if (!E)
      return nullptr;
    E = stripValue(E, Table);
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(E))
      E = stripValue(U->getSubExpr(), Table);
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
      return DR->getDecl();
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
      return ME->getMemberDecl();
    return nullptr;
  }

  const ParmVarDecl &P;
  ApiTable &Table;
};

} // namespace

const Stmt *sideStreamUse(const FunctionDecl &FD, const ParmVarDecl &P,
                          ApiTable &Table,
                          llvm::function_ref<bool()> GivenCurrent) {
  if (!FD.getBody())
    return nullptr;
  SideUseReader Reader(P, Table);
  Reader.TraverseStmt(FD.getBody());
  lower::ParameterFacts Facts;
  Facts.Defaulted = P.hasDefaultArg();
  Facts.Rebound = Reader.Rebound;
  const StreamUse *Use = lower::sideStreamUse(Reader.Uses, Facts, GivenCurrent);
  return Use ? static_cast<const Stmt *>(Use->At) : nullptr;
}

} // namespace streamsafe
