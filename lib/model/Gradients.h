//===--- Gradients.h - Autograd's gradients and the optimizer ---*- C++ -*-===//
//
// A training step splits its work between autograd and the optimizer:
// `loss.backward()` writes the gradients of the parameters the loss reaches,
// and they are ready on the stream current at the call (PyTorch's "stream
// semantics of backward passes": the backward ops run on their forward ops'
// streams and the call joins them to the ambient stream); `opt.step()`
// reads them on its current stream, and `opt.zero_grad()` writes them (or
// drops them). A step run on another stream than the backward, with no wait
// between them, reads gradients still being written (torchrec's semi-sync
// pipeline). The gradients are one location: which parameters an optimizer
// holds is the program's convention, not its code's.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_GRADIENTS_H
#define STREAMSAFE_LIB_MODEL_GRADIENTS_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe::gradients {

/// What a call does to the gradients.
enum class Use { None, Read, Write };

/// `t.backward(...)` of a tensor: autograd writes the gradients.
Use ofTensorMethod(llvm::StringRef Method);
/// A method of an optimizer: step() reads them, zero_grad() writes them.
Use ofOptimizerMethod(llvm::StringRef Method);
/// Whether code that calls both step() and zero_grad() on one object says
/// it is an optimizer: an LR scheduler has no zero_grad(), a module no
/// step().
bool optimizerByUse(bool CallsStep, bool CallsZeroGrad);

} // namespace streamsafe::gradients

#endif // STREAMSAFE_LIB_MODEL_GRADIENTS_H
