//===--- JoinedStreams.h - Whether users can wait for a held stream -*- C++
//-*-===//
//
// An object's stream that a method leaves work on is its users' to wait
// for: they can only if some code makes another stream or the host wait
// for it. The rule, for both front ends: each reads every use of a held
// stream (by its member's or attribute's name, anywhere in the unit) into
// a HeldStreamUse and asks joinsForUsers(); a stream none of whose uses
// joins, in a unit with no device-wide synchronize, is never joined
// (Variable::NeverJoined), and a write left on it for the caller is
// reported (lib/engine/DiagnoseLeftInFlight.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_JOINEDSTREAMS_H
#define STREAMSAFE_LIB_LOWER_JOINEDSTREAMS_H

#include <cstdint>

namespace streamsafe::lower {

/// What one use of a held stream does.
enum class HeldStreamUse : uint8_t {
  Bind,    ///< assigned (`self.s = torch.cuda.Stream()`)
  Test,    ///< compared, tested (`if self.s is None`)
  Enter,   ///< made current (a guard, `with torch.cuda.stream(self.s)`)
  Waits,   ///< it waits (`self.s.wait_stream(x)`, `self.s.wait_event(e)`)
  Records, ///< a tensor is recorded on it (`t.record_stream(self.s)`)
  /// An event is recorded on it and kept where nothing waits on it as a
  /// handle (in a container, per tensor): it orders only what came before.
  EventKeptAside,
  /// An event recorded on it is waited where it is recorded, or kept in an
  /// attribute or member for a later wait.
  EventToWait,
  WaitedFor,    ///< another stream waits for it (`x.wait_stream(self.s)`)
  Synchronized, ///< the host waits for it (`self.s.synchronize()`)
  /// Anything else: handed to other code, aliased, returned.
  HandedOn,
};

/// Whether \p U lets the stream's users wait for its work.
bool joinsForUsers(HeldStreamUse U);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_JOINEDSTREAMS_H
