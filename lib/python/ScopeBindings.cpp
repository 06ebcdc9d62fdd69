//===--- ScopeBindings.cpp - What a Python scope binds, from its syntax ---===//

#include "lib/python/ScopeBindings.h"

namespace streamsafe::py {

void targetNames(TSNode N, const SourceFile &F,
                 std::vector<llvm::StringRef> &Out) {
  N = unparen(N);
  if (is(N, "identifier")) {
    Out.push_back(F.text(N));
    return;
  }
  if (is(N, "pattern_list") || is(N, "tuple_pattern") ||
      is(N, "list_pattern") || is(N, "list_splat_pattern") || is(N, "tuple") ||
      is(N, "list"))
    for (TSNode C : children(N))
      targetNames(C, F, Out);
}

bool defBinds(TSNode Def, llvm::StringRef Name, const SourceFile &F) {
  ScopeBindings Inner(F);
  for (TSNode C : children(field(Def, "body")))
    Inner.walk(C);
  return Inner.bindsOwn(Def, Name);
}

bool ScopeBindings::bindsOwn(TSNode Def, llvm::StringRef Name) const {
  std::vector<llvm::StringRef> Params;
  for (TSNode P : children(field(Def, "parameters"))) {
    TSNode Param = is(P, "identifier")        ? P
                   : is(P, "typed_parameter") ? ts_node_named_child(P, 0)
                                              : field(P, "name");
    if (!ts_node_is_null(Param))
      targetNames(Param, F, Params);
  }
  return llvm::is_contained(Params, Name) ||
         ((Values.count(Name) || Elements.count(Name)) &&
          !NotLocal.contains(Name));
}

} // namespace streamsafe::py
