//===--- SideParameters.h - When a stream parameter is a side stream -*- C++
//-*-===//
//
// A stream parameter may be the caller's current stream, so work on it is
// not reported against work on the current stream. A function that itself
// treats the parameter as another stream says otherwise: it enters it (a
// guard, `with torch.cuda.stream(s):`, a set-current call), makes it wait
// on the current stream or the current stream wait on it (`wait_stream`),
// or orders the two with an event recorded on one and waited on by the
// other. Such a parameter is taken to differ from the caller's current
// stream at the entry (StreamProof::SideParameter), unless a call may leave
// it out (it has a default), the function rebinds it, or a caller the
// front end sees passes the current stream for it.
//
// The rule, for both front ends: each reads its syntax into StreamUse
// records (its own body's calls, in source order, nested functions and
// lambdas aside) and asks sideStreamUse().
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_SIDEPARAMETERS_H
#define STREAMSAFE_LIB_LOWER_SIDEPARAMETERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>

namespace streamsafe::lower {

/// What a stream operand is, as far as this question goes.
enum class StreamRole : uint8_t { Other, Current, Parameter };

/// One call of the function's own code that bears on the question.
struct StreamUse {
  enum Kind : uint8_t {
    /// `Stream` is made current (a guard, a set-current call, a `with`).
    Enter,
    /// `Stream` waits for all work queued so far on `Awaited`.
    WaitStream,
    /// `Event` is recorded on `Stream`.
    RecordEvent,
    /// `Stream` waits for `Event`.
    WaitEvent,
  };
  Kind K = Enter;
  StreamRole Stream = StreamRole::Other;
  StreamRole Awaited = StreamRole::Other;
  /// The event, as the front end identifies it (a declaration, the text
  /// that names it); 0 when it is not known.
  uintptr_t Event = 0;
  /// The front end's node of the call, handed back as the proof's site.
  const void *At = nullptr;
};

/// What is known of the parameter itself.
struct ParameterFacts {
  /// A call may leave it out: the default may be the current stream.
  bool Defaulted = false;
  /// The function binds it to another value in its body.
  bool Rebound = false;
};

/// The first of \p Uses (in source order) that shows the function treats
/// its parameter as a stream other than the current one, when \p P allows
/// the proof and \p GivenCurrent (asked last: it may search every caller)
/// says no caller passes the current stream for it; null otherwise.
const StreamUse *sideStreamUse(llvm::ArrayRef<StreamUse> Uses,
                               const ParameterFacts &P,
                               llvm::function_ref<bool()> GivenCurrent);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_SIDEPARAMETERS_H
