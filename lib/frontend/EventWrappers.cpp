//===--- EventWrappers.cpp - Hand-written event classes -------------------===//

#include "lib/frontend/EventWrappers.h"
#include "lib/frontend/MemberCode.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe {

namespace {

constexpr int8_t CurrentStream = -1;
constexpr int8_t NoStream = -2; ///< a stream the model cannot name here

/// The parameter of \p M that \p E is (through accessors such as
/// CUDAStream::stream()), CurrentStream for getCurrentCUDAStream(), else
/// NoStream.
int8_t streamOperand(const Expr *E, const CXXMethodDecl &M, ApiLookup &Table) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = stripValue(E, Table);
    if (const auto *Cast = dyn_cast_or_null<CastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    const auto *CE = dyn_cast_or_null<CallExpr>(E);
    if (!CE)
      break;
    ApiEffect Effect = Table.lookup(CE->getDirectCallee()).Effect;
    if (Effect == ApiEffect::CurrentStream ||
        Effect == ApiEffect::ConfiguredCurrentStream)
      return CurrentStream;
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    if (!MC || Effect != ApiEffect::StreamIdentity)
      return NoStream;
    E = MC->getImplicitObjectArgument();
  }
  const auto *DR = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (P && P->getDeclContext() == &M && P->getFunctionScopeIndex() < 64)
    return static_cast<int8_t>(P->getFunctionScopeIndex());
  return NoStream;
}

/// What one call does to an event field of the class: the wrapper effect
/// and its stream operand; None when the call is about no event field.
struct EventUse {
  ApiEffect Effect = ApiEffect::None;
  int8_t Stream = CurrentStream;
};

EventUse useOf(const CallExpr *CE, const CXXMethodDecl &M, ApiLookup &Table) {
  const ApiEntry &A = Table.lookup(CE->getDirectCallee());
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  auto StreamAt = [&](int I) -> int8_t {
    if (I < 0 || static_cast<unsigned>(I) >= CE->getNumArgs() ||
        isa<CXXDefaultArgExpr>(CE->getArg(I)))
      return CurrentStream;
    return streamOperand(CE->getArg(I), M, Table);
  };
  auto RawStreamAt = [&](int I) -> int8_t {
    // cudaEventRecord(ev) records on the legacy stream: not a parameter.
    if (I < 0 || static_cast<unsigned>(I) >= CE->getNumArgs() ||
        isa<CXXDefaultArgExpr>(CE->getArg(I)))
      return NoStream;
    return streamOperand(CE->getArg(I), M, Table);
  };
  const Expr *Event = nullptr;
  EventUse U;
  switch (A.Effect) {
  case ApiEffect::EventRecord:
  case ApiEffect::EventBlock:
    Event = MC ? MC->getImplicitObjectArgument() : nullptr;
    U = {A.Effect == ApiEffect::EventRecord ? ApiEffect::ConfiguredEventRecord
                                            : ApiEffect::ConfiguredEventWait,
         StreamAt(A.Stream)};
    break;
  case ApiEffect::EventSynchronize:
    Event = MC ? MC->getImplicitObjectArgument() : nullptr;
    U = {ApiEffect::ConfiguredEventSync, CurrentStream};
    break;
  case ApiEffect::RawEventRecord:
  case ApiEffect::RawStreamWaitEvent:
    if (A.Event >= 0 && static_cast<unsigned>(A.Event) < CE->getNumArgs())
      Event = CE->getArg(A.Event);
    U = {A.Effect == ApiEffect::RawEventRecord
             ? ApiEffect::ConfiguredEventRecord
             : ApiEffect::ConfiguredEventWait,
         RawStreamAt(A.Stream)};
    break;
  case ApiEffect::RawEventSynchronize:
    if (A.Event >= 0 && static_cast<unsigned>(A.Event) < CE->getNumArgs())
      Event = CE->getArg(A.Event);
    U = {ApiEffect::ConfiguredEventSync, CurrentStream};
    break;
  default:
    return {};
  }
  const FieldDecl *F = thisField(Event, Table);
  if (!F)
    return {};
  ValueClass C = Table.classify(F->getType());
  if (C != ValueClass::Event && C != ValueClass::RawEvent)
    return {};
  return U;
}

} // namespace

std::optional<WrapperMethods> eventWrapperMethods(const CXXRecordDecl &Class,
                                                  ApiLookup &Table) {
  const CXXRecordDecl *RD = Class.getDefinition();
  if (!RD || RD->isLambda() || RD->isDependentContext())
    return std::nullopt;
  bool HoldsEvent = llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
    ValueClass C = Table.classify(F->getType());
    return C == ValueClass::Event || C == ValueClass::RawEvent;
  });
  if (!HoldsEvent)
    return std::nullopt;
  WrapperMethods Methods;
  bool Records = false, Waits = false;
  for (const CXXMethodDecl *M : RD->methods()) {
    if (M->isStatic() || isa<CXXConstructorDecl, CXXDestructorDecl>(M))
      continue;
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def))
      continue;
    const auto &MD = *cast<CXXMethodDecl>(Def);
    ApiEntry Entry{ApiEffect::ConfiguredEventOther};
    for (const CallExpr *CE : callsIn(MD.getBody(), [&](const CallExpr *C) {
           return useOf(C, MD, Table).Effect != ApiEffect::None;
         })) {
      EventUse U = useOf(CE, MD, Table);
      if (U.Stream == NoStream)
        return std::nullopt;
      if (Entry.Effect != ApiEffect::ConfiguredEventOther &&
          (Entry.Effect != U.Effect || Entry.Stream != U.Stream))
        return std::nullopt; // two different things: not one effect
      Entry.Effect = U.Effect;
      Entry.Stream = U.Stream;
    }
    Records |= Entry.Effect == ApiEffect::ConfiguredEventRecord;
    Waits |= Entry.Effect == ApiEffect::ConfiguredEventWait ||
             Entry.Effect == ApiEffect::ConfiguredEventSync;
    Methods[M->getCanonicalDecl()] = Entry;
  }
  if (!Records || !Waits)
    return std::nullopt;
  return Methods;
}

} // namespace streamsafe
