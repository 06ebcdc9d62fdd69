//===--- AttributeElements.cpp - `self.bufs[i]`: elements of attributes ---===//
//
// An object's list attribute whose every element its class makes a tensor
// (or an event) is followed element by element where the index is a
// constant or a parameter the function never rebinds: `self.bufs[i]` is
// then the same tensor at every use in the function, a storage of the
// object's own that nothing is known of at entry. A function that stores
// into the list, rebinds it or moves its elements (pop, insert, sort, ...)
// does not follow its elements; nor does one whose index changes.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

namespace {

/// Joins \p C into \p Slot: the same class, else Other.
void join(std::optional<VarClass> &Slot, VarClass C) {
  Slot = !Slot || *Slot == C ? C : VarClass::Other;
}

} // namespace

const llvm::StringMap<VarClass> &
HelperIndex::elementClasses(TSNode Class, const Scope &Module) {
  auto [It, New] = Elements.try_emplace(Class.id);
  if (!New)
    return It->second;
  llvm::StringMap<std::optional<VarClass>> Seen;
  for (TSNode M : methodsWithSelf(Class, F)) {
    std::vector<std::string> Params = paramNames(M, F);
    llvm::StringRef Self = Params[0];
    // (What its own calls return is the analysis's, not the scan's.)
    auto S = makeScope(M, Scope::Def, &Module, F, I, nullptr, nullptr, 0);
    auto ClassOf = [&](TSNode V) { return classOfExpr(V, *S, F, I); };
    ownCode(field(M, "body"), [&](TSNode X) {
      llvm::StringRef Attr;
      if (is(X, "assignment") || is(X, "augmented_assignment")) {
        TSNode L = unparen(field(X, "left"));
        TSNode R = unparen(field(X, "right"));
        if (selfAttribute(L, Self, F, Attr)) {
          // self.x = [a, b], [f(i) for i in ...], []: the elements' class.
          auto &Slot = Seen[Attr];
          if (is(X, "augmented_assignment") || ts_node_is_null(R))
            join(Slot, VarClass::Other);
          else if (is(R, "list") || is(R, "tuple"))
            for (TSNode E : children(R))
              join(Slot, is(E, "list_splat") ? VarClass::Other : ClassOf(E));
          else if (is(R, "list_comprehension"))
            join(Slot, ClassOf(field(R, "body")));
          else if (!is(R, "none"))
            join(Slot, VarClass::Other);
        } else if (is(L, "subscript") &&
                   selfAttribute(field(L, "value"), Self, F, Attr)) {
          join(Seen[Attr], is(X, "assignment") && !ts_node_is_null(R)
                               ? ClassOf(R)
                               : VarClass::Other);
        } else if (!is(L, "identifier")) {
          // self.x, y = ...: not followed.
          walkNodes(
              L, [](TSNode) { return false; },
              [&](TSNode Y) {
                if (selfAttribute(Y, Self, F, Attr))
                  join(Seen[Attr], VarClass::Other);
              });
        }
        return;
      }
      if (!is(X, "call"))
        return;
      TSNode Fn = field(X, "function");
      if (!is(Fn, "attribute") ||
          !selfAttribute(field(Fn, "object"), Self, F, Attr))
        return;
      llvm::StringRef Method = F.text(field(Fn, "attribute"));
      std::vector<TSNode> A = children(field(X, "arguments"));
      if (Method == "append" && A.size() == 1)
        join(Seen[Attr], ClassOf(A[0]));
      else if (Method != "index" && Method != "count" && Method != "pop" &&
               Method != "clear")
        join(Seen[Attr], VarClass::Other);
    });
  }
  for (const auto &E : Seen)
    if (E.second == VarClass::Tensor || E.second == VarClass::Event)
      It->second[E.getKey()] = *E.second;
  return It->second;
}

bool Builder::attributeElement(TSNode Subscript, Value &Out) {
  TSNode Base = unparen(field(Subscript, "value"));
  if (!is(Base, "attribute"))
    return false;
  TSNode Object = unparen(field(Base, "object"));
  const Instance *O = St->Self && !St->S->Params.empty() &&
                              is(Object, "identifier") &&
                              F.text(Object) == F.text(St->S->Params[0])
                          ? St->Self
                          : objectNamed(Object);
  if (!O || O->Keyed || ts_node_is_null(O->Class))
    return false;
  llvm::StringRef Attr = F.text(field(Base, "attribute"));
  // The class of its elements, as the class and its bases agree.
  std::optional<VarClass> Class;
  for (TSNode C : X->lineage(O->Class)) {
    const llvm::StringMap<VarClass> &E =
        X->elementClasses(C, *St->S->ModuleScope);
    if (auto It = E.find(Attr); It != E.end())
      join(Class, It->second);
  }
  if (!Class || (*Class != VarClass::Tensor && *Class != VarClass::Event))
    return false;
  // The index: a constant, or a parameter this function never rebinds
  // (one key per function: another function's `i` may differ).
  std::vector<TSNode> Index = fieldChildren(Subscript, "subscript");
  if (Index.size() != 1)
    return false;
  TSNode K = unparen(Index[0]);
  std::string Key = Attr.str() + "[";
  if (std::optional<int64_t> C = constantInt(K); C && *C >= 0) {
    Key += std::to_string(*C) + "]";
  } else if (is(K, "identifier") &&
             llvm::any_of(St->S->Params,
                          [&](TSNode P) { return F.text(P) == F.text(K); }) &&
             !St->S->Bindings.count(F.text(K))) {
    Key += F.text(K).str() + "]@" +
           std::to_string(reinterpret_cast<uintptr_t>(St->S->Node.id));
  } else {
    return false;
  }
  // This function changes the list: its elements are not followed.
  TSNode Body = field(St->S->Node, "body");
  std::string Self =
      St->S->Params.empty() ? std::string() : F.text(St->S->Params[0]).str();
  auto Scan = [&] {
    bool Changed = false;
    if (Self.empty())
      return false;
    ownCode(Body, [&](TSNode X) {
      llvm::StringRef A;
      TSNode L = unparen(field(X, "left"));
      if ((is(X, "assignment") || is(X, "augmented_assignment")) &&
          ((selfAttribute(L, Self, F, A) && A == Attr) ||
           (is(L, "subscript") &&
            selfAttribute(field(L, "value"), Self, F, A) && A == Attr)))
        Changed = true;
      if (is(X, "delete_statement"))
        walkNodes(
            X, [](TSNode) { return false; },
            [&](TSNode Y) {
              if (selfAttribute(Y, Self, F, A) && A == Attr)
                Changed = true;
            });
      TSNode Fn = field(X, "function");
      if (is(X, "call") && is(Fn, "attribute") &&
          selfAttribute(field(Fn, "object"), Self, F, A) && A == Attr) {
        llvm::StringRef M = F.text(field(Fn, "attribute"));
        Changed |= M != "index" && M != "count";
      }
    });
    return Changed;
  };
  if (Objs.elementsChanged(Body, Attr.str(), Scan))
    return false;
  auto It = O->Attrs.find(Key);
  if (It == O->Attrs.end()) {
    Variable V;
    V.Name = "self." + Attr.str() + "[" + F.text(K).str() + "]";
    V.Class = *Class;
    // A tensor of the object's own: one storage for the whole function.
    V.Persistent = *Class == VarClass::Tensor;
    IR->Vars.push_back(std::move(V));
    It = O->Attrs.try_emplace(Key, IR->Vars.size() - 1).first;
    // An event: recorded before the function ran, as far as it knows (so
    // bound in its entry block, whichever use comes first).
    if (*Class == VarClass::Event) {
      Fact Bind;
      Bind.Site = site(SiteKind::EventDecl, Subscript);
      Bind.What = fact::BindEvent{It->second, false};
      St->B.Blocks[St->B.Entry].Facts.push_back(std::move(Bind));
    }
  }
  Out = Value();
  Out.Node = Subscript;
  Out.Class = *Class;
  if (*Class == VarClass::Tensor)
    Out.Tensor = TensorRef::var(It->second);
  else
    Out.Event = It->second;
  return true;
}

} // namespace streamsafe::py
