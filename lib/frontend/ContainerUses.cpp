//===--- ContainerUses.cpp - Each reference to a local container ---------===//
//
// What each reference to a local container of tensors does
// (ContainerUses.h); Containers.cpp simulates the events in source order.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/ContainerUses.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamsafe::containers {

namespace {

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

bool refersTo(const Expr *E, const DeclRefExpr *R) { return strip(E) == R; }

} // namespace

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
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

bool listElements(const Expr *E, ApiTable &Table,
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

bool UseReader::placement(const Stmt *S, Event &E) const {
  for (const Stmt *P = PM.getParent(S); P && P != Scope; P = PM.getParent(P)) {
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
}

bool UseReader::elementAt(std::vector<Event> &Events, const Expr *Elem,
                          int64_t Index, bool Back) {
  Event E;
  E.K = Event::Element;
  E.Key = Elem;
  E.At = Elem;
  E.Index = Index;
  E.Back = Back;
  const Expr *Up = skipUp(Elem, PM);
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(PM.getParent(Up));
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
}

bool UseReader::read(llvm::ArrayRef<const DeclRefExpr *> Refs,
                     std::vector<Event> &Events) {
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Done;
  for (const DeclRefExpr *R : Refs) {
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
    if (!placement(R, E))
      return false;
    bool Ok = false;
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Parent);
        MC && refersTo(MC->getImplicitObjectArgument(), R)) {
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
        Ok = elementAt(Events, MC, C ? *C : -1, false);
        E.K = Event::Ignore;
        E.Key = nullptr;
      } else if ((N == "front" || N == "back") && MC->getNumArgs() == 0) {
        Ok = elementAt(Events, MC, 0, N == "back");
        E.K = Event::Ignore;
        E.Key = nullptr;
      } else if (N == "size" || N == "empty" || N == "reserve" ||
                 N == "capacity") {
        E.K = Event::Ignore;
      } else {
        Ok = false;
      }
    } else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
               OC && OC->getNumArgs() >= 1 && refersTo(OC->getArg(0), R)) {
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
        std::optional<int64_t> C = constantIndex(OC->getArg(1), Ctx);
        Ok = elementAt(Events, OC, C ? *C : -1, false);
      } else if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        llvm::SmallVector<const void *, 4> Nodes;
        E.K = Event::Reassign;
        E.Key = E.At = OC;
        Ok = listElements(OC->getArg(1), Table, E.Values, Nodes);
        for (const void *N : Nodes)
          Consumed.insert(N);
      }
    } else if (const auto *ME = dyn_cast_or_null<MemberExpr>(Parent);
               ME && refersTo(ME->getBase(), R) && nameOf(Spec) == "pair" &&
               (nameOf(ME->getMemberDecl()) == "first" ||
                nameOf(ME->getMemberDecl()) == "second")) {
      Ok =
          elementAt(Events, ME, nameOf(ME->getMemberDecl()) == "second", false);
    } else if (const auto *CE = dyn_cast_or_null<CallExpr>(Parent);
               CE && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(CE) &&
               CE->getNumArgs() == 1 && refersTo(CE->getArg(0), R) &&
               CE->getDirectCallee() &&
               isInTopNamespace(CE->getDirectCallee(), "std") &&
               nameOf(CE->getDirectCallee()) == "get") {
      // std::get<k>(t)
      const TemplateArgumentList *TA =
          CE->getDirectCallee()->getTemplateSpecializationArgs();
      if (TA && TA->size() >= 1 &&
          TA->get(0).getKind() == TemplateArgument::Integral)
        Ok = elementAt(Events, CE, TA->get(0).getAsIntegral().getExtValue(),
                       false);
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
      return false;
    if (E.K != Event::Ignore)
      Events.push_back(std::move(E));
  }
  return true;
}

} // namespace streamsafe::containers
