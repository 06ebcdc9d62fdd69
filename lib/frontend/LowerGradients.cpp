//===--- LowerGradients.cpp - backward() and the optimizer's step ---------===//
//
// The gradients of lib/model/Gradients.h as one tensor of the function,
// with nothing pending where it is first used: `loss.backward()` writes it
// on the current stream, a torch::optim::Optimizer's step() reads it and its
// zero_grad() writes it. C++ says which objects are optimizers by their
// type (Python's front end knows them by use).
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/model/Gradients.h"

using namespace clang;

namespace streamsafe {

/// Whether \p RD is torch::optim::Optimizer or derives from it.
static bool isOptimizer(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  if (RD->getQualifiedNameAsString() == "torch::optim::Optimizer")
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (isOptimizer(B.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

bool Lowering::lowerGradientUse(const CallExpr *CE, FactList &Out) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  const Expr *Self = MC ? MC->getImplicitObjectArgument() : nullptr;
  // (By name first: most member calls are neither, and the base walk is
  // not free.)
  if (!MD || !MD->getIdentifier() || !Self ||
      (gradients::ofTensorMethod(MD->getName()) == gradients::Use::None &&
       gradients::ofOptimizerMethod(MD->getName()) == gradients::Use::None))
    return false;
  bool Optimizer = isOptimizer(MD->getParent());
  gradients::Use U = Optimizer ? gradients::ofOptimizerMethod(MD->getName())
                     : Table.classify(Self->getType()) == ValueClass::Tensor
                         ? gradients::ofTensorMethod(MD->getName())
                         : gradients::Use::None;
  if (U == gradients::Use::None)
    return false;
  if (GradientsVar == NoVar) {
    Variable V;
    V.Name = "gradients";
    V.Class = VarClass::Tensor;
    V.Synthetic = true;
    IR.Vars.push_back(std::move(V));
    GradientsVar = static_cast<VarId>(IR.Vars.size() - 1);
    emit(Out, site(SiteKind::Other, CE),
         fact::BindTensor{GradientsVar, TensorRef()});
  }
  emit(Out, site(SiteKind::Access, CE),
       fact::Access{U == gradients::Use::Write, TensorRef::var(GradientsVar),
                    StreamRef::current()});
  return Optimizer;
}

} // namespace streamsafe
