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
// A nested def analysed on its own also starts with what its enclosing
// defs left in their variables, which it cannot see. One such value is
// known: a stream variable of an enclosing def whose every binding is
// `torch.cuda.current_stream()` holds the stream that was current there,
// and `torch.cuda.set_stream(prev)` in the nested def sets it back (a
// restore through a closure variable). Judged on its own, the nested def
// takes that stream to be its caller's, as it takes the default stream set
// back to be a reset rather than guess what the caller had.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
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

void Builder::bindClosureStreams(const Scope &S) {
  TSNode At = field(S.Node, "body");
  for (const Scope *Outer = S.Parent; Outer && Outer->K != Scope::Module;
       Outer = Outer->Parent)
    for (const auto &E : Outer->Locals) {
      llvm::StringRef Name = E.getKey();
      if (E.second != VarClass::Stream || S.owner(Name) != Outer ||
          Outer->Elements.count(Name) ||
          llvm::any_of(Outer->Params,
                       [&](TSNode P) { return F.text(P) == Name; }))
        continue;
      std::vector<TSNode> B = Outer->Bindings.lookup(Name);
      auto Saved = [&](TSNode V) {
        V = unparen(V);
        return is(V, "call") &&
               apiOf(I.qualify(field(V, "function"))) == PyApi::CurrentStream &&
               children(field(V, "arguments")).empty();
      };
      if (B.empty() || !llvm::all_of(B, Saved))
        continue;
      VarId V = varOf(Name);
      if (V == NoVar)
        continue;
      emit(siteAt(SiteKind::Other, start(At), ts_node_start_byte(At)),
           fact::BindStream{V, StreamRef::current()});
    }
}

} // namespace streamsafe::py
