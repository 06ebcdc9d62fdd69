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
//    isinstance) does nothing the analysis follows.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H
#define STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H

#include <cstdint>

namespace streamsafe::lower {

enum class UnknownCallee : uint8_t { Program, Keeps, Inspects };

struct UnknownEffects {
  bool ReadsTensors = false;
  bool KeepsTensors = false;
  bool MayUseStreams = false;
  bool MayWaitForThreads = false;
};

UnknownEffects unknownCallEffects(UnknownCallee C);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_UNKNOWNCODE_H
