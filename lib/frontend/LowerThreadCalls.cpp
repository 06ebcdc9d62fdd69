//===--- LowerThreadCalls.cpp - Thread starts to facts --------------------===//
//
// std::thread, std::async (unless deferred), at::launch, configured thread
// spawners and executors, and at::parallel_for where the unit's
// instantiation runs it on the intra-op pool: a Spawn of the body with its
// arguments bound (docs/api-model.md, section 7).
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/frontend/ObjectStreams.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {

// `std::ref(t)`, `std::cref(t)`: the thread gets t itself.
static const Expr *unwrapReference(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (FD && CE->getNumArgs() == 1 && FD->getDeclName().isIdentifier() &&
      (FD->getName() == "ref" || FD->getName() == "cref") &&
      isInTopNamespace(FD, "std"))
    return CE->getArg(0);
  return E;
}

void Lowering::spawn(const Stmt *At, llvm::ArrayRef<const Expr *> Args,
                     const Expr *Executor, FactList &Out) {
  for (size_t I = 0; I < Args.size(); ++I) {
    fact::Spawn S;
    llvm::SmallVector<VarId, 4> Bound;
    SiteId Start = NoSite;
    if (const LambdaExpr *L = callableOf(Args[I])) {
      S.Body = LowerBody(*L);
      Start = site(SiteKind::ThreadStart, At);
    } else if (const FunctionDecl *FD = namedFunction(Args[I])) {
      // std::thread(worker, t, s): worker's parameters get the arguments
      // that follow it (copies share the tensor's storage).
      const FunctionDecl *Def = nullptr;
      std::optional<BodyId> Body;
      if (FD->hasBody(Def))
        Body = LowerCallee(*FD, {}, /*Thread=*/true);
      if (!Body)
        return;
      S.Body = *Body;
      llvm::SmallVector<const Expr *, 4> Given;
      for (const Expr *A : Args.drop_front(I + 1))
        Given.push_back(unwrapReference(A));
      Start = site(SiteKind::ThreadStart, At);
      Bound = bindParameters(*Def, Given, Start, Out);
    } else {
      continue;
    }
    if (Executor) {
      // The executor's worker thread runs on a stream of its own, one per
      // executor object.
      S.HasExecutor = true;
      const Expr *E = stripValue(Executor, Table);
      const NamedDecl *Key = nullptr;
      if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
        Key = dyn_cast<VarDecl>(DR->getDecl());
      else if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
        Key = ME->getMemberDecl();
      if (Key) {
        S.ExecutorKnown = true;
        S.Executor = objectOf(Key);
        S.ExecutorName = varOf(Key);
      }
    } else {
      S.Joinable = joinableOf(At);
      if (S.Joinable != NoVar)
        Threads.Joinables.insert(S.Joinable);
    }
    emit(Out, Start, S);
    for (VarId V : Bound)
      emit(Out, Start, fact::Unbind{V});
    return;
  }
}

// Whether at::parallel_for, as this unit instantiates it, hands its chunks
// to the intra-op pool: ATen/Parallel-inl.h calls internal::invoke_parallel
// only under INTRA_OP_PARALLEL (OpenMP with -fopenmp, or the native
// backend), and otherwise calls the body inline.
static bool callsInvokeParallel(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def->getBody())
    return false;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = CE->getDirectCallee();
          Callee && Callee->getDeclName().isIdentifier() &&
          Callee->getName() == "invoke_parallel")
        return true;
    for (const Stmt *C : S->children())
      if (C)
        Work.push_back(C);
  }
  return false;
}

// std::launch::deferred alone (not "async | deferred").
static bool isDeferredPolicy(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DR && DR->getDecl()->getIdentifier() &&
         DR->getDecl()->getName() == "deferred";
}

bool Lowering::lowerThreadCall(const CallExpr *CE, const ApiEntry &A,
                               FactList &Out) {
  llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
  switch (A.Effect) {
  case ApiEffect::SpawnThread:
    if (!Args.empty() && isDeferredPolicy(Args.front()))
      return true; // runs on the caller at get(): no new thread
    spawn(CE, Args, nullptr, Out);
    return true;
  case ApiEffect::ConfiguredThreadSpawn:
    spawn(CE, Args, nullptr, Out);
    return true;
  case ApiEffect::ParallelLoop:
    if (callsInvokeParallel(CE->getDirectCallee())) {
      spawn(CE, Args, nullptr, Out);
      return true;
    }
    // Compiled without a parallel backend: the body runs here, inline.
    for (const Expr *Arg : Args)
      if (const LambdaExpr *L = callableOf(Arg)) {
        fact::Spawn S;
        S.Body = LowerBody(*L);
        S.InPlace = true;
        emit(Out, site(SiteKind::Other, CE), S);
        break;
      }
    return true;
  case ApiEffect::ConfiguredExecutorLaunch: {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    const Expr *Executor = MC ? MC->getImplicitObjectArgument()
                              : (Args.empty() ? nullptr : Args.front());
    spawn(CE, Args, Executor, Out);
    return true;
  }
  default:
    return false;
  }
}

} // namespace streamsafe
