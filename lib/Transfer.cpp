//===--- Transfer.cpp - What each fact does to the state ------------------===//
//
// Happens-before per tensor storage, in the spirit of PyTorch's CUDA
// sanitizer (torch/cuda/_sanitizer.py) but over symbolic streams: an access
// on stream X races with a pending write (or, for a write, a pending read) on
// a stream Y known to differ from X that was not made visible to X by an
// event record/wait pair or a host synchronisation.
//
//===----------------------------------------------------------------------===//

#include "lib/Transfer.h"
#include "lib/ApiConfig.h"
#include "lib/ApiModel.h"
#include "lib/FactBuilder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>

using namespace clang;

namespace streamsafe {

Transfer::Transfer(ASTContext &Ctx, const FunctionDecl &FD, SiteTable &Sites,
                   const ParentMap &Parents, const ApiConfig &Config)
    : Ctx(Ctx), FD(FD), Sites(Sites), Parents(Parents), Config(Config) {
  EntrySite =
      Sites.add(SiteKind::FunctionEntry, FD.getLocation(), nullptr, &FD);
}

StorageId Transfer::storageFor(const void *Key, StringRef Name, bool Decl) {
  auto It = StorageByKey.find(Key);
  if (It != StorageByKey.end())
    return It->second;
  Storages.push_back({Name.str(), Key, Decl, nullptr, {}});
  StorageId Id = static_cast<StorageId>(Storages.size() - 1);
  StorageByKey[Key] = Id;
  return Id;
}

StorageId Transfer::phiFor(const VarDecl *V) {
  // Keyed apart from V's own storage (an opaque value bound to V).
  const void *Key = reinterpret_cast<const char *>(V) + 1;
  StorageId Id = storageFor(Key, V->getName(), /*Decl=*/false);
  Storages[Id].NameVar = V;
  if (!llvm::is_contained(Storages[Id].Binders, V))
    Storages[Id].Binders.push_back(V);
  return Id;
}

void Transfer::bindVar(StreamState &S, const VarDecl *V, StorageId Id) {
  S.TensorVars.set(V, Id);
  if (!llvm::is_contained(Storages[Id].Binders, V))
    Storages[Id].Binders.push_back(V);
}

bool Transfer::held(const StreamState &S, StorageId Id, bool Owning) const {
  for (const VarDecl *V : Storages[Id].Binders) {
    const StorageId *Bound = S.TensorVars.lookup(V);
    if (Bound && *Bound == Id && !(Owning && V->getType()->isReferenceType()))
      return true;
  }
  return false;
}

StreamState Transfer::entryState() {
  StreamState S;
  S.Reachable = true;
  S.Current = StreamTable::EntryCurrent;
  S.CurrentSetAt = EntrySite;
  for (const ParmVarDecl *P : FD.parameters()) {
    ValueClass C = classifyType(P->getType());
    if (C == ValueClass::Tensor) {
      StorageId Id = storageFor(P, P->getName(), true);
      TensorState T;
      T.Escaped = true; // the caller owns it
      Access Ready;
      Ready.Site =
          Sites.add(SiteKind::ParamReady, P->getLocation(), nullptr, P);
      Ready.Stream = StreamTable::EntryCurrent;
      Ready.Mode = AccessMode::EntryReady;
      Ready.StreamSetAt = EntrySite;
      T.Writes.push_back(Ready);
      S.Tensors.set(Id, T);
      bindVar(S, P, Id);
    } else if (C == ValueClass::Stream || C == ValueClass::RawStream) {
      StreamId Id = Streams.get(StreamKind::Parameter, P);
      Streams.nameBy(Id, P);
      S.StreamVars[P] = Id;
    }
  }
  return S;
}

//===-- Evaluating operands against the state ----------------------------===//

std::optional<StorageId> Transfer::storageOf(const Expr *E,
                                             const StreamState &S) {
  E = stripValue(E);
  if (!E)
    return std::nullopt;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return std::nullopt;
    if (const StorageId *Bound = S.TensorVars.lookup(V))
      return *Bound;
    if (V->hasGlobalStorage())
      return storageFor(V, V->getName(), true);
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<FieldDecl>(ME->getMemberDecl()))
      return storageFor(ME->getMemberDecl(), ME->getMemberDecl()->getName(),
                        true);
    return std::nullopt;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (MC->getMethodDecl() &&
        classifyType(Obj->getType()) == ValueClass::Tensor) {
      TensorMethod K = classifyTensorMethod(MC->getMethodDecl()->getName());
      if (K == TensorMethod::View || K == TensorMethod::InPlace)
        return storageOf(Obj, S);
    }
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getNumArgs() >= 1 && isa<CXXMethodDecl>(OC->getCalleeDecl()) &&
      classifyType(OC->getArg(0)->getType()) == ValueClass::Tensor)
    return storageOf(OC->getArg(0), S); // t[i], t += u, t = u
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Callee && CE->getNumArgs() > 0 &&
        Callee->getDeclName().isIdentifier() &&
        (isInTopNamespace(Callee, "at") || isInTopNamespace(Callee, "torch"))) {
      AtenFunction K = classifyAtenFunction(Callee->getName());
      if (K == AtenFunction::InPlace || K == AtenFunction::OutFirst)
        return storageOf(CE->getArg(0), S);
      if (K == AtenFunction::OutLast)
        return storageOf(CE->getArg(CE->getNumArgs() - 1), S);
    }
    auto It = StorageByKey.find(CE);
    if (It != StorageByKey.end() && S.Tensors.contains(It->second))
      return It->second;
  }
  return std::nullopt;
}

std::string Transfer::tensorName(const Expr *E, std::optional<StorageId> Id) {
  for (const Expr *Cur = stripValue(E); Cur;) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(Cur))
      return DR->getDecl()->getNameAsString();
    if (const auto *ME = dyn_cast<MemberExpr>(Cur))
      return ME->getMemberDecl()->getNameAsString();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Cur);
        MC && MC->getMethodDecl() &&
        classifyTensorMethod(MC->getMethodDecl()->getName()) ==
            TensorMethod::View) {
      Cur = stripValue(MC->getImplicitObjectArgument());
      continue;
    }
    break;
  }
  if (Id && !Storages[*Id].Name.empty())
    return Storages[*Id].Name;
  return "<temporary>";
}

StreamId Transfer::streamOf(const Expr *E, const StreamState &S) {
  E = stripValue(E);
  while (E) {
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      E = stripValue(Cast->getSubExpr());
      continue;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (MC && MC->getMethodDecl() &&
        classifyCall(canonicalName(MC->getMethodDecl())) ==
            ApiEffect::StreamIdentity) {
      E = stripValue(MC->getImplicitObjectArgument());
      continue;
    }
    break;
  }
  if (!E)
    return StreamTable::Unknown;
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return StreamTable::Default;
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    // 0 is the legacy stream; cudaStreamLegacy is ((cudaStream_t)0x1).
    uint64_t V = IL->getValue().getZExtValue();
    if (V == 0 || V == 1)
      return StreamTable::Default;
    return Streams.get(StreamKind::Other, IL);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::string Name = canonicalName(CE->getDirectCallee());
    if (Config.CurrentStreamGetters.contains(Name))
      return S.Current;
    switch (classifyCall(Name)) {
    case ApiEffect::StreamFromPool:
      return Streams.get(StreamKind::Pool, CE);
    case ApiEffect::DefaultStream:
      return StreamTable::Default;
    case ApiEffect::CurrentStream:
      return S.Current;
    case ApiEffect::ExternalStream:
      return Streams.get(StreamKind::Other, CE);
    default:
      return StreamTable::Unknown;
    }
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return StreamTable::Unknown;
    auto It = S.StreamVars.find(V);
    if (It != S.StreamVars.end())
      return It->second;
    if (V->hasGlobalStorage()) {
      StreamId Id = Streams.get(StreamKind::Other, V);
      Streams.nameBy(Id, V);
      return Id;
    }
    return StreamTable::Unknown;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    StreamId Id = Streams.get(StreamKind::Other, ME->getMemberDecl());
    return Id;
  }
  return StreamTable::Unknown;
}

StreamId Transfer::factStream(const Fact &F, const StreamState &S) {
  if (F.Stream)
    return streamOf(F.Stream, S);
  if (F.LegacyStream)
    return StreamTable::Default;
  return S.Current;
}

const VarDecl *Transfer::eventVar(const Expr *E) const {
  if (!E)
    return nullptr;
  E = stripValue(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    E = stripValue(UO->getSubExpr()); // cudaEventRecord(&e) styles
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

AccessInfo Transfer::info(const Access &A) const {
  AccessInfo I;
  I.Mode = A.Mode;
  I.Site = A.Site;
  I.Stream = Streams.describe(A.Stream);
  I.StreamSetAt = A.StreamSetAt;
  I.OnCurrentStream = A.OnCurrent;
  return I;
}

//===-- Accesses ---------------------------------------------------------===//

// Two pending accesses on one stream, visible to the same streams, stay
// alike: whatever later orders or completes one does the same to the other
// (a record on their stream captures both, or, if made between them, only
// the older, which the newer then stands for). So the newer may stand for
// both. Lists are folded so only when they grow long (a tensor read in
// every statement of a long function with no synchronisation), which keeps
// the blamed site of ordinary code as it was.
static void compact(AccessList &L) {
  constexpr unsigned KeepUpTo = 8;
  if (L.size() <= KeepUpTo)
    return;
  // Where the stream was set (OnCurrent, StreamSetAt) only tells the
  // story; the newer access's story is the one kept.
  auto Alike = [](const Access &A, const Access &B) {
    return A.Stream == B.Stream && A.VisibleTo == B.VisibleTo &&
           A.Mode == B.Mode;
  };
  AccessList Kept;
  for (auto It = L.rbegin(); It != L.rend(); ++It)
    if (llvm::none_of(Kept, [&](const Access &K) { return Alike(*It, K); }))
      Kept.push_back(*It);
  L.assign(Kept.rbegin(), Kept.rend());
}

static void addOrReplace(AccessList &L, const Access &A) {
  for (Access &B : L)
    if (B.Site == A.Site) {
      B = A;
      return;
    }
  L.push_back(A);
  compact(L);
}

void Transfer::access(const Fact &F, StreamState &S,
                      std::vector<Finding> *Out) {
  StreamId X = factStream(F, S);
  Access A;
  A.Site = F.Site;
  A.Stream = X;
  A.Mode = F.Kind == FactKind::Read ? AccessMode::Read
           : F.Kind == FactKind::Allocate && F.AllocateOnly
               ? AccessMode::Allocate
               : AccessMode::Write;
  A.OnCurrent = !F.Stream && !F.LegacyStream;
  A.StreamSetAt = A.OnCurrent ? S.CurrentSetAt : NoSite;

  std::optional<StorageId> Id;
  if (F.Kind == FactKind::Allocate) {
    Id = storageFor(F.Tensor, "", false);
    TensorState Fresh;
    Fresh.AllocStream = F.Foreign || F.HostResult ? StreamTable::Unknown : X;
    Fresh.AllocSite = F.Site;
    Fresh.Host = F.HostResult;
    // A host result of a blocking copy is complete; of a non_blocking one,
    // the copy may still be running on X.
    if (!F.HostResult || F.Async)
      Fresh.Writes.push_back(A);
    S.Tensors.set(*Id, Fresh);
    S.Unheld.push_back(*Id); // a temporary until a variable takes it
    if (A.OnCurrent && !F.HostResult)
      threadCheck(F, S, /*Query=*/false, Out);
    return;
  }
  Id = storageOf(F.Tensor, S);
  if (!Id)
    return;
  TensorState T = S.Tensors.get(*Id);
  if (T.Host && !F.Copy) {
    // An op on a host tensor runs in host code, now.
    Fact H(F.Kind == FactKind::Read ? FactKind::HostRead : FactKind::HostWrite);
    H.Site = F.Site;
    H.Tensor = F.Tensor;
    return hostAccess(H, S, Out);
  }
  if (T.Host && F.Copy && !F.Async)
    return; // a blocking copy: the StreamSync that follows completes it
  if (A.OnCurrent)
    threadCheck(F, S, /*Query=*/false, Out);

  if (Out && X != StreamTable::Unknown) {
    const Access *Conflict = nullptr;
    auto Find = [&](const AccessList &L) {
      for (const Access &P : L)
        if (!Conflict && !P.visibleTo(X) && Streams.knownDistinct(P.Stream, X))
          Conflict = &P;
    };
    Find(T.Writes);
    if (A.Mode != AccessMode::Read)
      Find(T.Reads);
    // A parameter read in an executor's task: the framework hands inputs to
    // its streams in ways we do not see (its own events, queue order).
    if (Conflict && Conflict->Mode == AccessMode::EntryReady &&
        S.ThreadStart != NoSite &&
        Streams[S.Current].Kind == StreamKind::Executor)
      Conflict = nullptr;
    if (Conflict) {
      Finding Fi;
      Fi.Kind = FindingKind::UnsynchronizedAccess;
      Fi.Tensor = tensorName(F.Tensor, Id);
      Fi.Storage = Storages[*Id].Name.empty() ? Fi.Tensor : Storages[*Id].Name;
      Fi.Access = info(A);
      Fi.Prior = info(*Conflict);
      Out->push_back(Fi);
    }
  }

  if (A.Mode == AccessMode::Read) {
    addOrReplace(T.Reads, A);
  } else {
    T.Writes.assign(1, A);
    T.Reads.clear();
  }
  // A use on the caller's current stream or the default stream is not
  // tracked for reuse: blocks of a side stream are handed out again only to
  // work on that side stream, and requiring record_stream for the stream
  // the caller continues on would flag every correct hand-back (seed §1.3).
  StreamKind K = Streams[X].Kind;
  if (T.AllocStream != StreamTable::Unknown && K != StreamKind::EntryCurrent &&
      K != StreamKind::Default && Streams.knownDistinct(X, T.AllocStream))
    addOrReplace(T.Foreign, A);
  S.Tensors.set(*Id, std::move(T));
}

//===-- Variables and lifetimes ------------------------------------------===//

void Transfer::bind(const Fact &F, StreamState &S, std::vector<Finding> *Out) {
  const VarDecl *V = F.Var;
  switch (classifyType(V->getType(), &Config)) {
  case ValueClass::Tensor: {
    std::optional<StorageId> New;
    if (F.Value)
      New = storageOf(F.Value, S);
    if (!New) {
      // An undefined tensor, or one from code we do not model: a storage of
      // its own with nothing pending and no known allocation stream.
      New = storageFor(V, V->getName(), true);
      TensorState Opaque;
      Opaque.Escaped = true;
      S.Tensors.set(*New, Opaque);
    }
    if (Storages[*New].Name.empty()) {
      Storages[*New].Name = V->getNameAsString();
      Storages[*New].NameVar = V;
    }
    std::optional<StorageId> Old;
    if (const StorageId *Bound = S.TensorVars.lookup(V))
      Old = *Bound;
    bindVar(S, V, *New);
    if (Old && *Old != *New) {
      S.Unheld.push_back(*Old);
      release(*Old, F.Site, S, Out);
    }
    return;
  }
  case ValueClass::Stream:
  case ValueClass::RawStream: {
    StreamId Id = F.Value ? streamOf(F.Value, S) : StreamTable::Default;
    Streams.nameBy(Id, V);
    S.StreamVars[V] = Id;
    return;
  }
  case ValueClass::Event:
  case ValueClass::RawEvent: {
    // Only events born here are followed: one copied, moved or loaded from
    // elsewhere may have been recorded there.
    const auto *Init =
        F.Value ? dyn_cast<CXXConstructExpr>(F.Value->IgnoreImplicit())
                : nullptr;
    bool Fresh = !F.Value ||
                 (Init && !Init->getConstructor()->isCopyOrMoveConstructor());
    if (!Fresh || F.Kind != FactKind::Bind) {
      S.Events.erase(V);
      return;
    }
    EventState E;
    E.Declared = F.Site;
    S.Events[V] = E;
    return;
  }
  default:
    return;
  }
}

// The last reference to a storage died at \p At. If another stream may still
// use it and the allocator was not told, the block can be handed to a new
// allocation on the allocation stream while that stream still runs.
void Transfer::release(StorageId Id, SiteId At, StreamState &S,
                       std::vector<Finding> *Out) {
  if (held(S, Id, /*Owning=*/true))
    return;
  const TensorState *Found = S.Tensors.lookup(Id);
  if (!Found)
    return;
  const TensorState &T = *Found;
  if (Out && !T.Escaped && T.AllocStream != StreamTable::Unknown &&
      !T.Foreign.empty()) {
    // One finding per foreign stream, at its last use there.
    std::map<StreamId, const Access *> Last;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Access &A : T.Foreign) {
      const Access *&L = Last[A.Stream];
      if (!L ||
          SM.isBeforeInTranslationUnit(Sites[L->Site].Loc, Sites[A.Site].Loc))
        L = &A;
    }
    for (const auto &[Stream, Use] : Last) {
      Finding Fi;
      Fi.Kind = FindingKind::MissingRecordStream;
      Fi.Tensor = Storages[Id].Name.empty() ? "<temporary>" : Storages[Id].Name;
      Fi.Storage = Fi.Tensor;
      Fi.Access = info(*Use);
      Access Alloc;
      Alloc.Site = T.AllocSite;
      Alloc.Stream = T.AllocStream;
      Alloc.Mode = AccessMode::Allocate;
      Fi.Prior = info(Alloc);
      Fi.FreedAt = At;
      // Fix-it: "<t>.record_stream(<s>);" after the last use, when both
      // names are in scope there and no other stream is involved.
      const auto *StreamVar = dyn_cast_or_null<VarDecl>(Streams[Stream].Var);
      const VarDecl *TensorVar = Storages[Id].NameVar;
      const Stmt *Stmt = statementOf(Sites[Use->Site].S);
      if (Last.size() == 1 && StreamVar && TensorVar && Stmt &&
          inScopeAt(StreamVar, Stmt) && inScopeAt(TensorVar, Stmt)) {
        Fi.InsertAfter = Stmt;
        Fi.StreamVar = StreamVar->getNameAsString();
      }
      Out->push_back(Fi);
    }
  }
  S.Tensors.erase(Id);
}

const Stmt *Transfer::statementOf(const Stmt *S) const {
  // The statement directly inside a compound statement, where a new
  // statement can be inserted after it.
  const Stmt *Cur = S;
  while (Cur) {
    const Stmt *P = Parents.getParent(Cur);
    if (!P)
      return nullptr;
    if (isa<CompoundStmt>(P))
      return Cur;
    Cur = P;
  }
  return nullptr;
}

bool Transfer::inScopeAt(const VarDecl *V, const Stmt *At) const {
  if (isa<ParmVarDecl>(V))
    return V->getDeclContext() == &FD;
  // V's declaration statement must sit in a compound statement enclosing At,
  // before it.
  for (const Stmt *P = Parents.getParent(At); P; P = Parents.getParent(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    for (const Stmt *Child : CS->body()) {
      if (const auto *DS = dyn_cast<DeclStmt>(Child))
        for (const Decl *D : DS->decls())
          if (D == V)
            return true;
      if (Child == At)
        break;
    }
  }
  return false;
}

//===-- Events and synchronisation ---------------------------------------===//

void Transfer::recordEvent(const Fact &F, StreamState &S) {
  const VarDecl *V = eventVar(F.Event);
  if (!V)
    return;
  StreamId Y = factStream(F, S);
  EventState &E = S.Events[V];
  E.MustRecorded = E.MayRecorded = true;
  E.LastRecord = F.Site;
  E.Covers.clear();
  E.Snapshot.reset();
  E.CoversAll = Y == StreamTable::Unknown;
  if (E.CoversAll)
    return;
  // The record captures every access that Y has been ordered after so far.
  E.Snapshot = S.Tensors;
  E.RecordedOn = Y;
}

void Transfer::completeWhere(
    StreamState &S, llvm::function_ref<bool(StorageId, const Access &)> Done) {
  auto Needs = [&](StorageId Id, const TensorState &T) {
    ++Work;
    for (const AccessList *L : {&T.Writes, &T.Reads, &T.Foreign})
      for (const Access &A : *L)
        if (Done(Id, A))
          return true;
    return false;
  };
  auto Pending = [](const PendingSummary &Sum) { return Sum.Pending; };
  S.Tensors.updateWhere(Pending, Needs, [&](StorageId Id, TensorState &T) {
    for (AccessList *L : {&T.Writes, &T.Reads, &T.Foreign})
      L->erase(std::remove_if(L->begin(), L->end(),
                              [&](const Access &A) { return Done(Id, A); }),
               L->end());
  });
}

// `for (...) { if (i > 0) ev.block(s); ...; ev.record(); }`: the wait sees
// the previous iteration's record; its first-iteration path is guarded by a
// condition the analysis does not follow. Not reported (precision first).
bool Transfer::recordedLaterInLoop(const Fact &F, const VarDecl *Event) const {
  const Stmt *Loop = nullptr;
  for (const Stmt *P = Parents.getParent(Sites[F.Site].S); P && !Loop;
       P = Parents.getParent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      Loop = P;
  if (!Loop)
    return false;
  std::function<bool(const Stmt *)> Records = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
      if (MC->getMethodDecl() &&
          MC->getMethodDecl()->getName().contains_insensitive("record") &&
          eventVar(MC->getImplicitObjectArgument()) == Event)
        return true;
    if (const auto *CE = dyn_cast<CallExpr>(S);
        CE && CE->getNumArgs() && CE->getDirectCallee() &&
        CE->getDirectCallee()->getName().starts_with("cudaEventRecord") &&
        eventVar(CE->getArg(0)) == Event)
      return true;
    for (const Stmt *C : S->children())
      if (Records(C))
        return true;
    return false;
  };
  return Records(Loop);
}

void Transfer::waitEvent(const Fact &F, StreamState &S,
                         std::vector<Finding> *Out) {
  const VarDecl *V = eventVar(F.Event);
  StreamId X = factStream(F, S);
  auto It = V ? S.Events.find(V) : S.Events.end();
  if (Out && It != S.Events.end() && !It->second.MustRecorded &&
      !(It->second.MayRecorded && recordedLaterInLoop(F, V))) {
    // CUDA and PyTorch treat a wait on a never-recorded event as complete.
    Finding Fi;
    Fi.Kind = FindingKind::UnrecordedEventWait;
    Fi.Tensor = V->getNameAsString();
    Fi.Access.Site = F.Site;
    Fi.Access.Stream = Streams.describe(X);
    Fi.Related = It->second.Declared;
    Fi.Maybe = It->second.MayRecorded;
    Fi.Prior.Site = It->second.LastRecord;
    Out->push_back(Fi);
  }
  if (It != S.Events.end() && !It->second.MayRecorded)
    return; // never recorded: the wait is a no-op
  // An event we cannot follow, or a waiting stream we cannot name: assume
  // the wait orders everything rather than report what it may have fixed.
  if (It == S.Events.end() || X == StreamTable::Unknown || It->second.CoversAll)
    return completeWhere(S, [](StorageId, const Access &) { return true; });
  const EventState &E = It->second;
  // Only tensors with a covered access not yet visible to X change.
  auto Needs = [&](StorageId Id, const TensorState &T) {
    ++Work;
    for (const AccessList *L : {&T.Writes, &T.Reads, &T.Foreign})
      for (const Access &A : *L)
        if (E.covers({Id, A.Site}) && (!(A.VisibleTo & StreamTable::bit(X)) ||
                                       (L == &T.Foreign && X == T.AllocStream)))
          return true;
    return false;
  };
  // Only subtrees with an access not yet visible to X (or a use the
  // allocation stream may now be waiting for) can change.
  auto Unseen = [&](const PendingSummary &Sum) {
    return (Sum.NotVisibleTo & StreamTable::bit(X)) || Sum.HasForeign;
  };
  S.Tensors.updateWhere(Unseen, Needs, [&](StorageId Id, TensorState &T) {
    auto Covered = [&](const Access &A) { return E.covers({Id, A.Site}); };
    for (AccessList *L : {&T.Writes, &T.Reads})
      for (Access &A : *L)
        if (Covered(A))
          A.VisibleTo |= StreamTable::bit(X);
    // A use on another stream that the allocation stream now waits for can
    // no longer outlive the block.
    if (X == T.AllocStream)
      T.Foreign.erase(
          std::remove_if(T.Foreign.begin(), T.Foreign.end(), Covered),
          T.Foreign.end());
    else
      for (Access &A : T.Foreign)
        if (Covered(A))
          A.VisibleTo |= StreamTable::bit(X);
    for (AccessList *L : {&T.Writes, &T.Reads, &T.Foreign})
      compact(*L);
  });
}

void Transfer::collectGarbage(StreamState &S) {
  // Only the storages that lost a variable or were created since the last
  // collection can have become garbage; held() asks only their binders.
  auto Collect = [&](StorageId Id) {
    ++Work;
    if (!Storages[Id].IsDecl && !held(S, Id, /*Owning=*/false))
      S.Tensors.erase(Id);
  };
  if (S.CollectAll) {
    std::vector<StorageId> All;
    S.Tensors.forEach(
        [&](StorageId Id, const TensorState &) { All.push_back(Id); });
    llvm::for_each(All, Collect);
  } else {
    llvm::sort(S.Unheld);
    S.Unheld.erase(std::unique(S.Unheld.begin(), S.Unheld.end()),
                   S.Unheld.end());
    llvm::for_each(S.Unheld, Collect);
  }
  S.Unheld.clear();
  S.CollectAll = false;
}

void Transfer::apply(const Fact &F, StreamState &S, std::vector<Finding> *Out) {
  switch (F.Kind) {
  case FactKind::SetCurrent:
    S.Current = F.Stream ? streamOf(F.Stream, S) : StreamTable::Unknown;
    S.CurrentSetAt = F.Site;
    // Setting the entry stream back restores; anything else is pending.
    // Setting the default stream back is the common "reset" idiom; treat
    // it as a restore rather than guess what the caller had.
    S.Unrestored.clear();
    if (S.Current != StreamTable::EntryCurrent &&
        S.Current != StreamTable::Default)
      S.Unrestored.push_back(F.Site);
    return;
  case FactKind::GuardEnter: {
    if (F.Var && !S.Guards.count(F.Var))
      S.Guards[F.Var] = {S.Current, S.CurrentSetAt};
    if (F.KeepCurrent)
      return;
    S.Current = F.Stream ? streamOf(F.Stream, S) : StreamTable::Unknown;
    S.CurrentSetAt = F.Site;
    return;
  }
  case FactKind::GuardExit: {
    auto It = F.Var ? S.Guards.find(F.Var) : S.Guards.end();
    if (It == S.Guards.end())
      return;
    S.Current = It->second.Saved;
    S.CurrentSetAt = F.Site;
    S.Guards.erase(It);
    // A guard restores its device's stream, undoing any set inside it.
    if (S.Current == StreamTable::EntryCurrent)
      S.Unrestored.clear();
    return;
  }
  case FactKind::Read:
  case FactKind::Write:
  case FactKind::Allocate:
    return access(F, S, Out);
  case FactKind::Bind:
    return bind(F, S, Out);
  case FactKind::Unbind: {
    S.StreamVars.erase(F.Var);
    S.Events.erase(F.Var);
    const StorageId *Bound = S.TensorVars.lookup(F.Var);
    if (!Bound)
      return;
    StorageId Id = *Bound;
    S.TensorVars.erase(F.Var);
    S.Unheld.push_back(Id);
    return release(Id, F.Site, S, Out);
  }
  case FactKind::Escape: {
    if (F.Event) {
      if (const VarDecl *V = eventVar(F.Event))
        S.Events.erase(V);
      return;
    }
    std::optional<StorageId> Id;
    if (F.Tensor)
      Id = storageOf(F.Tensor, S);
    else if (const StorageId *Bound = S.TensorVars.lookup(F.Var))
      Id = *Bound;
    if (Id) {
      TensorState T = S.Tensors.get(*Id);
      T.Escaped = true;
      S.Tensors.set(*Id, std::move(T));
    }
    return;
  }
  case FactKind::EventRecord:
    return recordEvent(F, S);
  case FactKind::EventWait:
    return waitEvent(F, S, Out);
  case FactKind::Spawn:
    return spawn(F, S, Out);
  case FactKind::CurrentQuery:
    return threadCheck(F, S, /*Query=*/true, Out);
  case FactKind::HostRead:
  case FactKind::HostWrite:
    return hostAccess(F, S, Out);
  case FactKind::EventSync: {
    const VarDecl *V = eventVar(F.Event);
    auto It = V ? S.Events.find(V) : S.Events.end();
    if (It == S.Events.end() || It->second.CoversAll)
      return completeWhere(S, [](StorageId, const Access &) { return true; });
    EventState E = It->second;
    return completeWhere(S, [&](StorageId Id, const Access &A) {
      return E.covers({Id, A.Site});
    });
  }
  case FactKind::StreamSync: {
    if (F.IfHostInvolved) {
      auto IsHost = [&](const Expr *E) {
        std::optional<StorageId> Id = storageOf(E, S);
        const TensorState *T = Id ? S.Tensors.lookup(*Id) : nullptr;
        return T && T->Host;
      };
      if (!IsHost(F.Tensor) && !IsHost(F.Value))
        return;
    }
    StreamId Y = factStream(F, S);
    // The host saw Y drain: everything Y was ordered after is complete.
    return completeWhere(S, [&](StorageId, const Access &A) {
      return Y == StreamTable::Unknown || A.visibleTo(Y);
    });
  }
  case FactKind::DeviceSync:
    return completeWhere(S, [](StorageId, const Access &) { return true; });
  case FactKind::RecordStream: {
    std::optional<StorageId> Id = storageOf(F.Tensor, S);
    if (!Id)
      return;
    StreamId B = F.Stream ? streamOf(F.Stream, S) : StreamTable::Unknown;
    TensorState T = S.Tensors.get(*Id);
    llvm::erase_if(T.Foreign, [&](const Access &A) {
      return B == StreamTable::Unknown || A.visibleTo(B);
    });
    S.Tensors.set(*Id, std::move(T));
    return;
  }
  }
}

//===-- Threads ----------------------------------------------------------===//

// The spawner's variables, each naming what the body left it naming (a
// variable captured by reference and assigned there); the body's own
// variables are not the spawner's.
static TensorVarMap adoptBindings(const TensorVarMap &Spawner,
                                  const TensorVarMap &Body) {
  TensorVarMap Result = Spawner;
  TensorVarMap::diff(
      Spawner, Body,
      [&](const VarDecl *V, const StorageId *Mine, const StorageId *Theirs) {
        if (Mine && Theirs)
          Result.set(V, *Theirs);
      });
  return Result;
}

void Transfer::spawn(const Fact &F, StreamState &S, std::vector<Finding> *Out) {
  if (!RunBody || !F.Body)
    return;
  if (F.InPlace) {
    // Called here: same thread, same current stream; what it sets persists.
    StreamState Exit = RunBody(*F.Body, S, Out);
    if (!Exit.Reachable)
      return;
    auto Guards = std::move(S.Guards);
    TensorVarMap TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars);
    auto StreamVars = std::move(S.StreamVars);
    S = std::move(Exit);
    S.Guards = std::move(Guards);
    for (auto &[V, Id] : StreamVars)
      if (auto It = S.StreamVars.find(V); It != S.StreamVars.end())
        Id = It->second;
    S.TensorVars = std::move(TensorVars);
    S.StreamVars = std::move(StreamVars);
    S.CollectAll = true; // the body's own variables are gone
    return;
  }
  StreamState Entry = S;
  Entry.Guards.clear();
  Entry.Unrestored.clear();
  Entry.CurrentSetAt = F.Site;
  Entry.ThreadStart = F.Site;
  Entry.SpawnerStream = S.Current;
  Entry.SpawnerSetAt = S.CurrentSetAt;
  Entry.Current = StreamTable::Default; // the current stream is thread-local
  if (F.Executor) {
    // The executor's worker thread runs on the stream it bound at start.
    const Expr *E = stripValue(F.Executor);
    const void *Key = nullptr;
    const VarDecl *Named = nullptr;
    const NamedDecl *NamedField = nullptr;
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
      Key = Named = dyn_cast<VarDecl>(DR->getDecl());
    else if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
      Key = ME->getMemberDecl(), NamedField = ME->getMemberDecl();
    Entry.Current =
        Key ? Streams.get(StreamKind::Executor, Key) : StreamTable::Unknown;
    if (Named)
      Streams.nameBy(Entry.Current, Named);
    else if (NamedField)
      Streams.nameBy(Entry.Current, NamedField);
    Entry.SpawnerStream = StreamTable::Unknown;
  }
  StreamState Exit = RunBody(*F.Body, Entry, Out);
  if (!Exit.Reachable)
    return;
  // Model the body as done by the next statement: its accesses and event
  // records flow back; the spawner's stream and guards are its own.
  S.Tensors = std::move(Exit.Tensors);
  S.Events = std::move(Exit.Events);
  // Variables of the spawner that the body assigned (captured by reference).
  S.TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars);
  S.CollectAll = true;
  for (auto &[V, Id] : S.StreamVars)
    if (auto It = Exit.StreamVars.find(V); It != Exit.StreamVars.end())
      Id = It->second;
}

void Transfer::threadCheck(const Fact &F, const StreamState &S, bool Query,
                           std::vector<Finding> *Out) {
  // Work (or a getCurrentCUDAStream() call) in a thread body that still
  // runs on the default stream it started on, while its spawner had set a
  // stream of its own: the code relies on a stream the thread never had.
  if (!Out || S.ThreadStart == NoSite || S.CurrentSetAt != S.ThreadStart ||
      S.Current != StreamTable::Default || S.SpawnerSetAt == NoSite)
    return;
  SiteKind How = Sites[S.SpawnerSetAt].Kind;
  if (How != SiteKind::GuardEnter && How != SiteKind::SetCurrent)
    return;
  if (S.SpawnerStream == StreamTable::Default ||
      S.SpawnerStream == StreamTable::EntryCurrent)
    return;
  Finding Fi;
  Fi.Kind = FindingKind::ThreadCurrentStream;
  Fi.Query = Query;
  Fi.Access.Site = F.Site;
  Fi.Access.Stream = Streams.describe(StreamTable::Default);
  Fi.Prior.Stream = Streams.describe(S.SpawnerStream);
  Fi.Prior.StreamSetAt = S.SpawnerSetAt;
  Fi.Related = S.ThreadStart;
  Out->push_back(Fi);
}

//===-- Host memory ------------------------------------------------------===//

// `float *p = h.data_ptr<float>();` only takes an address; the read is the
// later dereference, which the analysis does not follow (silent).
bool Transfer::pointerStoredForLater(const Stmt *Call) const {
  const Stmt *P = Parents.getParent(Call);
  while (P &&
         isa<ImplicitCastExpr, ParenExpr, CXXStaticCastExpr, CStyleCastExpr>(P))
    P = Parents.getParent(P);
  if (isa_and_nonnull<DeclStmt>(P))
    return true;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
  return BO && BO->isAssignmentOp();
}

void Transfer::hostAccess(const Fact &F, StreamState &S,
                          std::vector<Finding> *Out) {
  if (F.Kind == FactKind::HostRead && Sites[F.Site].S) {
    const Stmt *Call = Parents.getParent(Sites[F.Site].S);
    while (
        Call &&
        isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, MemberExpr>(
            Call))
      Call = Parents.getParent(Call);
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call);
        MC &&
        classifyTensorMethod(MC->getMethodDecl()->getName()) ==
            TensorMethod::RawPointer &&
        pointerStoredForLater(MC))
      return;
  }
  std::optional<StorageId> Id = storageOf(F.Tensor, S);
  if (!Id)
    return;
  const TensorState *Found = S.Tensors.lookup(*Id);
  if (!Found || !Found->Host)
    return;
  const TensorState &T = *Found;
  // The host reads what a copy may still be writing, or writes what a copy
  // may still be reading.
  const Access *Pending = T.Writes.empty() ? nullptr : &T.Writes.front();
  if (!Pending && F.Kind == FactKind::HostWrite && !T.Reads.empty())
    Pending = &T.Reads.front();
  if (!Out || !Pending || Pending->Stream == StreamTable::Unknown)
    return;
  Finding Fi;
  Fi.Kind = FindingKind::HostReadBeforeSync;
  Fi.Tensor = tensorName(F.Tensor, Id);
  Fi.Storage = Storages[*Id].Name.empty() ? Fi.Tensor : Storages[*Id].Name;
  Fi.Access.Site = F.Site;
  Fi.Access.Mode =
      F.Kind == FactKind::HostRead ? AccessMode::Read : AccessMode::Write;
  Fi.Prior = info(*Pending);
  Out->push_back(Fi);
}

void Transfer::atExit(const StreamState &S, SiteId End,
                      std::vector<Finding> &Out) {
  for (SiteId U : S.Unrestored) {
    Finding Fi;
    Fi.Kind = FindingKind::UnrestoredCurrentStream;
    Fi.Tensor = FD.getNameAsString();
    Fi.Access.Site = U;
    Fi.Related = End;
    Out.push_back(Fi);
  }
}

//===-- Debug dump -------------------------------------------------------===//

static const char *kindName(FactKind K) {
  switch (K) {
  case FactKind::SetCurrent:
    return "set-current";
  case FactKind::GuardEnter:
    return "guard-enter";
  case FactKind::GuardExit:
    return "guard-exit";
  case FactKind::Read:
    return "read";
  case FactKind::Write:
    return "write";
  case FactKind::Allocate:
    return "allocate";
  case FactKind::Bind:
    return "bind";
  case FactKind::Unbind:
    return "unbind";
  case FactKind::Escape:
    return "escape";
  case FactKind::EventRecord:
    return "event-record";
  case FactKind::EventWait:
    return "event-wait";
  case FactKind::EventSync:
    return "event-sync";
  case FactKind::StreamSync:
    return "stream-sync";
  case FactKind::DeviceSync:
    return "device-sync";
  case FactKind::RecordStream:
    return "record-stream";
  case FactKind::Spawn:
    return "spawn";
  case FactKind::CurrentQuery:
    return "current-query";
  case FactKind::HostRead:
    return "host-read";
  case FactKind::HostWrite:
    return "host-write";
  }
  return "?";
}

void Transfer::dump(const Fact &F, const StreamState &S,
                    llvm::raw_ostream &OS) const {
  const SourceManager &SM = Ctx.getSourceManager();
  OS << "  fact " << kindName(F.Kind) << " @"
     << SM.getPresumedLineNumber(Sites[F.Site].Loc);
  if (F.Var)
    OS << " var=" << F.Var->getName();
  OS << "\n    current=" << Streams.describe(S.Current) << "\n";
  S.Tensors.forEach([&](StorageId Id, const TensorState &T) {
    OS << "    tensor "
       << (Storages[Id].Name.empty() ? "<tmp>" : Storages[Id].Name)
       << " alloc=" << Streams.describe(T.AllocStream)
       << (T.Escaped ? " escaped" : "");
    auto List = [&](const char *Name, const AccessList &L) {
      for (const Access &A : L) {
        OS << " " << Name << "@" << SM.getPresumedLineNumber(Sites[A.Site].Loc)
           << "[" << Streams.describe(A.Stream);
        for (unsigned B = 0; B < StreamTable::MaxStreams; ++B)
          if (A.VisibleTo & StreamTable::bit(B))
            OS << ", visible to " << Streams.describe(B);
        OS << "]";
      }
    };
    List("W", T.Writes);
    List("R", T.Reads);
    List("F", T.Foreign);
    OS << "\n";
  });
  for (const auto &[V, E] : S.Events)
    OS << "    event " << V->getName()
       << (E.MustRecorded  ? " recorded"
           : E.MayRecorded ? " maybe-recorded"
                           : " unrecorded")
       << " covers="
       << (E.Snapshot ? "snapshot on " + Streams.describe(E.RecordedOn)
                      : std::to_string(E.Covers.size()))
       << (E.CoversAll ? "+all" : "") << "\n";
  for (const auto &[V, G] : S.Guards)
    OS << "    guard " << V->getName() << " saved=" << Streams.describe(G.Saved)
       << "\n";
}

} // namespace streamsafe
