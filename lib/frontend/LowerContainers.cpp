//===--- LowerContainers.cpp - Containers of tensors to facts -------------===//
//
// A followed container's elements are tensor variables of their own, one
// per slot (Containers.h): putting a tensor in binds its slot, clear(),
// pop_back(), erase(), reassignment and the container's end unbind slots
// (the storage dies with its last reference), and an element names its
// slot. A use that stands for every element (a range-for variable, the
// container passed to at::stack, a non-constant index) is a synthetic
// *group* variable: each fact on it is emitted once per slot.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;

namespace streamsafe {

const ContainerInfo *Lowering::containerOf(const Expr *E, const VarDecl **V) {
  const auto *DR = dyn_cast_or_null<DeclRefExpr>(stripValue(E, Table));
  const auto *Var = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!Var || !Containers.isContainerType(Var->getType()))
    return nullptr;
  const ContainerInfo *Info = Containers.info(Var);
  if (Info && V)
    *V = Var;
  return Info;
}

VarId Lowering::slotVar(const VarDecl *C, unsigned Slot) {
  auto [It, New] = Slotted.Slots.try_emplace({C, Slot}, 0);
  if (!New)
    return It->second;
  const ContainerInfo *Info = Containers.info(C);
  int Pos =
      Info && Slot < Info->SlotPosition.size() ? Info->SlotPosition[Slot] : -1;
  std::string Name = C->getNameAsString();
  if (Info && Info->Pair)
    Name += Pos == 0 ? ".first" : ".second";
  else if (Info && Info->Tuple)
    Name = "std::get<" + std::to_string(Pos) + ">(" + Name + ")";
  else
    Name += Pos < 0 ? "[...]" : "[" + std::to_string(Pos) + "]";
  Variable V;
  V.Name = std::move(Name);
  V.Class = VarClass::Tensor;
  V.Decl = C;
  IR.Vars.push_back(std::move(V));
  return It->second = static_cast<VarId>(IR.Vars.size() - 1);
}

TensorRef Lowering::slotRef(const VarDecl *C, unsigned Slot) {
  VarId V = slotVar(C, Slot);
  TensorRef R = TensorRef::var(V);
  // Named by its storage in messages (the tensor that was put in).
  R.Named = NoVar;
  auto It = Slotted.SlotRegions.find(V);
  if (It != Slotted.SlotRegions.end())
    R.Part = It->second;
  return R;
}

const ContainerUse *Lowering::loopOverContainer(const VarDecl *V,
                                                const VarDecl **C) {
  // `for (auto &t : v)`: the loop variable's DeclStmt is a child of the
  // range-for statement.
  if (!Parents || !V->getInit() || !Parents->hasParent(V->getInit()))
    return nullptr;
  const Stmt *DS = Parents->getParent(V->getInit());
  const auto *FR =
      dyn_cast_or_null<CXXForRangeStmt>(DS ? Parents->getParent(DS) : nullptr);
  if (!FR || FR->getLoopVariable() != V)
    return nullptr;
  const ContainerInfo *Info = containerOf(FR->getRangeInit(), C);
  return Info ? Info->use(V) : nullptr;
}

// The index k of std::get<k>(x).
static std::optional<unsigned> getIndex(const CallExpr *CE) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || CE->getNumArgs() != 1 || !FD->getIdentifier() ||
      FD->getName() != "get" || !isInTopNamespace(FD, "std"))
    return std::nullopt;
  const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs();
  if (!TA || TA->size() < 1 ||
      TA->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return unsigned(TA->get(0).getAsIntegral().getZExtValue());
}

// `auto [a, b] = p;`: each binding's holding variable is initialised with
// std::get<k> of the hidden decomposed object, which is p's copy (a
// followed container's element) or a followed container itself.
std::optional<TensorRef> Lowering::bindingElement(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  std::optional<unsigned> K = getIndex(CE);
  if (!K)
    return std::nullopt;
  const auto *DR = dyn_cast<DeclRefExpr>(stripValue(CE->getArg(0), Table));
  const auto *DD = DR ? dyn_cast<DecompositionDecl>(DR->getDecl()) : nullptr;
  if (!DD)
    return std::nullopt;
  if (const ContainerInfo *Own = Containers.isContainerType(DD->getType())
                                     ? Containers.info(DD)
                                     : nullptr)
    return *K < Own->SlotCount ? slotRef(DD, *K) : TensorRef();
  const Expr *Init = DD->getInit();
  if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(
          Init ? Init->IgnoreImplicit() : nullptr);
      Copy && Copy->getNumArgs() == 1)
    Init = Copy->getArg(0);
  const VarDecl *C = nullptr;
  const ContainerInfo *Info = containerOf(Init, &C);
  const ContainerUse *U = Info ? Info->use(DD) : nullptr;
  if (!U)
    return std::nullopt;
  return *K < U->Slots.size() ? slotRef(C, U->Slots[*K]) : TensorRef();
}

std::optional<TensorRef> Lowering::containerTensorRef(const Expr *E) {
  const VarDecl *C = nullptr;
  const ContainerUse *U = nullptr;
  const void *Key = E;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return std::nullopt;
    if (const ContainerInfo *Info = containerOf(DR, &C))
      U = Info->use(DR); // the whole container
    else if (Table.classify(V->getType()) == ValueClass::Tensor &&
             (U = loopOverContainer(V, &C)))
      Key = V;
  } else {
    // v[i], v.at(i), v.front(), std::get<k>(t), p.first: the container is
    // the object or the first argument.
    const Expr *Of = nullptr;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      Of = OC->getArg(0);
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      Of = MC->getImplicitObjectArgument();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      Of = ME->getBase();
    else if (const auto *CE = dyn_cast<CallExpr>(E);
             CE && CE->getNumArgs() == 1)
      Of = CE->getArg(0);
    if (const ContainerInfo *Info = Of ? containerOf(Of, &C) : nullptr)
      U = Info->use(E);
    else if (std::optional<TensorRef> R = bindingElement(E))
      return R;
  }
  if (!U || (U->K != ContainerUse::Element && U->K != ContainerUse::Each))
    return std::nullopt;
  if (U->K == ContainerUse::Element)
    return U->Slots.empty() ? TensorRef() : slotRef(C, U->Slots.front());
  auto [It, New] = Slotted.GroupOfUse.try_emplace(Key, 0);
  if (New) {
    Variable V;
    V.Name = C->getNameAsString();
    V.Class = VarClass::Tensor;
    V.Reference = true;
    V.Synthetic = true;
    V.Decl = C;
    IR.Vars.push_back(std::move(V));
    It->second = static_cast<VarId>(IR.Vars.size() - 1);
    llvm::SmallVector<VarId, 4> Members;
    for (unsigned S : U->Slots)
      Members.push_back(slotVar(C, S));
    Slotted.Groups[It->second] = std::move(Members);
  }
  TensorRef R = TensorRef::var(It->second);
  R.Named = NoVar;
  return R;
}

bool Lowering::expandGroup(FactList &Out, SiteId At, const Fact::Op &What) {
  // The tensor operand of the facts that apply to every element.
  const TensorRef *T = nullptr;
  if (const auto *X = std::get_if<fact::Access>(&What))
    T = &X->Tensor;
  else if (const auto *X = std::get_if<fact::HostAccess>(&What))
    T = &X->Tensor;
  else if (const auto *X = std::get_if<fact::EscapeTensor>(&What))
    T = &X->Tensor;
  else if (const auto *X = std::get_if<fact::RecordStream>(&What))
    T = &X->Tensor;
  if (!T || T->K != TensorRef::Var)
    return false;
  auto It = Slotted.Groups.find(T->Id);
  if (It == Slotted.Groups.end())
    return false;
  // Copied: emit() may grow Groups.
  llvm::SmallVector<VarId, 4> Members = It->second;
  for (VarId M : Members) {
    Fact::Op Each = What;
    TensorRef R = TensorRef::var(M);
    R.Named = NoVar;
    if (auto RI = Slotted.SlotRegions.find(M); RI != Slotted.SlotRegions.end())
      R.Part = RI->second;
    std::visit(
        [&](auto &X) {
          using F = std::decay_t<decltype(X)>;
          if constexpr (std::is_same_v<F, fact::Access> ||
                        std::is_same_v<F, fact::HostAccess> ||
                        std::is_same_v<F, fact::EscapeTensor> ||
                        std::is_same_v<F, fact::RecordStream>)
            X.Tensor = R;
        },
        Each);
    emit(Out, At, std::move(Each));
  }
  return true;
}

void Lowering::lowerContainerUse(const ContainerUse &U, const VarDecl *C,
                                 SiteId At, FactList &Out) {
  for (unsigned S : U.Kills)
    emit(Out, At, fact::Unbind{slotVar(C, S)});
  if (U.K != ContainerUse::Bind)
    return;
  for (unsigned I = 0; I < U.Slots.size(); ++I) {
    VarId V = slotVar(C, U.Slots[I]);
    const Expr *Value = I < U.Values.size() ? U.Values[I] : nullptr;
    TensorRef R = Value ? tensorRef(Value) : TensorRef();
    // The part of its storage the element is (a piece pushed): one part
    // per slot, or an unknown one when it is given several.
    Region Part =
        Value && R.K == TensorRef::Var ? regionOf(Value) : Region::whole();
    auto [It, New] = Slotted.SlotRegions.try_emplace(V, Part);
    if (!New && It->second != Part)
      It->second = Region::some();
    if (U.EscapeToo && Value)
      emit(Out, At, fact::EscapeTensor{R});
    emit(Out, At, fact::BindTensor{V, R});
  }
}

bool Lowering::lowerContainerCall(const CallExpr *CE, FactList &Out) {
  if (Containers.consumed(CE))
    return true; // std::make_pair(a, b) building a followed pair
  const Expr *Of = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Of = MC->getImplicitObjectArgument();
  else if (CE->getNumArgs() >= 1)
    Of = CE->getArg(0); // v = {...}, v[i], std::get<k>(t)
  const VarDecl *C = nullptr;
  const ContainerInfo *Info = Of ? containerOf(Of, &C) : nullptr;
  if (!Info) {
    // v[k] = t: the element expression is the first argument.
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return false;
    const Expr *Elem = stripValue(OC->getArg(0), Table);
    const Expr *ElemOf = nullptr;
    if (const auto *S = dyn_cast_or_null<CXXOperatorCallExpr>(Elem);
        S && S->getNumArgs() == 2)
      ElemOf = S->getArg(0);
    else if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Elem))
      ElemOf = MC->getImplicitObjectArgument();
    else if (const auto *ME = dyn_cast_or_null<MemberExpr>(Elem))
      ElemOf = ME->getBase();
    else if (const auto *G = dyn_cast_or_null<CallExpr>(Elem);
             G && G->getNumArgs() == 1)
      ElemOf = G->getArg(0);
    Info = ElemOf ? containerOf(ElemOf, &C) : nullptr;
    const ContainerUse *U = Info ? Info->use(CE) : nullptr;
    if (!U || U->K != ContainerUse::Bind)
      return false;
    lowerContainerUse(*U, C, site(SiteKind::Other, CE), Out);
    return true;
  }
  // Every other call on a followed container (size(), an element getter)
  // has no effect of its own; the element is used where it is used.
  if (const ContainerUse *U = Info->use(CE);
      U && (U->K == ContainerUse::Bind || U->K == ContainerUse::Kill))
    lowerContainerUse(*U, C,
                      site(U->K == ContainerUse::Kill || !U->Kills.empty()
                               ? SiteKind::LifetimeEnd
                               : SiteKind::Other,
                           CE),
                      Out);
  // A whole-container argument of another function (at::stack(v)) is
  // lowered by that function's row; here the container is only the object
  // or an element's source.
  if (!isa<CXXMemberCallExpr>(CE) && !isa<CXXOperatorCallExpr>(CE) &&
      !Info->use(CE))
    return false;
  return true;
}

bool Lowering::lowerContainerDecl(const VarDecl *V, const Stmt *DS,
                                  FactList &Out) {
  SiteId At = site(SiteKind::Other, V->getLocation(), DS, V);
  const auto *DD = dyn_cast<DecompositionDecl>(V);
  // auto [a, b] = p: the holding variables of the bindings name the
  // elements (bindingElement); they own a reference unless the
  // decomposition is a reference.
  auto Holders = [&] {
    for (const BindingDecl *B : DD->bindings())
      if (const VarDecl *H = B->getHoldingVar())
        IR.Vars[varOf(H)].Reference = DD->getType()->isReferenceType();
  };
  if (const ContainerInfo *Info = Containers.isContainerType(V->getType())
                                      ? Containers.info(V)
                                      : nullptr) {
    if (const ContainerUse *U = Info->use(V))
      lowerContainerUse(*U, V, At, Out);
    if (DD)
      Holders();
    return true;
  }
  const VarDecl *C = nullptr;
  if (Table.classify(V->getType()) == ValueClass::Tensor &&
      loopOverContainer(V, &C))
    return true; // each element in turn: its uses name them all
  if (DD) {
    const Expr *Init = DD->getInit();
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(
            Init ? Init->IgnoreImplicit() : nullptr);
        Copy && Copy->getNumArgs() == 1)
      Init = Copy->getArg(0);
    const ContainerInfo *Info = containerOf(Init, &C);
    if (!Info || !Info->use(DD))
      return false;
    Holders();
    return true;
  }
  return false;
}

// `for (auto &t : v) t.record_stream(s);` runs at least once for each
// element there is, but the loop's exit edge also leaves from before the
// first iteration, where nothing was recorded yet. Every fact on the loop
// variable applies to all elements, so the unconditional record_stream
// calls of the body are also made before the loop, when their stream is
// already what it is in the loop (a variable declared before it).
void Lowering::hoistLoopRecords(const Stmt *RangeStmt, FactList &Out) {
  const auto *FR = dyn_cast_or_null<CXXForRangeStmt>(
      Parents && Parents->hasParent(RangeStmt) ? Parents->getParent(RangeStmt)
                                               : nullptr);
  const VarDecl *C = nullptr;
  if (!FR || FR->getRangeStmt() != RangeStmt ||
      !loopOverContainer(FR->getLoopVariable(), &C))
    return;
  const Stmt *Body = FR->getBody();
  llvm::SmallVector<const Stmt *, 4> Top;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Top.append(CS->body_begin(), CS->body_end());
  else
    Top.push_back(Body);
  const SourceManager &SMgr = Ctx.getSourceManager();
  std::function<bool(const Stmt *)> DeclaredBefore = [&](const Stmt *S) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (!SMgr.isBeforeInTranslationUnit(DR->getDecl()->getLocation(),
                                          FR->getBeginLoc()))
        return false;
    for (const Stmt *Child : S->children())
      if (Child && !DeclaredBefore(Child))
        return false;
    return true;
  };
  for (const Stmt *S : Top) {
    const auto *E = dyn_cast<Expr>(S);
    const auto *MC =
        E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()) : nullptr;
    if (!MC || !MC->getMethodDecl() ||
        Table.lookup(MC->getMethodDecl()).Effect !=
            ApiEffect::TensorRecordStream)
      continue;
    const auto *Obj = dyn_cast_or_null<DeclRefExpr>(
        stripValue(MC->getImplicitObjectArgument(), Table));
    if (!Obj || Obj->getDecl() != FR->getLoopVariable())
      continue;
    bool StreamKnown = true;
    for (const Expr *Arg : MC->arguments())
      StreamKnown &= DeclaredBefore(Arg);
    if (StreamKnown)
      lowerCall(MC, Out);
  }
}

bool Lowering::lowerContainerDtor(const VarDecl *V, SiteId At, FactList &Out) {
  if (const auto *DD = dyn_cast<DecompositionDecl>(V)) {
    // The decomposed copy dies: so do the references its bindings held.
    bool Any = false;
    for (const BindingDecl *B : DD->bindings())
      if (const VarDecl *H = B->getHoldingVar();
          H && IR.var(varOf(H)).Class == VarClass::Tensor) {
        emit(Out, At, fact::Unbind{varOf(H)});
        Any = true;
      }
    if (!Containers.isContainerType(V->getType()) || !Containers.info(V))
      return Any;
  }
  if (!Containers.isContainerType(V->getType()))
    return false;
  const ContainerInfo *Info = Containers.info(V);
  if (!Info)
    return false;
  for (unsigned S = 0; S < Info->SlotCount; ++S)
    emit(Out, At, fact::Unbind{slotVar(V, S)});
  return true;
}

} // namespace streamsafe
