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

} // namespace streamsafe::py
