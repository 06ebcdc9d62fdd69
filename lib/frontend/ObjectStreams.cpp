//===--- ObjectStreams.cpp - Streams kept in members and globals ----------===//

#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/StreamOperands.h"
#include "lib/frontend/ValueExprs.h"
#include "lib/lower/HeldStreams.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace streamsafe {

static bool isCurrentStream(const Expr *E, ApiLookup &Table, int Depth) {
  E = streamOperand(E, Table);
  if (const auto *CE = dyn_cast_or_null<CallExpr>(E)) {
    ApiEffect Effect = Table.lookup(CE->getDirectCallee()).Effect;
    return Effect == ApiEffect::CurrentStream ||
           Effect == ApiEffect::ConfiguredCurrentStream;
  }
  // auto s = getCurrentCUDAStream(); f(s);
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && Depth < 2 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
        V->getInit())
      return isCurrentStream(V->getInit(), Table, Depth + 1);
  return false;
}

bool isCurrentStream(const Expr *E, ApiLookup &Table) {
  return isCurrentStream(E, Table, 0);
}

namespace {

/// `nullptr`, `0`, `{}`: a raw stream member not yet given its stream.
bool isNullPlaceholder(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() == 0 ||
           (IL->getNumInits() == 1 && isNullPlaceholder(IL->getInit(0)));
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  return isa<CXXNullPtrLiteralExpr, GNUNullExpr, ImplicitValueInitExpr,
             CXXScalarValueInitExpr>(E);
}

/// Every write the unit's code makes to a tracked stream variable, and the
/// stream arguments that are the current stream. Keeps its own stack of
/// statements to see how each use of a variable is used.
class WriteScanner : public RecursiveASTVisitor<WriteScanner> {
  using Base = RecursiveASTVisitor<WriteScanner>;

public:
  struct Fresh {
    const Stmt *At;
    const FunctionDecl *In; ///< null: an in-class initializer
    bool InLambda;
  };
  struct VarWrites {
    llvm::SmallVector<Fresh, 2> Fresh;
    bool Other = false;
    bool NullInit = false; ///< an initializer that is only a placeholder
  };

  WriteScanner(ASTContext &Ctx, ApiLookup &Table,
               llvm::function_ref<bool(const ValueDecl *)> Tracked)
      : SM(Ctx.getSourceManager()), Table(Table), Tracked(Tracked) {}

  llvm::DenseMap<const ValueDecl *, VarWrites> Writes;
  /// Members named through a dependent expression (`this->s` in a derived
  /// template): such a use may write a member of that name of the class
  /// templates it may reach (DependentIn), or of any class (DependentAny:
  /// a base that is a template parameter).
  llvm::StringMap<llvm::SmallPtrSet<const CXXRecordDecl *, 2>> DependentIn;
  llvm::StringSet<> DependentAny;
  llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> GivenCurrent;
  llvm::DenseSet<const FunctionDecl *> ThreadBodies;

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    // System headers cannot write the project's variables.
    if (!isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (FD)
      Functions.push_back(FD);
    bool R = Base::TraverseDecl(D);
    if (FD)
      Functions.pop_back();
    return R;
  }
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    if (!S)
      return true;
    Stack.push_back(S);
    bool R = Base::TraverseStmt(S);
    Stack.pop_back();
    return R;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++Lambdas;
    bool R = Base::TraverseLambdaExpr(L);
    --Lambdas;
    return R;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && Tracked(FD))
      use(ME, FD);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    std::string Name = E->getMember().getAsString();
    QualType T = E->isImplicitAccess() ? QualType() : E->getBaseType();
    if (!T.isNull() && E->isArrow() && T->isPointerType())
      T = T->getPointeeType();
    const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
    if (!RD || !reachTemplates(RD, Name, 0))
      DependentAny.insert(Name);
    return true;
  }

  /// Adds \p RD and the class templates it derives from to the classes a
  /// dependent \p Name may name a member of; false when a base is not a
  /// class template of the unit (a template parameter).
  bool reachTemplates(const CXXRecordDecl *RD, llvm::StringRef Name,
                      unsigned Depth) {
    if (!RD || !RD->hasDefinition() || Depth > 8)
      return false;
    DependentIn[Name].insert(RD);
    for (const CXXBaseSpecifier &B : RD->bases()) {
      const auto *TST = B.getType()->getAs<TemplateSpecializationType>();
      const auto *TD = TST ? dyn_cast_or_null<ClassTemplateDecl>(
                                 TST->getTemplateName().getAsTemplateDecl())
                           : nullptr;
      const CXXRecordDecl *Base =
          TD ? TD->getTemplatedDecl() : B.getType()->getAsCXXRecordDecl();
      if (!reachTemplates(Base, Name, Depth + 1))
        return false;
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->hasGlobalStorage() && Tracked(V))
      use(DR, V);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasGlobalStorage() && V->getInit() && Tracked(V))
      initialise(V, V->getInit());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *FD) {
    if (FD->hasInClassInitializer() && FD->getInClassInitializer() &&
        Tracked(FD))
      initialise(FD, FD->getInClassInitializer());
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *CD) {
    for (const CXXCtorInitializer *I : CD->inits())
      if (const FieldDecl *FD = I->getMember();
          FD && I->isWritten() && I->getInit() && Tracked(FD))
        initialise(FD, I->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    unsigned Skip =
        isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Skip; I < CE->getNumArgs(); ++I)
      given(FD, I - Skip, CE->getArg(I));
    if (spawnsThread(Table.lookup(FD).Effect))
      threadBodies(llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
    return true;
  }
  // `Runner r{s}`, `Runner{.side = s}`: each field braces name is written;
  // one they leave out keeps its in-class initializer.
  bool VisitInitListExpr(InitListExpr *IL) {
    // The visitor walks the written form; the fields are in the semantic one.
    if (!IL->isSemanticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    const auto *RD = IL->getType()->getAsCXXRecordDecl();
    if (!RD)
      return true;
    unsigned I = RD->getNumBases();
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= IL->getNumInits())
        break;
      const Expr *Init = IL->getInit(I++);
      if (Tracked(FD) && !isa<CXXDefaultInitExpr>(Init->IgnoreImplicit()))
        assign(FD, Init, IL);
    }
    return true;
  }
  // `Runner(s)` (C++20): not read field by field; taken to change them all.
  bool VisitCXXParenListInitExpr(CXXParenListInitExpr *PL) {
    if (const auto *RD = PL->getType()->getAsCXXRecordDecl())
      for (const FieldDecl *FD : RD->fields())
        if (Tracked(FD))
          Writes[FD].Other = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      given(CE->getConstructor(), I, CE->getArg(I));
    if (isThreadClass(CE->getType()->getAsCXXRecordDecl()))
      threadBodies(llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
    return true;
  }

private:
  void threadBodies(llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *A : Args)
      if (const FunctionDecl *FD = namedFunction(A))
        ThreadBodies.insert(FD->getCanonicalDecl());
  }
  void given(const FunctionDecl *FD, unsigned Param, const Expr *Arg) {
    if (Param < FD->getNumParams() && !isa<CXXDefaultArgExpr>(Arg) &&
        isCurrentStream(Arg, Table))
      GivenCurrent.insert({FD->getCanonicalDecl(), Param});
  }

  void initialise(const ValueDecl *D, const Expr *Init) {
    if (isNullPlaceholder(Init))
      Writes[D].NullInit = true;
    else
      assign(D, Init, Init);
  }

  void assign(const ValueDecl *D, const Expr *Value, const Stmt *At) {
    const Expr *Source = streamOperand(Value, Table);
    const auto *CE = dyn_cast_or_null<CallExpr>(Source);
    if (CE &&
        Table.lookup(CE->getDirectCallee()).Effect == ApiEffect::StreamFromPool)
      return fresh(D, At);
    // A copy of the same member of another object of the class (a copy
    // constructor, `s_ = other.s_`) holds what that member holds.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Source);
        ME && ME->getMemberDecl() == D)
      return;
    Writes[D].Other = true;
  }

  void fresh(const ValueDecl *D, const Stmt *At) {
    Writes[D].Fresh.push_back(
        {At, Functions.empty() ? nullptr : Functions.back(), Lambdas > 0});
  }

  /// The statement \p Up levels above the current one, parentheses skipped.
  const Stmt *parent(unsigned &Index) const {
    while (Index > 0) {
      const Stmt *P = Stack[--Index];
      if (!isa<ParenExpr>(P))
        return P;
    }
    return nullptr;
  }

  static bool isConstRef(QualType T) {
    return T->isLValueReferenceType() && T->getPointeeType().isConstQualified();
  }

  /// True when \p Call only reads its argument \p E (a const reference
  /// parameter, or the object of a const method).
  static bool readsArgument(const CallExpr *Call, const Expr *E) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return false;
    unsigned Skip = 0;
    if (isa<CXXOperatorCallExpr>(Call))
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
        if (Call->getNumArgs() && Call->getArg(0)->IgnoreParens() == E)
          return MD->isConst();
        Skip = 1;
      }
    for (unsigned I = Skip; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->IgnoreParens() == E)
        return I - Skip < FD->getNumParams() &&
               isConstRef(FD->getParamDecl(I - Skip)->getType());
    return false;
  }

  /// Sorts one use of a tracked variable: a write (fresh or not), a read,
  /// or anything else (taken to change it).
  void use(const Expr *E, const ValueDecl *D) {
    unsigned Index = Stack.size() - 1;
    const Stmt *P = parent(Index);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == E)
      return assign(D, BO->getRHS(), BO);
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        OC->getArg(0)->IgnoreParens() == E)
      return assign(D, OC->getArg(1), OC);
    // cudaStreamCreate*(&m, ...): m is given a new stream.
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
        U && U->getOpcode() == UO_AddrOf) {
      const Stmt *Call = parent(Index);
      while (isa_and_nonnull<ImplicitCastExpr>(Call))
        Call = parent(Index);
      const auto *CE = dyn_cast_or_null<CallExpr>(Call);
      if (CE && CE->getNumArgs() && CE->getArg(0)->IgnoreParenImpCasts() == U &&
          Table.lookup(CE->getDirectCallee()).Effect == ApiEffect::StreamCreate)
        return fresh(D, CE);
      Writes[D].Other = true;
      return;
    }
    if (!reads(E, P))
      Writes[D].Other = true;
  }

  /// True when the parent \p P of a use \p E cannot change the variable.
  bool reads(const Expr *E, const Stmt *P) const {
    // Nothing writes through a const lvalue (in a const method, say).
    if (E->getType().isConstQualified())
      return true;
    if (const auto *Cast = dyn_cast_or_null<CastExpr>(P)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
      case CK_ToVoid:
        return true;
      case CK_NoOp:
        return Cast->getType().isConstQualified();
      default:
        return false;
      }
    }
    // s.stream(), s.unwrap(), the conversion operators: const methods.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      return MD && MD->isConst();
    }
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P))
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (CE->getArg(I)->IgnoreParens() == E)
          return I < CE->getConstructor()->getNumParams() &&
                 isConstRef(CE->getConstructor()->getParamDecl(I)->getType());
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
      return readsArgument(Call, E);
    return false;
  }

  const SourceManager &SM;
  ApiLookup &Table;
  llvm::function_ref<bool(const ValueDecl *)> Tracked;
  std::vector<const Stmt *> Stack;
  std::vector<const FunctionDecl *> Functions;
  unsigned Lambdas = 0;

public:
  /// True when every constructor that builds the object from scratch (not
  /// a copy or a move) gives \p D a fresh stream itself: a placeholder
  /// initializer is then never what a method sees.
  static bool everyConstructorCreates(const FieldDecl *D, const VarWrites &W) {
    const CXXRecordDecl *RD = cast<CXXRecordDecl>(D->getParent());
    bool Any = false;
    for (const CXXConstructorDecl *C : RD->ctors()) {
      if (C->isCopyOrMoveConstructor() || C->isDeleted())
        continue;
      const FunctionDecl *Def = nullptr;
      if (!C->hasBody(Def))
        return false;
      Any = true;
      if (!llvm::any_of(W.Fresh, [&](const Fresh &F) {
            return F.In == Def && !F.InLambda;
          }))
        return false;
    }
    return Any;
  }
};

/// True when every method the class declares is defined in this unit (or
/// needs no body), so the scan sees all code that could write a private
/// member.
bool allMethodsHere(const CXXRecordDecl *RD) {
  for (const CXXMethodDecl *MD : RD->methods()) {
    if (MD->isImplicit() || MD->isDeleted() || MD->isDefaulted() ||
        MD->isPureVirtual())
      continue;
    if (!MD->hasBody())
      return false;
  }
  return true;
}

} // namespace

bool ObjectStreams::trackable(const ValueDecl *D) const {
  const SourceManager &SM = Ctx.getSourceManager();
  QualType T = D->getType();
  if (T->isReferenceType() || SM.isInSystemHeader(D->getLocation()))
    return false;
  // cudaStream_t is a pointer; a pointer to a CUDAStream is not a stream.
  ValueClass C = Table.classify(T);
  if (C != ValueClass::RawStream &&
      (C != ValueClass::Stream || T->isPointerType()))
    return false;
  if (const auto *V = dyn_cast<VarDecl>(D))
    // Only code of this unit can write a static or an internal global.
    return V->hasGlobalStorage() &&
           (V->isStaticLocal() || !V->isExternallyVisible()) &&
           !V->getDeclContext()->isDependentContext();
  const auto *FD = dyn_cast<FieldDecl>(D);
  const auto *RD = FD ? dyn_cast<CXXRecordDecl>(FD->getParent()) : nullptr;
  // A class template's own fields are followed in its code (the pattern
  // every instantiation is made from, heldInInstance); an instantiation's
  // fields only in what explicitly specializes its methods (the scan does
  // not visit instantiations). Not a class nested in other templated code,
  // nor aggregates of a header (their members are set by braces, from any
  // unit); an aggregate of the main file is built only here, and the scan
  // reads its brace initialisers.
  if (!RD || !RD->hasDefinition() || RD->isUnion() || RD->isLambda())
    return false;
  if (RD->isDependentContext() && !RD->getDescribedClassTemplate())
    return false;
  if (RD->isAggregate())
    return SM.isInMainFile(RD->getLocation());
  // A class of the main file is seen by no other unit; a class of a header
  // may have methods or friends defined elsewhere, which only a private
  // member of a class whose methods are all defined here rules out.
  return SM.isInMainFile(RD->getLocation()) ||
         (FD->getAccess() == AS_private && RD->friends().empty() &&
          allMethodsHere(RD));
}

void ObjectStreams::scan() {
  Scanned = true;
  llvm::DenseMap<const ValueDecl *, bool> Known;
  auto Tracked = [&](const ValueDecl *D) {
    auto [It, New] = Known.try_emplace(D, false);
    if (New)
      It->second = trackable(D);
    return It->second;
  };
  WriteScanner S(Ctx, Table, Tracked);
  S.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto &[D, W] : S.Writes) {
    // Its writes in the unit's order, read into the rule of
    // lib/lower/HeldStreams.h.
    llvm::SmallVector<WriteScanner::Fresh, 2> Fresh(W.Fresh);
    llvm::sort(Fresh, [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(A.At->getBeginLoc(),
                                          B.At->getBeginLoc());
    });
    const auto *FD = dyn_cast<FieldDecl>(D);
    llvm::SmallVector<lower::HeldStreamWrite, 4> Writes;
    for (const WriteScanner::Fresh &F : Fresh)
      Writes.push_back({lower::StreamGiven::Fresh,
                        FD && !F.InLambda &&
                            (!F.In || (isa<CXXConstructorDecl>(F.In) &&
                                       cast<CXXMethodDecl>(F.In)->getParent() ==
                                           FD->getParent()))});
    // Another value; a null placeholder some constructor leaves (the
    // legacy default stream, not "no stream"); a global given more than
    // its one initialisation (`static auto s = getStreamFromPool();`).
    const auto *V = dyn_cast<VarDecl>(D);
    if (W.Other ||
        (FD && W.NullInit && !WriteScanner::everyConstructorCreates(FD, W)) ||
        (V && (W.NullInit || W.Fresh.size() != 1 ||
               W.Fresh.front().At != V->getInit())))
      Writes.push_back({lower::StreamGiven::Other, false});
    if (std::optional<unsigned> Note = lower::freshProof(Writes))
      Vars[D] = Fresh[*Note].At;
  }
  // A member of a template's pattern a dependent expression may name may
  // be written there; one of an instantiation written in an explicit
  // specialization of a method holds what that gives it too.
  for (auto &[D, W] : S.Writes) {
    const auto *FD = dyn_cast<FieldDecl>(D);
    if (!FD)
      continue;
    if (FD->getParent()->isDependentContext() &&
        (S.DependentAny.contains(FD->getName()) ||
         S.DependentIn.lookup(FD->getName())
             .contains(cast<CXXRecordDecl>(FD->getParent()))))
      Vars.erase(FD);
    if (isa<ClassTemplateSpecializationDecl>(FD->getParent()) &&
        (W.Other || !W.Fresh.empty()))
      Specialized.insert(FD);
  }
  GivenCurrent = std::move(S.GivenCurrent);
  ThreadBodies = std::move(S.ThreadBodies);
}

const FieldDecl *ObjectStreams::patternField(const FieldDecl *FD) const {
  // Only an instantiation of the template's code: an explicit
  // specialization of the class has code of its own.
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(FD->getParent());
  if (!Spec || Spec->getSpecializationKind() == TSK_ExplicitSpecialization ||
      Specialized.contains(FD))
    return nullptr;
  const CXXRecordDecl *Pattern = Spec->getTemplateInstantiationPattern();
  if (!Pattern)
    return nullptr;
  for (const FieldDecl *P : Pattern->fields())
    if (P->getName() == FD->getName())
      return P;
  return nullptr;
}

bool ObjectStreams::threadBody(const FunctionDecl *FD) {
  if (!Scanned)
    scan();
  return ThreadBodies.contains(FD->getCanonicalDecl());
}

HeldStream ObjectStreams::held(const ValueDecl *D) {
  if (!Scanned)
    scan();
  // A member of an instance of a class template holds what the template's
  // code gives it.
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    if (const FieldDecl *P = patternField(FD))
      D = P;
  auto It = Vars.find(D);
  if (It == Vars.end())
    return {};
  return {isa<FieldDecl>(D) ? StreamProof::Member : StreamProof::Global,
          It->second};
}

bool ObjectStreams::givenCurrentStream(const ParmVarDecl *P) {
  if (!Scanned)
    scan();
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return true;
  unsigned Index = P->getFunctionScopeIndex();
  // `void f(CUDAStream s = getCurrentCUDAStream())`, on any declaration.
  for (const FunctionDecl *R : FD->redecls())
    if (Index < R->getNumParams())
      if (const ParmVarDecl *Q = R->getParamDecl(Index);
          Q->hasDefaultArg() && !Q->hasUninstantiatedDefaultArg() &&
          !Q->hasUnparsedDefaultArg() &&
          isCurrentStream(Q->getDefaultArg(), Table))
        return true;
  // A call of a method this one overrides may land here.
  llvm::SmallVector<const FunctionDecl *, 4> Work{FD};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    if (GivenCurrent.contains({F->getCanonicalDecl(), Index}))
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(F))
      for (const CXXMethodDecl *O : MD->overridden_methods())
        Work.push_back(O);
  }
  return false;
}

} // namespace streamsafe
