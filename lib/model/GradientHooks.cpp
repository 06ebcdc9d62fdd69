//===--- GradientHooks.cpp - A hook autograd hands a gradient -------------===//

#include "lib/model/GradientHooks.h"

namespace streamsafe::gradient_hooks {

bool registersGradientHook(llvm::StringRef Callee) {
  if (Callee == "register_hook")
    return true;
  if (!Callee.starts_with("register") || !Callee.contains("hook") ||
      Callee.contains("accumulate"))
    return false;
  return Callee.contains("grad") || Callee.contains("backward");
}

AtReturn atReturn(bool ReturnsValue, bool ReturnsNone, bool ReturnsGradient) {
  return ReturnsValue && !ReturnsNone && !ReturnsGradient ? AtReturn::Dropped
                                                          : AtReturn::Kept;
}

} // namespace streamsafe::gradient_hooks
