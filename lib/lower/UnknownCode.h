//===--- UnknownCode.h - What code the analysis does not see does -*- C++
//-*-===//
//
// A call of code the analysis does not see (no API of the model, no helper
// it runs in place) is taken, in both languages, to do what such code may
// do with what it is handed, as far as the callee is known:
//  * a function, method or module of the program (or an op of PyTorch's
//    the model lacks) computes with the tensors it is handed on the
//    current stream (and fills there what it is handed that nothing has
//    written since an allocation without values: fact::Access::
//    FillsIfBlank), keeps them, may record or wait on events with a
//    stream it is handed, and may wait for another thread of the program
//    (a join, a latch of its own): taken to, precision first;
//  * library code that only stores what it is handed (C++ std:: and c10::,
//    a Python container's own method, a class's constructor) keeps it, and
//    does nothing else the analysis follows;
//  * a Python builtin that only inspects its arguments (print, len,
//    isinstance) does nothing the analysis follows;
//  * program code named as a CUDA op (`set_cuda`, by the `*_cuda` naming
//    of PyTorch's own kernels and extensions), called or handed to a
//    wrapper as a callable, acts as the program's code does, but its work
//    is enqueued on the current stream: host memory it is handed is read
//    in stream order, as a copy reads it, not now by the host.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H
#define STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace streamsafe::lower {

enum class UnknownCallee : uint8_t { Program, DeviceOp, Keeps, Inspects };

struct UnknownEffects {
  bool ReadsTensors = false;
  bool KeepsTensors = false;
  bool MayUseStreams = false;
  bool MayWaitForThreads = false;
  /// Host memory it reads is read in stream order (a copy), not now.
  bool ReadsInStreamOrder = false;
};

UnknownEffects unknownCallEffects(UnknownCallee C);

/// Whether \p Name (a function's or method's) names a CUDA op: `*_cuda`.
bool namesDeviceOp(llvm::StringRef Name);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H
