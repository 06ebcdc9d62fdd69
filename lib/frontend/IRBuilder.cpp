//===--- IRBuilder.cpp - A function's fact IR from Clang CFGs -------------===//

#include "lib/frontend/IRBuilder.h"
#include "lib/frontend/BranchConditions.h"
#include "lib/frontend/FunctionAnalysis.h"
#include "lib/frontend/Lowering.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/SideParameters.h"
#include "lib/model/Bounds.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include <deque>
#include <map>

using namespace clang;

namespace streamsafe {

namespace {

using bounds::MaxInlinedCallees;

class IRBuilder {
public:
  IRBuilder(const FunctionDecl &FD, ASTContext &Ctx, ApiTable &Table,
            ObjectStreams *Held, bool SideStreamParameters)
      : FD(FD), Ctx(Ctx), Table(Table), Held(Held),
        SideStreamParameters(SideStreamParameters),
        L(
            Ctx, Table, *IR,
            [this](const LambdaExpr &Lambda) { return bodyFor(Lambda); },
            [this](const FunctionDecl &Callee, const BoundCallables &Bound,
                   bool Thread) { return calleeBody(Callee, Bound, Thread); },
            Held) {
    enter(FD);
  }

  std::unique_ptr<Function> build() {
    IR->Name = FD.getNameAsString();
    IR->EntrySite =
        L.site(SiteKind::FunctionEntry, FD.getLocation(), nullptr, &FD);
    IR->Bodies.emplace_back();
    auto G = buildCFG(&FD, FD.getBody());
    if (!G)
      return nullptr;
    lowerBody(*G, 0);
    // The program starts on the legacy default stream: so does main(), as
    // a Python module's body does.
    if (FD.isMain()) {
      Block &Entry = IR->Bodies[0].Blocks[IR->Bodies[0].Entry];
      Entry.Facts.insert(
          Entry.Facts.begin(),
          Fact{IR->EntrySite, fact::SetCurrent{StreamRef::legacy()}});
    }
    for (const ParmVarDecl *P : FD.parameters()) {
      VarId V = L.varOf(P);
      markSideParameter(*P, IR->Vars[V]);
      IR->Vars[V].HandedOver =
          P == L.hookGradient() && IR->var(V).Class == VarClass::Tensor;
      IR->Params.push_back(V);
      IR->ParamSites.push_back(
          IR->var(V).Class == VarClass::Tensor
              ? L.site(SiteKind::ParamReady, P->getLocation(), nullptr, P)
              : NoSite);
    }
    // Fields of parameter objects: the caller's tensors, as parameters.
    for (auto [V, At] : L.callerFields()) {
      IR->Params.push_back(V);
      IR->ParamSites.push_back(At);
    }
    // Bodies run from this one, in the order they were found (each may
    // find more), each lowered in the context of the function it is in.
    while (!Pending.empty()) {
      PendingBody Next = Pending.front();
      Pending.pop_front();
      setContext(Next.Context);
      std::unique_ptr<CFG> Body;
      if (Next.Lambda)
        Body = buildCFG(Next.Lambda->getCallOperator(), Next.Lambda->getBody());
      else
        Body = buildCFG(Next.Callee, Next.Callee->getBody());
      if (Body)
        lowerBody(*Body, Next.Id);
    }
    setContext(0);
    exitSites(*G);
    return std::move(IR);
  }

private:
  /// What lowering a statement needs to know of the function it is in.
  struct Context {
    Context(const FunctionDecl &F, BoundCallables Bound)
        : Function(F), Parents(F.getBody()), Conditions(F),
          Callables(std::move(Bound)) {}
    const FunctionDecl &Function;
    ParentMap Parents;
    BranchConditions Conditions;
    BoundCallables Callables;
  };
  struct PendingBody {
    const LambdaExpr *Lambda = nullptr;
    const FunctionDecl *Callee = nullptr;
    BodyId Id = 0;
    unsigned Context = 0;
  };

  unsigned enter(const FunctionDecl &F, BoundCallables Bound = {}) {
    Contexts.push_back(std::make_unique<Context>(F, std::move(Bound)));
    unsigned Index = Contexts.size() - 1;
    setContext(Index);
    return Index;
  }
  void setContext(unsigned Index) {
    const Context &C = *Contexts[Index];
    L.setContext(C.Function, C.Parents, C.Conditions, Index, C.Callables);
  }

  std::unique_ptr<CFG> buildCFG(const Decl *D, Stmt *Body) {
    // Code that did not compile (a missing header, a recovered error) has
    // no CFG to build: clang's builder may crash on its recovery nodes.
    if (!Body || D->isInvalidDecl() ||
        (Ctx.getDiagnostics().hasErrorOccurred() &&
         (inRejectedClass(D) || hasErrors(Body))))
      return nullptr;
    CFG::BuildOptions BO;
    BO.AddImplicitDtors = true;
    BO.AddTemporaryDtors = true;
    BO.AddInitializers = true;
    BO.setAllAlwaysAdd();
    return CFG::buildCFG(D, Body, &Ctx, BO);
  }

  BodyId newBody() {
    IR->Bodies.emplace_back();
    return static_cast<BodyId>(IR->Bodies.size() - 1);
  }

  BodyId bodyFor(const LambdaExpr &Lambda) {
    auto [It, New] = Lambdas.try_emplace(&Lambda, 0);
    if (New) {
      It->second = newBody();
      Pending.push_back({&Lambda, nullptr, It->second, L.context()});
    }
    return It->second;
  }

  // A callee defined in this translation unit that uses streams, or is
  // handed a lambda, runs in place. Constructors and destructors (guards
  // are recognised from their code), virtual methods (the callee may be
  // another), lambdas (run as callables) and function templates' patterns
  // are not inlined. A callee is lowered once per set of lambdas it is
  // handed. A thread's body is lowered whatever it calls: each of its
  // tensor ops runs on the thread's own current stream.
  std::optional<BodyId> calleeBody(const FunctionDecl &Callee,
                                   const BoundCallables &Bound, bool Thread) {
    const FunctionDecl *Def = nullptr;
    // Constructors and destructors run in place only as RAII scopes
    // (Lowering::runSpecialMember): their bodies, not their member
    // initialisers.
    if (!Callee.hasBody(Def) || !Def->getBody() || Def->isDependentContext())
      return std::nullopt;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
        MD && (MD->isVirtual() || MD->getParent()->isLambda()))
      return std::nullopt;
    CalleeKey Key{Def, {Bound.begin(), Bound.end()}, Thread};
    auto It = Callees.find(Key);
    if (It != Callees.end())
      return It->second;
    std::optional<BodyId> Id;
    if (Callees.size() < MaxInlinedCallees &&
        (Thread || !Bound.empty() || mentionsStreamApis(*Def, Table) ||
         waitsForHost(*Def, Table) || sharesObjectState(*Def))) {
      Id = newBody();
      unsigned Here = L.context();
      unsigned Callee = enter(*Def, Bound);
      Pending.push_back({nullptr, Def, *Id, Callee});
      setContext(Here);
    }
    Callees[Key] = Id;
    return Id;
  }

  /// A method of a class of this unit whose methods keep stream state in
  /// its members (one forks, another joins or reads what it wrote): it
  /// runs in place even when it names no stream itself.
  bool sharesObjectState(const FunctionDecl &Def) {
    const auto *MD = dyn_cast<CXXMethodDecl>(&Def);
    if (!MD || MD->isStatic() || isa<CXXConstructorDecl>(MD) ||
        isa<CXXDestructorDecl>(MD) || MD->isOverloadedOperator())
      return false;
    const CXXRecordDecl *RD = MD->getParent();
    return Ctx.getSourceManager().isInMainFile(RD->getLocation()) &&
           !RD->isLambda() && classUsesStreams(*RD, Table);
  }

  void lowerBody(const CFG &G, BodyId Id) {
    // Lowering may add bodies: fill a local one, then move it in place.
    Body B;
    B.Blocks.resize(G.getNumBlockIDs());
    B.Entry = G.getEntry().getBlockID();
    B.Exit = G.getExit().getBlockID();
    // A body run in place (a helper, a constructor) that leaves by an
    // exception (`throw`, TORCH_CHECK's [[noreturn]] failure) does not
    // return to its call: that path is not joined into the caller's next
    // statement (a wait helper that checks its streams first still waits
    // wherever it returns). The function's own body keeps those exits.
    auto Throws = [&](const CFGBlock *Blk) {
      return Id != 0 && Blk && leavesByException(*Blk);
    };
    for (const CFGBlock *From : G) {
      Block &Out = B.Blocks[From->getBlockID()];
      for (const CFGElement &E : *From)
        L.lower(E, Out.Facts);
      for (const CFGBlock *S : From->succs())
        if (S && !(S == &G.getExit() && Throws(From)))
          Out.Succs.push_back(S->getBlockID());
      branchConditions(*From, Out);
      for (const CFGBlock *P : From->preds())
        if (P && !(From == &G.getExit() && Throws(P)))
          Out.Preds.push_back(P->getBlockID());
    }
    IR->Bodies[Id] = std::move(B);
  }

  // Whether a value of type \p T is of a class the compiler rejected (a
  // member of a type from a header it could not find): its destructor,
  // which the CFG adds, is not there to build.
  static bool invalidType(QualType T, unsigned Depth = 0) {
    return !T.isNull() && invalidRecord(T->getAsCXXRecordDecl(), Depth);
  }
  static bool invalidRecord(const CXXRecordDecl *RD, unsigned Depth = 0) {
    if (!RD)
      return false;
    if (RD->isInvalidDecl())
      return true;
    // Members of members are destroyed too (a few levels are enough: the
    // rejected member sits near the class that holds it).
    if (const CXXRecordDecl *Def = RD->getDefinition(); Def && Depth < 4)
      for (const FieldDecl *F : Def->fields())
        if (F->isInvalidDecl() || invalidType(F->getType(), Depth + 1))
          return true;
    return false;
  }

  // Whether \p S holds code the compiler could not make sense of: an
  // expression with errors, a variable or member of a rejected class.
  static bool hasErrors(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S);
        E && (E->containsErrors() || invalidType(E->getType())))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && (V->isInvalidDecl() || invalidType(V->getType())))
          return true;
    for (const Stmt *C : S->children())
      if (hasErrors(C))
        return true;
    return false;
  }

  // Whether \p D is a member function of a class the compiler rejected in
  // part (its implicit member destructors would be).
  static bool inRejectedClass(const Decl *D) {
    const auto *MD = dyn_cast<CXXMethodDecl>(D);
    return MD && invalidRecord(MD->getParent());
  }

  // Whether \p Blk ends in a throw or a call that never returns.
  static bool leavesByException(const CFGBlock &Blk) {
    if (Blk.hasNoReturnElement())
      return true;
    for (auto It = Blk.rbegin(); It != Blk.rend(); ++It)
      if (auto CS = It->getAs<CFGStmt>())
        return isa<CXXThrowExpr>(CS->getStmt());
    return false;
  }

  // A stream parameter the function enters or orders against the current
  // stream is taken to differ from it (lib/lower/SideParameters.h).
  void markSideParameter(const ParmVarDecl &P, Variable &V) {
    if (!SideStreamParameters || !Held || V.Class != VarClass::Stream)
      return;
    const Stmt *Use = sideStreamUse(
        FD, P, Table, [&] { return Held->givenCurrentStream(&P); });
    if (!Use)
      return;
    V.Proof = StreamProof::SideParameter;
    V.ProvenAt = L.site(SiteKind::StreamProven, Use);
  }

  // A two-way branch on a never-changing variable: what each edge tells.
  void branchConditions(const CFGBlock &From, Block &Out) {
    if (From.succ_size() != 2 || Out.Succs.size() != 2)
      return;
    auto [True, False] = Contexts[L.context()]->Conditions.edges(
        dyn_cast_or_null<Expr>(From.getTerminatorCondition()),
        [this](const VarDecl *V) { return L.varOf(V); },
        [this](VarId V) {
          return V != NoVar && IR->var(V).Class == VarClass::Stream;
        });
    if (True.empty() && False.empty())
      return;
    // Where each edge's condition is told, for a finding's note.
    if (const Stmt *Cond = From.getTerminatorCondition()) {
      SiteId At = L.site(SiteKind::Other, Cond);
      for (Assumption &A : True) {
        A.At = At;
        A.CondHolds = true;
      }
      for (Assumption &A : False)
        A.At = At;
    }
    // A helper's (or a lambda's) own variables: bound at each run.
    for (EdgeCondition *C : {&True, &False})
      for (Assumption &A : *C)
        A.Local = L.context() != 0;
    Out.SuccConds = {True, False};
  }

  // Where each path leaves the function: its return statement, or the end
  // of the body.
  void exitSites(const CFG &G) {
    Body &B = IR->Bodies[0];
    for (const CFGBlock *P : G.getExit().preds()) {
      if (!P)
        continue;
      const Stmt *Ret = nullptr;
      for (const CFGElement &E : *P)
        if (auto CS = E.getAs<CFGStmt>())
          if (isa<ReturnStmt>(CS->getStmt()))
            Ret = CS->getStmt();
      SourceLocation Loc = Ret ? Ret->getBeginLoc() : FD.getBody()->getEndLoc();
      B.Blocks[P->getBlockID()].ExitSite =
          L.site(SiteKind::FunctionExit, Loc, Ret);
    }
  }

  const FunctionDecl &FD;
  ASTContext &Ctx;
  ApiTable &Table;
  ObjectStreams *Held;
  bool SideStreamParameters;
  std::unique_ptr<Function> IR = std::make_unique<Function>();
  std::vector<std::unique_ptr<Context>> Contexts;
  Lowering L;
  llvm::DenseMap<const LambdaExpr *, BodyId> Lambdas;
  using CalleeKey = std::tuple<
      const FunctionDecl *,
      std::vector<std::pair<const ParmVarDecl *, const LambdaExpr *>>, bool>;
  std::map<CalleeKey, std::optional<BodyId>> Callees;
  std::deque<PendingBody> Pending;
};

} // namespace

std::unique_ptr<Function> lowerFunction(const FunctionDecl &FD, ASTContext &Ctx,
                                        ApiTable &Table, ObjectStreams *Held,
                                        bool SideStreamParameters) {
  return IRBuilder(FD, Ctx, Table, Held, SideStreamParameters).build();
}

} // namespace streamsafe
