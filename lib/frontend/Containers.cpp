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
// What each reference is, is read in ContainerUses.cpp. Here the uses are
// simulated in source order: while every change of the container runs once
// per declaration (nothing conditional or repeated in between), each
// position holds a known slot.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Containers.h"
#include "lib/frontend/ContainerUses.h"
#include "lib/frontend/ValueExprs.h"
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

using containers::Event;
using containers::listElements;
using containers::nameOf;
using containers::RefFinder;
using containers::strip;

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

  containers::UseReader Reader(Ctx, Table, V, Body, PM, Scope, Spec, Consumed);
  std::vector<Event> Events;
  if (!Reader.read(Finder.Refs, Events))
    return Info;

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
    Reader.placement(E.At, E);
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
