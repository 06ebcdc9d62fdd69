//===--- Gradients.cpp - Autograd's gradients and the optimizer ----------===//

#include "lib/model/Gradients.h"

namespace streamsafe::gradients {

Use ofTensorMethod(llvm::StringRef Method) {
  return Method == "backward" ? Use::Write : Use::None;
}

Use ofOptimizerMethod(llvm::StringRef Method) {
  if (Method == "step")
    return Use::Read;
  if (Method == "zero_grad")
    return Use::Write;
  return Use::None;
}

bool optimizerByUse(bool CallsStep, bool CallsZeroGrad) {
  return CallsStep && CallsZeroGrad;
}

} // namespace streamsafe::gradients
