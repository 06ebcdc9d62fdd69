//===--- Gradients.cpp - Python's backward() and optimizer steps ----------===//
//
// The gradients of lib/model/Gradients.h as one tensor of the analysed
// function, with nothing pending on it where it is first used: `t.backward()`
// writes it where it is called, an optimizer's step() reads it and its
// zero_grad() writes it. An object is an optimizer when the code of its
// class (or of the def, for a local) calls both on the same expression.
//
//===----------------------------------------------------------------------===//

#include "lib/model/Gradients.h"
#include "lib/python/Builder.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

/// Whether the code of \p Within calls both step() and zero_grad() on an
/// expression written as \p Receiver.
static bool optimizerIn(TSNode Within, llvm::StringRef Receiver,
                        const SourceFile &F) {
  bool Step = false, ZeroGrad = false;
  everyNode(Within, [&](TSNode N) {
    TSNode Fn = field(N, "function");
    if (!is(N, "call") || !is(Fn, "attribute") ||
        F.text(unparen(field(Fn, "object"))) != Receiver)
      return;
    gradients::Use U =
        gradients::ofOptimizerMethod(F.text(field(Fn, "attribute")));
    Step |= U == gradients::Use::Read;
    ZeroGrad |= U == gradients::Use::Write;
  });
  return gradients::optimizerByUse(Step, ZeroGrad);
}

bool Builder::gradientUse(TSNode Call, TSNode Of, llvm::StringRef Method) {
  gradients::Use U = ts_node_is_null(Of) ? gradients::ofTensorMethod(Method)
                                         : gradients::ofOptimizerMethod(Method);
  // `model(x).sum().backward()`: backward() with no gradient given, of a
  // value of code the analysis does not see, is a tensor's (an engine's
  // backward takes the loss).
  if (!ts_node_is_null(Of) &&
      gradients::ofTensorMethod(Method) != gradients::Use::None &&
      children(field(Call, "arguments")).empty() &&
      infer::opaqueValue(Of, F, I)) {
    Of = TSNode{};
    U = gradients::ofTensorMethod(Method);
  }
  if (U == gradients::Use::None)
    return false;
  if (!ts_node_is_null(Of)) {
    TSNode Class = classOf(St->S->Node);
    TSNode Within = !ts_node_is_null(Class)     ? Class
                    : St->S->K == Scope::Module ? St->S->Node
                                                : field(St->S->Node, "body");
    if (!optimizerIn(Within, F.text(unparen(Of)), F))
      return false;
  }
  auto [It, New] = Synthetic.try_emplace({"gradients", Root->Node.id}, NoVar);
  // (What made them before is not this function's: nothing pending.)
  if (New) {
    It->second = newSyntheticVar("gradients", VarClass::Tensor);
    emit(site(SiteKind::Other, Call),
         fact::BindTensor{It->second, TensorRef()});
  }
  Value G;
  G.Class = VarClass::Tensor;
  G.Tensor = TensorRef::var(It->second);
  access(U == gradients::Use::Write, G, Call);
  return true;
}

} // namespace streamsafe::py
