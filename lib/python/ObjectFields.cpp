//===--- ObjectFields.cpp - The tensor fields of a method's object --------===//
//
// A method starts from what the other methods of its class leave in flight
// in its object's tensor fields (lib/engine/TransferFields.cpp): followSelf
// hands each tensor attribute to the engine as a field, with the writes
// Analysis.cpp gathered from the other methods' analyses, translated into
// this method's sites and streams. A field every assignment of which is
// host memory by its own words is host memory at entry.
//
//===----------------------------------------------------------------------===//

#include "lib/model/HostOrder.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

namespace {

/// Whether \p V is host memory by its own words: 0 no, 1 host, 2 pinned.
int hostValue(TSNode V, const SourceFile &F) {
  V = unparen(V);
  if (!is(V, "call"))
    return 0;
  TSNode Fn = unparen(field(V, "function"));
  if (is(Fn, "attribute")) {
    llvm::StringRef M = F.text(field(Fn, "attribute"));
    if (M == "pin_memory")
      return 2;
    if (M == "cpu")
      return 1;
  }
  int Host = 0;
  for (TSNode A : children(field(V, "arguments"))) {
    if (!is(A, "keyword_argument"))
      continue;
    llvm::StringRef K = F.text(field(A, "name"));
    TSNode Arg = unparen(field(A, "value"));
    if (K == "pin_memory" && F.text(Arg) == "True")
      return 2;
    if (K == "device" && is(Arg, "string") &&
        F.text(Arg).trim("'\"").split(':').first == "cpu")
      Host = 1;
  }
  return Host;
}

} // namespace

bool HelperIndex::hostAttribute(TSNode Class, llvm::StringRef Name,
                                bool &Pinned) {
  std::vector<TSNode> Family = family(Class);
  bool Any = false;
  Pinned = true;
  for (const AttributeWrite &W : attributeWrites()) {
    // A setattr whose name is not written out may set this one too (on
    // the family's own objects, or on any object outside a method).
    if (W.K == AttributeWrite::SetattrOpaque &&
        (ts_node_is_null(W.Owner) || llvm::any_of(Family, [&](TSNode C) {
           return ts_node_eq(C, W.Owner);
         })))
      return false;
    if (W.Name != Name || W.K == AttributeWrite::SetStream ||
        W.K == AttributeWrite::SetattrOpaque)
      continue;
    if (W.K == AttributeWrite::Member && !ts_node_is_null(W.Owner) &&
        llvm::none_of(Family, [&](TSNode C) { return ts_node_eq(C, W.Owner); }))
      continue;
    if (W.Given == AttributeGiven::Nothing)
      continue;
    int H = ts_node_is_null(W.Value) ? 0 : hostValue(W.Value, F);
    if (!H)
      return false;
    Any = true;
    Pinned &= H == 2;
  }
  return Any;
}

std::string HelperIndex::viewBase(TSNode Class, llvm::StringRef Name) {
  std::vector<TSNode> Family = family(Class);
  std::string Base;
  for (const AttributeWrite &W : attributeWrites()) {
    if (W.Name != Name)
      continue;
    if (W.K != AttributeWrite::Member || ts_node_is_null(W.Owner) ||
        ts_node_is_null(W.Value))
      return "";
    if (llvm::none_of(Family, [&](TSNode C) { return ts_node_eq(C, W.Owner); }))
      continue;
    // self.B[...], self.B.view(...), self.B[a:b].view(...), narrow, ...
    llvm::StringRef Self = F.text(unparen(field(W.Target, "object")));
    TSNode V = unparen(W.Value);
    bool Viewed = false;
    for (;;) {
      if (is(V, "subscript")) {
        V = unparen(field(V, "value"));
      } else if (is(V, "call") && is(field(V, "function"), "attribute") &&
                 tensorMethod(
                     F.text(field(field(V, "function"), "attribute"))) ==
                     ApiEffect::TensorView) {
        V = unparen(field(field(V, "function"), "object"));
      } else {
        break;
      }
      Viewed = true;
    }
    if (!Viewed || !is(V, "attribute") ||
        !is(unparen(field(V, "object")), "identifier") ||
        F.text(unparen(field(V, "object"))) != Self)
      return "";
    std::string Of = F.text(field(V, "attribute")).str();
    if (Of == Name || (!Base.empty() && Of != Base))
      return "";
    Base = Of;
  }
  return Base;
}

bool HelperIndex::hostChannelAttribute(TSNode Class, llvm::StringRef Name) {
  std::vector<TSNode> Family = family(Class);
  bool Any = false;
  for (const AttributeWrite &W : attributeWrites()) {
    if (W.Name != Name)
      continue;
    if (W.K == AttributeWrite::Member && !ts_node_is_null(W.Owner) &&
        llvm::none_of(Family, [&](TSNode C) { return ts_node_eq(C, W.Owner); }))
      continue;
    TSNode V = unparen(W.Value);
    if (W.K == AttributeWrite::SetStream || !is(V, "call") ||
        !isHostOnlyChannelClass(I.qualify(field(V, "function"))))
      return false;
    Any = true;
  }
  return Any;
}

void Builder::followFields(const Scope &S, TSNode Class, Instance &O,
                           const llvm::StringMap<VarClass> &Attrs) {
  bool InInit = F.text(field(S.Node, "name")) == "__init__";
  // Its tensor fields start from what the class's methods leave in them
  // (engine/TransferFields.cpp); the engine reports what this one leaves.
  for (const auto &E : Attrs) {
    if (E.second != VarClass::Tensor)
      continue;
    ObjectField Field;
    Field.Var = O.Attrs[E.getKey()];
    Field.Host = X->hostAttribute(Class, E.getKey(), Field.Pinned);
    std::string Base = X->viewBase(Class, E.getKey());
    if (auto B = O.Attrs.find(Base); !Base.empty() && B != O.Attrs.end() &&
                                     Attrs.lookup(Base) == VarClass::Tensor) {
      Field.ViewOf = B->second;
      Field.Host = X->hostAttribute(Class, Base, Field.Pinned);
    }
    auto C =
        Carries ? Carries->find(E.getKey()) : FieldCarries::const_iterator();
    // Nothing carries into __init__: its object is new.
    if (Carries && C != Carries->end() && !InInit)
      for (const FieldCarry &Carry : C->second) {
        CarriedWrite W;
        if (!Carry.Stream.empty()) {
          auto Held = O.Attrs.find(Carry.Stream);
          if (Held == O.Attrs.end() || !IR->var(Held->second).Persistent ||
              IR->var(Held->second).Class != VarClass::Stream)
            continue; // a stream this method does not hold as it did
          W.Stream = Held->second;
        }
        Site Write = Carry.Write, Exit = Carry.Exit;
        Write.Scope = Exit.Scope = 0;
        W.Site = IR->Sites.add(Write);
        W.Exit = IR->Sites.add(Exit);
        Out->Callees[W.Exit] = Carry.Method;
        W.OnOther = Carry.OnOther;
        W.Allocation = Carry.Allocation;
        W.VisibleToEntry = Carry.VisibleToEntry;
        W.Complete = Carry.Complete;
        W.Read = Carry.Read;
        Field.Carried.push_back(W);
      }
    IR->Fields.push_back(std::move(Field));
  }
}

} // namespace streamsafe::py
