//===--- Lifetimes.cpp - A def's tensor locals before their assignment ----===//
//
// A Python local exists from its first assignment, but what the solver
// needs is what C++ gets from `at::Tensor staging;` before a loop: a
// variable bound on every path. A def's tensor locals are bound to no value
// at its entry, so a loop that assigns one (`staging = f(batch)`) leaves it
// bound to a phi of "nothing yet" and the last iteration's tensor at the
// loop's exit: that tensor dies at the end of the def, where
// missing-record-stream looks for it. Assigning again inside the loop lets
// go of the previous iteration's tensor, as in C++.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

void Builder::declareLocals(const Scope &S) {
  TSNode At = S.K == Scope::Module ? S.Node : field(S.Node, "body");
  for (const auto &E : S.Locals) {
    if (E.second != VarClass::Tensor || llvm::any_of(S.Params, [&](TSNode P) {
          return F.text(P) == E.getKey();
        }))
      continue;
    VarId V = varOf(E.getKey());
    if (V == NoVar || IR->var(V).Persistent)
      continue;
    emit(siteAt(SiteKind::Other, start(At), ts_node_start_byte(At)),
         fact::BindTensor{V, TensorRef()});
  }
}

} // namespace streamsafe::py
