//===--- ParameterFields.cpp - Fields of the objects a caller hands in ----===//

#include "lib/python/ParameterFields.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

void addParameterFields(
    Scope &S, const llvm::StringMap<VarClass> &ByUse,
    const llvm::StringMap<std::vector<TSNode>> &Values,
    const llvm::StringMap<std::vector<std::pair<TSNode, int>>> &Elements,
    const SourceFile &F) {
  // Most defs use no field as a tensor: nothing to read then.
  if (llvm::none_of(ByUse, [](const auto &E) {
        return E.second == VarClass::Tensor && E.getKey().contains('.');
      }))
    return;
  bool Method = !ts_node_is_null(classOf(S.Node)) && !staticMethod(S.Node, F) &&
                !S.Params.empty();
  llvm::StringSet<> Stored;
  ownCode(field(S.Node, "body"), [&](TSNode X) {
    if (is(X, "assignment") || is(X, "for_statement"))
      everyNode(field(X, "left"), [&](TSNode A) {
        if (std::string K = useKey(A, F); K.find('.') != std::string::npos)
          Stored.insert(K);
      });
  });
  auto Parameter = [&](llvm::StringRef Name) {
    for (size_t K = Method ? 1 : 0; K < S.Params.size(); ++K)
      if (F.text(S.Params[K]) == Name)
        return true;
    return false;
  };
  // A container the caller handed in: a parameter, or the object's
  // attribute.
  auto CallersContainer = [&](TSNode C) {
    C = unparen(C);
    if (is(C, "identifier"))
      return Parameter(F.text(C));
    TSNode O = unparen(field(C, "object"));
    return Method && is(C, "attribute") && is(O, "identifier") &&
           F.text(O) == F.text(S.Params[0]);
  };
  for (const auto &E : ByUse) {
    auto [Object, Field] = llvm::StringRef(E.getKey()).split('.');
    if (Field.empty() || E.second != VarClass::Tensor || Values.count(Object) ||
        Stored.contains(E.getKey()))
      continue;
    auto Element = Elements.find(Object);
    bool Handed = Element == Elements.end()
                      ? Parameter(Object)
                      : !Parameter(Object) &&
                            llvm::all_of(Element->second, [&](const auto &Of) {
                              return CallersContainer(Of.first);
                            });
    if (Handed)
      S.ParamFields.insert(E.getKey());
  }
}

} // namespace streamsafe::py
