//===--- Containers.cpp - Local containers of tensors ---------------------===//
//
// Which local containers of tensors are followed element by element, and
// what each use of one does (Containers.h). Every reference to the
// container must be one of: push_back/emplace_back of a tensor, clear(),
// pop_back(), erase(v.begin() + k), `v = {...}`, an element (`v[i]`,
// v.at(i), front(), back(), std::get<k>(v), p.first, p.second, an element
// assigned `v[k] = t`), size()/empty()/reserve(), the range of a range-for,
// the source of a structured binding, a call argument that the callee
// cannot change (by value or const reference), a copy, a return. Anything
// else and the container is not followed.
//
// The uses are simulated in source order: while every change of the
// container runs once per declaration (nothing conditional or repeated in
// between), each position holds a known slot.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Containers.h"
#include "lib/frontend/Lowering.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>

using namespace clang;

namespace streamsafe {

namespace {

/// Every DeclRefExpr of one variable in a body.
class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  RefFinder(const VarDecl *V) : V(V) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (DR->getDecl() == V)
      Refs.push_back(DR);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (D == V)
        DeclSt = DS;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V)
        Captured = true;
    return true;
  }
  const VarDecl *V;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  const DeclStmt *DeclSt = nullptr;
  bool Captured = false;
};

std::optional<int64_t> constantIndex(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreImplicit();
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

/// Skips what does not change the object an expression denotes.
const Expr *skipUp(const Expr *E, const ParentMap &PM) {
  while (const auto *P = dyn_cast_or_null<Expr>(PM.getParent(E))) {
    if (!isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
             CXXBindTemporaryExpr, ExprWithCleanups>(P))
      break;
    E = P;
  }
  return E;
}

const Expr *strip(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const Expr *Inner = temporaryInside(E))
      E = Inner;
    else
      return E;
  }
  return E;
}

/// One use of the container, before the simulation.
struct Event {
  enum Kind {
    Add,
    Clear,
    PopBack,
    Erase,
    Reassign,
    Element,       // Index: a constant, or -1; Front/Back
    ElementAssign, // Element with a new value
    Whole,         // every element (range-for, argument, copy, return)
    Decompose,
    Ignore
  } K = Ignore;
  const void *Key = nullptr; // where the lowering finds it
  const Stmt *At = nullptr;  // where it happens, for source order
  int64_t Index = -1;
  bool Back = false;
  bool Straight = true; // runs once per declaration of the container
  bool InLoop = false;
  llvm::SmallVector<const Expr *, 4> Values;
  const void *AlsoKey = nullptr; // ElementAssign: the element expression
};

/// The parent of a copy constructor's use of its argument (`auto [a, b] =
/// p` copies p), else \p Parent.
const Stmt *copyParent(const Stmt *Parent, const ParentMap &PM) {
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Parent);
  if (!CE || CE->getNumArgs() != 1 ||
      !CE->getConstructor()->isCopyOrMoveConstructor())
    return Parent;
  return PM.getParent(skipUp(CE, PM));
}

/// True when \p V is assigned another tensor (`t = u`) in \p Body.
bool assigned(const VarDecl *V, Stmt *Body, const ParentMap &PM) {
  RefFinder F(V);
  F.TraverseStmt(Body);
  for (const DeclRefExpr *R : F.Refs) {
    const auto *OC =
        dyn_cast_or_null<CXXOperatorCallExpr>(PM.getParent(skipUp(R, PM)));
    if (OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        strip(OC->getArg(0)) == R)
      return true;
  }
  return false;
}

} // namespace

ContainerModel::ContainerModel(ASTContext &Ctx, ApiTable &Table)
    : Ctx(Ctx), Table(Table) {}
ContainerModel::~ContainerModel() = default;

static const ClassTemplateSpecializationDecl *containerSpec(QualType T) {
  const auto *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !isInTopNamespace(Spec, "std"))
    return nullptr;
  StringRef N = nameOf(Spec);
  if (N != "vector" && N != "array" && N != "pair" && N != "tuple" &&
      N != "initializer_list")
    return nullptr;
  return Spec;
}

bool ContainerModel::isContainerType(QualType T) {
  const ClassTemplateSpecializationDecl *Spec = containerSpec(T);
  if (!Spec)
    return false;
  auto IsTensor = [&](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type &&
           !A.getAsType()->isPointerType() &&
           Table.classify(A.getAsType()) == ValueClass::Tensor;
  };
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  StringRef N = nameOf(Spec);
  if (N == "pair")
    return Args.size() == 2 && IsTensor(Args[0]) && IsTensor(Args[1]);
  if (N == "tuple") {
    if (Args.size() != 1 || Args[0].getKind() != TemplateArgument::Pack ||
        Args[0].pack_size() == 0)
      return false;
    return llvm::all_of(Args[0].pack_elements(), IsTensor);
  }
  return Args.size() >= 1 && IsTensor(Args[0]);
}

// The number of elements a fixed-size container always has, if any.
static std::optional<unsigned>
fixedSize(const ClassTemplateSpecializationDecl *Spec) {
  StringRef N = nameOf(Spec);
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (N == "pair")
    return 2;
  if (N == "tuple")
    return Args[0].pack_size();
  if (N == "array" && Args.size() == 2 &&
      Args[1].getKind() == TemplateArgument::Integral &&
      Args[1].getAsIntegral().getZExtValue() <= 64)
    return unsigned(Args[1].getAsIntegral().getZExtValue());
  return std::nullopt;
}

// The tensors a braced list, a list-constructor, std::make_pair/make_tuple
// or a pair/tuple constructor of tensors gives, in order; false when \p E is
// something else (a copy of another container, a size).
static bool listElements(const Expr *E, ApiTable &Table,
                         llvm::SmallVectorImpl<const Expr *> &Out,
                         llvm::SmallVectorImpl<const void *> &Nodes) {
  E = strip(E);
  if (!E)
    return false;
  Nodes.push_back(E);
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    return listElements(IL->getSubExpr(), Table, Out, Nodes);
  auto AllTensors = [&](llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *A : Args) {
      if (Table.classify(A->getType()) != ValueClass::Tensor ||
          A->getType()->isPointerType())
        return false;
      Out.push_back(A);
    }
    return true;
  };
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->getNumInits() == 1 && !IL->getInit(0)->getType().isNull() &&
        Table.classify(IL->getInit(0)->getType()) == ValueClass::None)
      return listElements(IL->getInit(0), Table, Out, Nodes); // array{{a, b}}
    return AllTensors(llvm::ArrayRef(IL->getInits(), IL->getNumInits()));
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // Defaulted arguments (an allocator) are not elements.
    unsigned N = 0;
    while (N < CE->getNumArgs() && !isa<CXXDefaultArgExpr>(CE->getArg(N)))
      ++N;
    if (N == 0)
      return true;
    if (N == 1 &&
        isa<CXXStdInitializerListExpr, InitListExpr>(strip(CE->getArg(0))))
      return listElements(CE->getArg(0), Table, Out, Nodes);
    if (CE->getConstructor()->isCopyOrMoveConstructor())
      return false;
    return AllTensors(llvm::ArrayRef(CE->getArgs(), N));
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef N = nameOf(FD);
    if (FD && isInTopNamespace(FD, "std") &&
        (N == "make_pair" || N == "make_tuple"))
      return AllTensors(llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
  }
  return false;
}

void ContainerModel::prepare(const FunctionDecl &F) {
  if (!F.getBody() || !Prepared.insert(&F).second)
    return;
  struct Locals : RecursiveASTVisitor<Locals> {
    bool shouldVisitLambdaBody() const { return true; }
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V))
        Found.push_back(V);
      return true;
    }
    llvm::SmallVector<const VarDecl *, 8> Found;
  } L;
  L.TraverseStmt(F.getBody());
  for (const VarDecl *V : L.Found)
    if (!V->getType()->isReferenceType() && isContainerType(V->getType()))
      info(V);
}

const ContainerInfo *ContainerModel::info(const VarDecl *V) {
  if (!V)
    return nullptr;
  auto [It, New] = Infos.try_emplace(V);
  if (New)
    It->second = std::make_unique<ContainerInfo>(compute(V));
  return It->second->M == ContainerInfo::Lost ? nullptr : It->second.get();
}

ContainerInfo ContainerModel::compute(const VarDecl *V) {
  ContainerInfo Info;
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType() || !isContainerType(V->getType()))
    return Info;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return Info;
  RefFinder Finder(V);
  Finder.TraverseStmt(Body);
  if (!Finder.DeclSt || Finder.Captured)
    return Info;
  ParentMap PM(Body);
  const Stmt *Scope = PM.getParent(Finder.DeclSt);
  const ClassTemplateSpecializationDecl *Spec = containerSpec(V->getType());

  // Whether \p S runs once per declaration, and whether it may repeat.
  auto Placement = [&](const Stmt *S, Event &E) {
    for (const Stmt *P = PM.getParent(S); P && P != Scope;
         P = PM.getParent(P)) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
        E.Straight = false, E.InLoop = true;
      else if (isa<IfStmt, SwitchStmt, ConditionalOperator,
                   BinaryConditionalOperator, CXXTryStmt, CXXCatchStmt>(P))
        E.Straight = false;
      else if (const auto *BO = dyn_cast<BinaryOperator>(P);
               BO && BO->isLogicalOp())
        E.Straight = false;
      else if (isa<LambdaExpr>(P))
        return false;
    }
    return true;
  };
  auto IsRefTo = [&](const Expr *E, const DeclRefExpr *R) {
    return strip(E) == R;
  };

  std::vector<Event> Events;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Done;
  // An element expression: plain, or assigned a new tensor.
  auto ElementAt = [&](const Expr *Elem, int64_t Index, bool Back) {
    Event E;
    E.K = Event::Element;
    E.Key = Elem;
    E.At = Elem;
    E.Index = Index;
    E.Back = Back;
    const Expr *Up = skipUp(Elem, PM);
    if (const auto *OC =
            dyn_cast_or_null<CXXOperatorCallExpr>(PM.getParent(Up));
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        strip(OC->getArg(0)) == Elem) {
      if (Table.classify(OC->getArg(1)->getType()) != ValueClass::Tensor)
        return false;
      E.K = Event::ElementAssign;
      E.AlsoKey = Elem;
      E.Key = OC;
      E.At = OC;
      E.Values.push_back(OC->getArg(1));
    }
    Events.push_back(std::move(E));
    return true;
  };

  for (const DeclRefExpr *R : Finder.Refs) {
    if (Done.count(R))
      continue;
    const Expr *Up = skipUp(R, PM);
    const Stmt *Parent = PM.getParent(Up);
    // v.push_back(t): the callee is a member expression on v.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Parent))
      if (const auto *MC =
              dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(ME));
          MC && MC->getCallee()->IgnoreParens() == ME)
        Parent = MC;
    Event E;
    E.At = R;
    if (!Placement(R, E))
      return Info;
    bool Ok = false;
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Parent);
        MC && IsRefTo(MC->getImplicitObjectArgument(), R)) {
      StringRef N = nameOf(MC->getMethodDecl());
      E.Key = E.At = MC;
      Ok = true;
      if ((N == "push_back" || N == "emplace_back") && MC->getNumArgs() == 1 &&
          Table.classify(MC->getArg(0)->getType()) == ValueClass::Tensor) {
        E.K = Event::Add;
        E.Values.push_back(MC->getArg(0));
      } else if (N == "clear" && MC->getNumArgs() == 0) {
        E.K = Event::Clear;
      } else if (N == "pop_back" && MC->getNumArgs() == 0) {
        E.K = Event::PopBack;
      } else if (N == "erase" && MC->getNumArgs() == 1) {
        // erase(v.begin()), erase(v.begin() + k).
        const Expr *Pos = strip(MC->getArg(0));
        if (const auto *CE = dyn_cast<CXXConstructExpr>(Pos);
            CE && CE->getNumArgs() == 1)
          Pos = strip(CE->getArg(0)); // iterator -> const_iterator
        int64_t K = 0;
        if (const auto *Plus = dyn_cast<CXXOperatorCallExpr>(Pos);
            Plus && Plus->getOperator() == OO_Plus && Plus->getNumArgs() == 2) {
          std::optional<int64_t> C = constantIndex(Plus->getArg(1), Ctx);
          K = C ? *C : -1;
          Pos = strip(Plus->getArg(0));
        }
        const auto *Begin = dyn_cast<CXXMemberCallExpr>(Pos);
        const DeclRefExpr *Of = Begin ? dyn_cast<DeclRefExpr>(strip(
                                            Begin->getImplicitObjectArgument()))
                                      : nullptr;
        Ok = K >= 0 && Begin && nameOf(Begin->getMethodDecl()) == "begin" &&
             Of && Of->getDecl() == V;
        if (Ok) {
          Done.insert(Of);
          E.K = Event::Erase;
          E.Index = K;
        }
      } else if (N == "at" && MC->getNumArgs() == 1) {
        std::optional<int64_t> C = constantIndex(MC->getArg(0), Ctx);
        Ok = ElementAt(MC, C ? *C : -1, false);
        E.K = Event::Ignore;
        E.Key = nullptr;
      } else if ((N == "front" || N == "back") && MC->getNumArgs() == 0) {
        Ok = ElementAt(MC, 0, N == "back");
        E.K = Event::Ignore;
        E.Key = nullptr;
      } else if (N == "size" || N == "empty" || N == "reserve" ||
                 N == "capacity") {
        E.K = Event::Ignore;
      } else {
        Ok = false;
      }
    } else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
               OC && OC->getNumArgs() >= 1 && IsRefTo(OC->getArg(0), R)) {
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
        std::optional<int64_t> C = constantIndex(OC->getArg(1), Ctx);
        Ok = ElementAt(OC, C ? *C : -1, false);
      } else if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        llvm::SmallVector<const void *, 4> Nodes;
        E.K = Event::Reassign;
        E.Key = E.At = OC;
        Ok = listElements(OC->getArg(1), Table, E.Values, Nodes);
        for (const void *N : Nodes)
          Consumed.insert(N);
      }
    } else if (const auto *ME = dyn_cast_or_null<MemberExpr>(Parent);
               ME && IsRefTo(ME->getBase(), R) && nameOf(Spec) == "pair" &&
               (nameOf(ME->getMemberDecl()) == "first" ||
                nameOf(ME->getMemberDecl()) == "second")) {
      Ok = ElementAt(ME, nameOf(ME->getMemberDecl()) == "second", false);
    } else if (const auto *CE = dyn_cast_or_null<CallExpr>(Parent);
               CE && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(CE) &&
               CE->getNumArgs() == 1 && IsRefTo(CE->getArg(0), R) &&
               CE->getDirectCallee() &&
               isInTopNamespace(CE->getDirectCallee(), "std") &&
               nameOf(CE->getDirectCallee()) == "get") {
      // std::get<k>(t)
      const TemplateArgumentList *TA =
          CE->getDirectCallee()->getTemplateSpecializationArgs();
      if (TA && TA->size() >= 1 &&
          TA->get(0).getKind() == TemplateArgument::Integral)
        Ok = ElementAt(CE, TA->get(0).getAsIntegral().getExtValue(), false);
    } else if (const auto *DS =
                   dyn_cast_or_null<DeclStmt>(copyParent(Parent, PM));
               DS && DS->isSingleDecl() &&
               (Parent == DS || isa<DecompositionDecl>(DS->getSingleDecl()))) {
      const auto *W = dyn_cast<VarDecl>(DS->getSingleDecl());
      const auto *FR = dyn_cast_or_null<CXXForRangeStmt>(PM.getParent(DS));
      if (FR && FR->getRangeStmt() == DS) {
        // for (auto &t : v): the loop variable is every element.
        const VarDecl *Loop = FR->getLoopVariable();
        Ok = Table.classify(Loop->getType()) == ValueClass::Tensor &&
             !assigned(Loop, Body, PM);
        E.K = Event::Whole;
        E.Key = Loop;
      } else if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(W)) {
        E.K = Event::Decompose;
        E.Key = DD;
        Ok = true;
      } else if (W && !W->getType()->isReferenceType()) {
        E.K = Event::Whole; // a copy
        E.Key = R;
        Ok = true;
      }
    } else if (isa_and_nonnull<ReturnStmt>(Parent)) {
      E.K = Event::Whole;
      E.Key = R;
      Ok = true;
    }
    if (!Ok && !E.Key && Parent) {
      // An argument the callee cannot change: it reads every element.
      const FunctionDecl *Callee = nullptr;
      llvm::ArrayRef<const Expr *> Args;
      unsigned Shift = 0;
      if (const auto *CE = dyn_cast<CallExpr>(Parent)) {
        Callee = CE->getDirectCallee();
        Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
        Shift = isa<CXXOperatorCallExpr>(CE) &&
                isa_and_nonnull<CXXMethodDecl>(Callee);
      } else if (const auto *CC = dyn_cast<CXXConstructExpr>(Parent)) {
        Callee = CC->getConstructor();
        Args = llvm::ArrayRef(CC->getArgs(), CC->getNumArgs());
        // A list view of LibTorch's (at::ITensorListRef's forwarding
        // constructor) only reads the container.
        if (isInTopNamespace(Callee, "c10") || isInTopNamespace(Callee, "at"))
          for (const Expr *A : Args)
            if (A == Up) {
              E.K = Event::Whole;
              E.Key = R;
              Ok = true;
            }
      }
      for (unsigned I = Shift; Callee && I < Args.size(); ++I) {
        if (Args[I] != Up)
          continue;
        unsigned P = I - Shift;
        QualType T = P < Callee->getNumParams()
                         ? Callee->getParamDecl(P)->getType()
                         : QualType();
        // A collective reads or writes the vector's elements in place
        // (c10d's tensor vectors are taken by non-const reference).
        bool Collective =
            Table.lookup(Callee).Effect == ApiEffect::CollectiveAsync;
        if (Collective ||
            (!T.isNull() && (!T->isReferenceType() ||
                             T.getNonReferenceType().isConstQualified()))) {
          E.K = Event::Whole;
          E.Key = R;
          Ok = true;
        }
      }
    }
    if (!Ok)
      return Info;
    if (E.K != Event::Ignore)
      Events.push_back(std::move(E));
  }

  // Source order: where each use ends (the arguments of a push_back are
  // evaluated before it).
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<unsigned> Order(Events.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](unsigned A, unsigned B) {
    SourceLocation LA = Events[A].At->getEndLoc(),
                   LB = Events[B].At->getEndLoc();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  std::vector<Event> Sorted;
  for (unsigned I : Order)
    Sorted.push_back(std::move(Events[I]));
  Events = std::move(Sorted);

  // The mode: exact positions while every change runs once per declaration.
  Info.M = ContainerInfo::Exact;
  for (Event &E : Events) {
    Placement(E.At, E);
    bool Change = E.K == Event::Add || E.K == Event::Clear ||
                  E.K == Event::PopBack || E.K == Event::Erase ||
                  E.K == Event::Reassign;
    if (Change && !E.Straight)
      Info.M = ContainerInfo::Loose;
  }
  if (Info.M == ContainerInfo::Loose)
    for (const Event &E : Events)
      if (E.K == Event::PopBack || E.K == Event::Erase ||
          E.K == Event::Reassign || E.K == Event::ElementAssign ||
          E.K == Event::Decompose)
        return ContainerInfo();

  // The declaration's elements.
  llvm::SmallVector<const Expr *, 4> Initial;
  if (const Expr *Init = V->getInit()) {
    llvm::SmallVector<const void *, 4> Nodes;
    if (!listElements(Init, Table, Initial, Nodes))
      return ContainerInfo();
    for (const void *N : Nodes)
      Consumed.insert(N);
  }
  std::optional<unsigned> Fixed = fixedSize(Spec);
  if (Fixed && Initial.size() > *Fixed)
    return ContainerInfo();
  if (nameOf(Spec) == "array" && !Fixed)
    return ContainerInfo();
  unsigned Count = Fixed ? *Fixed : Initial.size();
  llvm::SmallVector<unsigned, 8> Positions;
  ContainerUse &Decl = Info.Uses[V];
  Decl.K = ContainerUse::Bind;
  Info.Pair = nameOf(Spec) == "pair";
  Info.Tuple = nameOf(Spec) == "tuple";
  for (unsigned I = 0; I < Count; ++I) {
    Info.SlotPosition.push_back(I);
    Positions.push_back(Info.SlotCount++);
    Decl.Slots.push_back(Positions.back());
    Decl.Values.push_back(I < Initial.size() ? Initial[I] : nullptr);
  }
  llvm::SmallVector<unsigned, 8> All(Positions);

  bool Exact = Info.M == ContainerInfo::Exact;
  for (const Event &E : Events) {
    ContainerUse U;
    switch (E.K) {
    case Event::Add:
      U.K = ContainerUse::Bind;
      Info.SlotPosition.push_back(Exact ? int(Positions.size()) : -1);
      U.Slots.push_back(Info.SlotCount++);
      U.Values.assign(E.Values.begin(), E.Values.end());
      U.EscapeToo = E.InLoop;
      Positions.push_back(U.Slots.back());
      All.push_back(U.Slots.back());
      break;
    case Event::Clear:
      U.K = ContainerUse::Kill;
      U.Kills.assign((Exact ? Positions : All).begin(),
                     (Exact ? Positions : All).end());
      Positions.clear();
      break;
    case Event::PopBack:
      U.K = ContainerUse::Kill;
      if (!Positions.empty()) {
        U.Kills.push_back(Positions.back());
        Positions.pop_back();
      }
      break;
    case Event::Erase:
      if (E.Index >= int64_t(Positions.size()))
        return ContainerInfo();
      U.K = ContainerUse::Kill;
      U.Kills.push_back(Positions[E.Index]);
      Positions.erase(Positions.begin() + E.Index);
      break;
    case Event::Reassign:
      if (Fixed && E.Values.size() > *Fixed)
        return ContainerInfo();
      U.K = ContainerUse::Bind;
      U.Kills.assign(Positions.begin(), Positions.end());
      Positions.clear();
      for (unsigned I = 0; I < (Fixed ? *Fixed : E.Values.size()); ++I) {
        Info.SlotPosition.push_back(I);
        Positions.push_back(Info.SlotCount++);
        All.push_back(Positions.back());
        U.Slots.push_back(Positions.back());
        U.Values.push_back(I < E.Values.size() ? E.Values[I] : nullptr);
      }
      break;
    case Event::Element:
    case Event::ElementAssign: {
      std::optional<unsigned> Slot;
      if (Exact && E.Index >= 0 && !Positions.empty() &&
          (E.Back || E.Index < int64_t(Positions.size())))
        Slot = E.Back ? Positions.back() : Positions[E.Index];
      if (E.K == Event::ElementAssign) {
        if (!Slot)
          return ContainerInfo();
        U.K = ContainerUse::Bind;
        U.Slots.push_back(*Slot);
        U.Values.assign(E.Values.begin(), E.Values.end());
        ContainerUse &Elem = Info.Uses[E.AlsoKey];
        Elem.K = ContainerUse::Element;
        Elem.Slots.push_back(*Slot);
        break;
      }
      if (Slot) {
        U.K = ContainerUse::Element;
        U.Slots.push_back(*Slot);
      } else if (E.Index < 0 && !E.Back) {
        // v[i]: any element, so every one.
        U.K = ContainerUse::Each;
        U.Slots.assign((Exact ? Positions : All).begin(),
                       (Exact ? Positions : All).end());
      } else {
        U.K = ContainerUse::Element; // not known: silent
      }
      break;
    }
    case Event::Whole:
      U.K = ContainerUse::Each;
      U.Slots.assign((Exact ? Positions : All).begin(),
                     (Exact ? Positions : All).end());
      break;
    case Event::Decompose:
      U.K = ContainerUse::Each;
      U.Slots.assign(Positions.begin(), Positions.end());
      break;
    case Event::Ignore:
      continue;
    }
    Info.Uses[E.Key] = std::move(U);
  }
  // Slots filled in loops or branches start as undefined tensors, so that
  // where the paths meet the filled one is what the slot holds.
  if (!Exact) {
    ContainerUse &D = Info.Uses[V];
    for (unsigned S = D.Slots.size(); S < Info.SlotCount; ++S) {
      D.Slots.push_back(S);
      D.Values.push_back(nullptr);
    }
  }
  return Info;
}

} // namespace streamsafe
