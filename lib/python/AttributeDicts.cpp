//===--- AttributeDicts.cpp - `self.cache[k]`: dicts of tensors in objects
//-===//
//
// Offloading and caching code keeps tensors in a dict attribute: one method
// stores `self.stash[key] = t` (on its own stream), another takes it back
// with `self.stash.pop(key)` or `self.stash[key]` and hands it to the
// caller. An attribute that the class only ever makes an empty dict and
// only ever stores tensors in is followed as one tensor, "some value of the
// dict" (named `self.stash[]`): a store binds it, a read gives it, and it
// is carried from method to method as the object's tensor fields are
// (lib/engine/TransferFields.cpp), so what one method left in flight in it
// is what the next one takes out. Keys are not told apart: the value last
// stored is the one read (docs/python.md, "Objects across methods").
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

namespace {

/// `{}`, `dict()`, `OrderedDict()`, `collections.OrderedDict()`.
bool emptyDict(TSNode V, const SourceFile &F) {
  V = unparen(V);
  if (is(V, "dictionary"))
    return children(V).empty();
  if (!is(V, "call") || !children(field(V, "arguments")).empty())
    return false;
  llvm::StringRef Fn = F.text(field(V, "function"));
  return Fn == "dict" || Fn == "OrderedDict" || Fn == "collections.OrderedDict";
}

} // namespace

const llvm::StringSet<> &HelperIndex::dictAttributes(TSNode Class,
                                                     const Scope &Module) {
  auto [It, New] = Dicts.try_emplace(Class.id);
  if (!New)
    return It->second;
  // The methods of the class and of its bases: a base's `__init__` may
  // make the dict that a subclass fills.
  std::vector<TSNode> Methods;
  for (TSNode C : lineage(Class))
    for (TSNode M : methodsWithSelf(C, F))
      Methods.push_back(M);
  // A store of a value read from the dict (`self.d[k] =
  // self.d[k].to(...)`) is a tensor when the dict is: assume every dict
  // the class makes empty holds tensors, and drop those with a store of
  // anything else (or none), until none is dropped.
  llvm::StringMap<VarClass> Attrs;
  for (TSNode C : lineage(Class))
    for (const auto &E : attributeClasses(C, Module))
      Attrs.try_emplace(E.getKey(), E.second);
  auto Scan = [&](llvm::StringSet<> &Made, llvm::StringSet<> &Stored,
                  llvm::StringSet<> &Bad) {
    for (TSNode M : Methods) {
      // (Only a method that stores into a dict needs what its values are.)
      std::unique_ptr<Scope> S;
      auto ScopeOf = [&]() -> const Scope & {
        if (!S)
          S = makeScope(M, Scope::Def, &Module, F, I, nullptr, &Attrs, 0);
        return *S;
      };
      scanDictStores(M, paramNames(M, F).front(), ScopeOf, Made, Stored, Bad);
    }
  };
  llvm::StringSet<> Candidates, Stored, Bad;
  // Most classes make no empty dict: no scan of their methods' values.
  bool MakesDict = false;
  for (TSNode M : Methods)
    ownCode(field(M, "body"), [&](TSNode X) {
      MakesDict |= is(X, "assignment") && !ts_node_is_null(field(X, "right")) &&
                   emptyDict(field(X, "right"), F);
    });
  if (!MakesDict)
    return It->second;
  Scan(Candidates, Stored, Bad);
  for (;;) {
    for (const auto &E : Candidates)
      Attrs[E.getKey().str() + "[]"] = VarClass::Tensor;
    llvm::StringSet<> Made, Next;
    Stored.clear();
    Bad.clear();
    Scan(Made, Stored, Bad);
    for (const auto &E : Candidates)
      if (Stored.contains(E.getKey()) && !Bad.contains(E.getKey()))
        Next.insert(E.getKey());
    if (Next.size() == Candidates.size())
      break;
    for (const auto &E : Candidates)
      if (!Next.contains(E.getKey()))
        Attrs.erase(E.getKey().str() + "[]");
    Candidates = std::move(Next);
  }
  It->second = std::move(Candidates);
  return It->second;
}

const llvm::StringSet<> &HelperIndex::madeDicts(TSNode Class) {
  auto [It, New] = MadeDicts.try_emplace(Class.id);
  if (!New)
    return It->second;
  llvm::StringSet<> Made, Other;
  for (TSNode C : lineage(Class))
    for (TSNode M : methodsWithSelf(C, F)) {
      std::string Self = paramNames(M, F).front();
      ownCode(field(M, "body"), [&](TSNode X) {
        llvm::StringRef Attr;
        if (!is(X, "assignment") && !is(X, "augmented_assignment"))
          return;
        if (!selfAttribute(unparen(field(X, "left")), Self, F, Attr))
          return;
        TSNode R = field(X, "right");
        (is(X, "assignment") && !ts_node_is_null(R) && emptyDict(R, F) ? Made
                                                                       : Other)
            .insert(Attr);
      });
    }
  for (const auto &E : Made)
    if (!Other.contains(E.getKey()))
      It->second.insert(E.getKey());
  return It->second;
}

void HelperIndex::scanDictStores(TSNode M, llvm::StringRef Self,
                                 llvm::function_ref<const Scope &()> ScopeOf,
                                 llvm::StringSet<> &Made,
                                 llvm::StringSet<> &Stored,
                                 llvm::StringSet<> &Bad) {
  ownCode(field(M, "body"), [&](TSNode X) {
    llvm::StringRef Attr;
    if (is(X, "assignment") || is(X, "augmented_assignment")) {
      TSNode L = unparen(field(X, "left"));
      TSNode R = field(X, "right");
      if (selfAttribute(L, Self, F, Attr)) {
        if (is(X, "assignment") && !ts_node_is_null(R) && emptyDict(R, F))
          Made.insert(Attr);
        else
          Bad.insert(Attr);
      } else if (is(L, "subscript") &&
                 selfAttribute(field(L, "value"), Self, F, Attr)) {
        // self.d[k] = t stores a tensor; self.d[k] += t changes one.
        if (is(X, "augmented_assignment"))
          return;
        if (!ts_node_is_null(R) &&
            classOfExpr(R, ScopeOf(), F, I) == VarClass::Tensor)
          Stored.insert(Attr);
        else
          Bad.insert(Attr);
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
    // What may put anything else in it.
    if (Method == "update" || Method == "setdefault" ||
        Method == "__setitem__" || Method == "fromkeys")
      Bad.insert(Attr);
  });
}

VarId Builder::dictAttributeVar(TSNode Dict) {
  Dict = unparen(Dict);
  if (!St->Self || St->S->Params.empty() || !is(Dict, "attribute") ||
      F.text(unparen(field(Dict, "object"))) != F.text(St->S->Params[0]))
    return NoVar;
  auto It = St->Self->Attrs.find(F.text(field(Dict, "attribute")).str() + "[]");
  return It == St->Self->Attrs.end() ? NoVar : It->second;
}

bool Builder::madeDict(TSNode Dict) {
  Dict = unparen(Dict);
  return St->Self && !ts_node_is_null(St->Self->Class) &&
         !St->S->Params.empty() && is(Dict, "attribute") &&
         F.text(unparen(field(Dict, "object"))) == F.text(St->S->Params[0]) &&
         X->madeDicts(St->Self->Class)
             .contains(F.text(field(Dict, "attribute")));
}

bool Builder::dictAttributeRead(TSNode N, Value &Out) {
  // self.d[k], self.d.get(k), self.d.pop(k): the dict's value.
  TSNode Dict{};
  std::vector<TSNode> Keys;
  if (is(N, "subscript")) {
    Dict = field(N, "value");
    Keys = fieldChildren(N, "subscript");
  } else if (is(N, "call") && is(field(N, "function"), "attribute")) {
    llvm::StringRef M = F.text(field(field(N, "function"), "attribute"));
    if (M != "get" && M != "pop")
      return false;
    Dict = field(field(N, "function"), "object");
    Keys = children(field(N, "arguments"));
  }
  VarId Var = ts_node_is_null(Dict) ? NoVar : dictAttributeVar(Dict);
  if (Var == NoVar)
    return false;
  for (TSNode K : Keys)
    expr(K);
  Out = Value();
  Out.Node = N;
  Out.Class = VarClass::Tensor;
  Out.Tensor = TensorRef::var(Var);
  return true;
}

bool Builder::dictAttributeStore(TSNode Target, const Value &V) {
  if (!is(Target, "subscript"))
    return false;
  VarId Var = dictAttributeVar(field(Target, "value"));
  if (Var == NoVar)
    return false;
  for (TSNode K : fieldChildren(Target, "subscript"))
    expr(K);
  emit(site(SiteKind::Other, Target),
       fact::BindTensor{Var,
                        V.Class == VarClass::Tensor ? V.Tensor : TensorRef()});
  return true;
}

} // namespace streamsafe::py
