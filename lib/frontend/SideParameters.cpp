//===--- SideParameters.cpp - Stream parameters used as side streams ------===//

#include "lib/frontend/SideParameters.h"
#include "lib/frontend/Lowering.h"
#include "lib/frontend/ObjectStreams.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace streamsafe {

namespace {

/// What a stream operand of an event call is, as far as this question goes.
enum class Role { Neither, Current, Parameter };

class SideUseFinder : public RecursiveASTVisitor<SideUseFinder> {
public:
  SideUseFinder(const ParmVarDecl &P, ApiTable &Table) : P(P), Table(Table) {}

  const Stmt *Found = nullptr;

  // A lambda's body may run elsewhere, on another thread.
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
    ValueClass C = RD ? Table.classify(RD) : ValueClass::None;
    if (C != ValueClass::StreamGuard && C != ValueClass::OptionalGuard)
      return true;
    unsigned I = Table.guardStreamParameter(RD);
    if (I < CE->getNumArgs() && isParameter(CE->getArg(I)))
      Found = CE;
    return !Found;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const ApiEntry &A = Table.lookup(CE->getDirectCallee());
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
    switch (A.Effect) {
    case ApiEffect::SetCurrentStream:
    case ApiEffect::ConfiguredSetCurrent:
      if (isParameter(arg(CE, 0)))
        Found = CE;
      break;
    case ApiEffect::GuardResetStream:
      if (isParameter(arg(CE, A.Stream)))
        Found = CE;
      break;
    case ApiEffect::EventRecord:
    case ApiEffect::ConfiguredEventRecord:
      Records.push_back({eventOf(Obj), role(arg(CE, A.Stream), Role::Current)});
      break;
    case ApiEffect::RawEventRecord:
      Records.push_back(
          {eventOf(arg(CE, A.Event)), role(arg(CE, A.Stream), Role::Neither)});
      break;
    case ApiEffect::EventBlock:
    case ApiEffect::ConfiguredEventWait:
      Waits.push_back(
          {eventOf(Obj), role(arg(CE, A.Stream), Role::Current), CE});
      break;
    case ApiEffect::StreamWaitEvent:
      Waits.push_back(
          {eventOf(arg(CE, A.Event)), role(Obj, Role::Neither), CE});
      break;
    case ApiEffect::RawStreamWaitEvent:
      Waits.push_back({eventOf(arg(CE, A.Event)),
                       role(arg(CE, A.Stream), Role::Neither), CE});
      break;
    default:
      break;
    }
    return !Found;
  }

  /// An event recorded on one of the two streams and waited on by the
  /// other orders them: the function takes them to differ.
  void pairEvents() {
    for (const Wait &W : Waits)
      for (const Record &R : Records)
        if (!Found && W.Event && W.Event == R.Event &&
            ((W.By == Role::Parameter && R.On == Role::Current) ||
             (W.By == Role::Current && R.On == Role::Parameter)))
          Found = W.At;
  }

private:
  struct Record {
    const ValueDecl *Event;
    Role On;
  };
  struct Wait {
    const ValueDecl *Event;
    Role By;
    const Stmt *At;
  };

  static const Expr *arg(const CallExpr *CE, int Index) {
    if (Index < 0 || unsigned(Index) >= CE->getNumArgs() ||
        isa<CXXDefaultArgExpr>(CE->getArg(Index)))
      return nullptr;
    return CE->getArg(Index);
  }

  bool isParameter(const Expr *E) const {
    const auto *DR =
        dyn_cast_or_null<DeclRefExpr>(E ? streamOperand(E, Table) : nullptr);
    return DR && DR->getDecl() == &P;
  }

  /// \p Absent: what an omitted stream argument means.
  Role role(const Expr *E, Role Absent) const {
    if (!E)
      return Absent;
    if (isParameter(E))
      return Role::Parameter;
    return isCurrentStream(E, Table) ? Role::Current : Role::Neither;
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
  llvm::SmallVector<Record, 4> Records;
  llvm::SmallVector<Wait, 4> Waits;
};

} // namespace

const Stmt *sideStreamUse(const FunctionDecl &FD, const ParmVarDecl &P,
                          ApiTable &Table) {
  if (!FD.getBody())
    return nullptr;
  SideUseFinder Finder(P, Table);
  Finder.TraverseStmt(FD.getBody());
  Finder.pairEvents();
  return Finder.Found;
}

} // namespace streamsafe
