//===--- Dicts.cpp - Dicts of tensors with constant keys ------------------===//
//
// A dict literal whose keys are all plain strings, bound once to a name,
// is followed entry by entry: each key is a tensor variable of its own
// ('bufs["x"]'), bound by the literal and by `d["k"] = v`, read by
// `d["k"]` and `d.get("k")`. What the analysis cannot follow lets go of
// every entry (they hold nothing known afterwards): a store under a key
// that is not a constant, `del`, update(), pop(), and the dict handed to
// any code. An entry is never taken to die with the dict, so no
// record_stream is owed for it.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"

namespace streamsafe::py {

/// The one plain-string subscript of \p Subscript (empty: another index).
static llvm::StringRef constantKey(TSNode Subscript, const SourceFile &F) {
  std::vector<TSNode> Index = fieldChildren(Subscript, "subscript");
  return Index.size() == 1 ? plainString(unparen(Index[0]), F)
                           : llvm::StringRef();
}

Value Builder::dictLiteral(TSNode N) {
  Value V;
  V.Node = N;
  bool Keyed = true;
  for (TSNode Pair : children(N))
    Keyed &= is(Pair, "pair") && !plainString(field(Pair, "key"), F).empty();
  // Named after the variable it is bound to: 'bufs["x"]'.
  TSNode Up = ts_node_parent(N);
  Keyed &= is(Up, "assignment") && is(field(Up, "left"), "identifier");
  Instance *D = nullptr;
  if (Keyed) {
    D = &Objs.make();
    D->Keyed = true;
    D->Name = F.text(field(Up, "left")).str();
    V.Object = D;
  }
  for (TSNode Pair : children(N))
    for (TSNode C : children(Pair)) {
      Value E = expr(C);
      if (E.Class == VarClass::Tensor && E.Tensor)
        V.Held.push_back(E.Tensor);
      if (!D || C.id != field(Pair, "value").id)
        continue;
      llvm::StringRef Key = plainString(field(Pair, "key"), F);
      if (E.Class != VarClass::Tensor || D->Attrs.count(Key))
        continue; // a later value under the same key: not followed
      Variable Entry;
      Entry.Name = D->Name + "[" + F.text(field(Pair, "key")).str() + "]";
      Entry.Class = VarClass::Tensor;
      IR->Vars.push_back(std::move(Entry));
      D->Attrs[Key] = IR->Vars.size() - 1;
      emit(site(SiteKind::Other, C),
           fact::BindTensor{VarId(IR->Vars.size() - 1), E.Tensor});
    }
  return V;
}

bool Builder::dictEntry(TSNode Subscript, Value &Out) {
  const Instance *D = objectNamed(unparen(field(Subscript, "value")));
  if (!D || !D->Keyed)
    return false;
  auto It = D->Attrs.find(constantKey(Subscript, F));
  if (It == D->Attrs.end())
    return false;
  Out = Value();
  Out.Node = Subscript;
  Out.Class = VarClass::Tensor;
  Out.Tensor = TensorRef::var(It->second);
  return true;
}

void Builder::forgetEntries(const Instance &D, TSNode At) {
  for (const auto &E : D.Attrs)
    emit(site(SiteKind::Other, At), fact::BindTensor{E.second, TensorRef()});
}

bool Builder::storeDictEntry(TSNode Target, const Value &V) {
  const Instance *D = objectNamed(unparen(field(Target, "value")));
  if (!D || !D->Keyed)
    return false;
  llvm::StringRef Key = constantKey(Target, F);
  for (TSNode S : fieldChildren(Target, "subscript"))
    expr(S);
  if (Key.empty()) {
    forgetEntries(*D, Target); // which entry it replaces is not known
    escape(V, Target);
    return true;
  }
  auto It = D->Attrs.find(Key);
  if (It == D->Attrs.end()) {
    if (V.Class != VarClass::Tensor)
      return true; // not a tensor: not followed
    Variable Entry;
    Entry.Name = D->Name + "[" +
                 F.text(unparen(fieldChildren(Target, "subscript")[0])).str() +
                 "]";
    Entry.Class = VarClass::Tensor;
    IR->Vars.push_back(std::move(Entry));
    It = D->Attrs.try_emplace(Key, IR->Vars.size() - 1).first;
  }
  emit(site(SiteKind::Other, Target),
       fact::BindTensor{It->second,
                        V.Class == VarClass::Tensor ? V.Tensor : TensorRef()});
  return true;
}

bool Builder::dictMethod(TSNode Call, Value &Out) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute"))
    return false;
  const Instance *D = objectNamed(unparen(field(Fn, "object")));
  if (!D || !D->Keyed)
    return false;
  llvm::StringRef Method = F.text(field(Fn, "attribute"));
  Args A = argsOf(Call);
  Out = Value();
  Out.Node = Call;
  if (Method == "get" && !A.Positional.empty() && A.Keywords.empty()) {
    llvm::StringRef Key = plainString(unparen(A.Positional[0]), F);
    for (size_t K = 1; K < A.Positional.size(); ++K)
      escape(expr(A.Positional[K]), A.Positional[K]);
    auto It = D->Attrs.find(Key);
    if (!Key.empty() && It != D->Attrs.end()) {
      Out.Class = VarClass::Tensor;
      Out.Tensor = TensorRef::var(It->second);
    }
    return true;
  }
  // Reading the keys changes nothing; values() and items() hand out the
  // entries, not followed from there (they stay what they are).
  if (Method == "keys" || Method == "values" || Method == "items" ||
      Method == "__contains__") {
    unknownCall(A, false);
    return true;
  }
  // update, pop, popitem, setdefault, clear, ...: the entries change.
  unknownCall(A, true);
  forgetEntries(*D, Call);
  return true;
}

} // namespace streamsafe::py
