//===--- GradientHooks.h - A hook autograd hands a gradient -----*- C++ -*-===//
//
// A gradient hook (`t.register_hook(fn)`, or a project's wrapper named so:
// ColossalAI's `register_backward_hooks`) is called by autograd with the
// gradient it made, on the stream of the backward op that made it, which is
// current while the hook runs. When the hook returns a tensor, autograd
// takes that as the gradient and lets go of the one it handed: its last
// reference, so the block goes back to the allocator at the return. Work
// the hook queued on another stream that still reads the gradient then
// races the next backward kernels given the block, unless it was recorded
// there (ColossalAI's sharded model: `grad.clone()` on the reduction
// stream, an empty replacement returned). A hook that returns None, or the
// gradient itself, leaves it to autograd.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_GRADIENTHOOKS_H
#define STREAMSAFE_LIB_MODEL_GRADIENTHOOKS_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe::gradient_hooks {

/// Whether a call of a function or method named \p Callee (its last name)
/// registers its callable argument as a gradient hook: `register_hook`, or
/// a name that registers a hook of gradients (`register_*hook*` with
/// "grad" or "backward" in it). A hook called after the gradient is
/// accumulated is handed the parameter, not a gradient.
bool registersGradientHook(llvm::StringRef Callee);

/// Which parameter of the hook is the gradient, of \p Count positional ones
/// (its object's aside): the last one (a wrapper binds its own arguments
/// first, as functools.partial does).
inline unsigned gradientParameter(unsigned Count) {
  return Count ? Count - 1 : 0;
}

/// What a return of the hook does with the gradient.
enum class AtReturn {
  Kept,   ///< autograd keeps it (no value, None, the gradient itself)
  Dropped ///< a replacement: autograd lets go of it
};
AtReturn atReturn(bool ReturnsValue, bool ReturnsNone, bool ReturnsGradient);

} // namespace streamsafe::gradient_hooks

#endif // STREAMSAFE_LIB_MODEL_GRADIENTHOOKS_H
