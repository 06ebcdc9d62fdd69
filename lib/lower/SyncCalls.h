//===--- SyncCalls.h - Records, waits and synchronizations to facts -*- C++
//-*-===//
//
// What a call that records an event, makes a stream wait, or makes the
// host wait means, once for both languages: each front end resolves the
// call's event and stream operands from its syntax into a SyncCall and
// emits the steps of syncCallSteps() at its own nodes, as a tensor call's
// recipe (lib/model/Recipes.h). What an omitted stream operand means is
// the rule's too (omittedStream).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_SYNCCALLS_H
#define STREAMSAFE_LIB_LOWER_SYNCCALLS_H

#include "lib/model/Recipes.h"
#include <optional>

namespace streamsafe::lower {

/// What an omitted stream operand of a call of \p E means: the CUDA
/// runtime's calls take the legacy default stream (0); LibTorch's and
/// PyTorch's methods the current stream.
StreamRef omittedStream(ApiEffect E);

struct SyncCall {
  ApiEffect Effect = ApiEffect::None;
  /// Where the call is written (the front end's node index).
  unsigned AtCall = 0;
  /// The event it records, waits on or synchronizes (NoVar: one the front
  /// end does not follow, taken to order everything).
  VarId Event = NoVar;
  /// The stream it records on, makes wait, or synchronizes.
  StreamRef Stream = StreamRef::unknown();
  /// The enclosing loop records the event after the wait (C++).
  bool RecordedLaterInLoop = false;
  /// cudaStreamWaitEvent with flags that may be cudaEventWaitExternal.
  bool External = false;
  /// `s.wait_stream(o)`: the stream waited for, where it is written, and
  /// the event variable that stands for it (an event recorded on it that
  /// Stream waits on; one variable serves every call).
  std::optional<StreamRef> Awaited;
  unsigned AtAwaited = 0;
  VarId AwaitedEvent = NoVar;
};

/// The facts of \p C, in order; none when its effect records, waits on and
/// synchronizes nothing.
std::optional<Recipe> syncCallSteps(const SyncCall &C);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_SYNCCALLS_H
