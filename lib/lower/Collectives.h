//===--- Collectives.h - Where a collective runs, and its facts -*- C++ -*-===//
//
// A c10d / torch.distributed collective, when asynchronous, runs on its
// process group's internal stream, after making that stream wait for the
// stream current at the call; it reads its inputs and writes its outputs
// there, and the work keeps its tensors from the allocator until it is done
// (recordStream up to 2.7, held by the work from 2.8). Its work handle is
// an event recorded on the group's stream after the work: `wait()` makes
// the stream current there wait (docs/api-model.md, "Collectives").
//
// The rule, for both front ends: the handle is followed where a local
// takes it or where it is dropped (nothing will wait). Handed anywhere else
// (a list of pending works, a helper, a member), its wait is not seen: the
// call is taken as ordered on the current stream, so nothing is reported
// that a wait elsewhere may order. A group the front end cannot name, or a
// call whose async flag it cannot read, runs on a stream not known. Each
// front end reads a call into a CollectiveCall and emits the steps of
// lowerCollective() at its own syntax nodes.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_COLLECTIVES_H
#define STREAMSAFE_LIB_LOWER_COLLECTIVES_H

#include "lib/model/Recipes.h"

namespace streamsafe::lower {

/// How a collective call runs as written.
enum class CollectiveMode : uint8_t {
  Sync,       ///< synchronous: ordered on the current stream
  Async,      ///< on the group's stream, with a work handle
  Unknown,    ///< its async flag is not written out as a literal
  Functional, ///< a functional collective: its result waits where used
};

/// Where the call's work handle goes.
enum class WorkUse : uint8_t {
  Bound,    ///< a local handle takes it
  Dropped,  ///< nothing takes it: nothing will wait
  HandedOn, ///< anything else: waited where the analysis does not see
};

struct CollectiveCall {
  CollectiveMode Mode = CollectiveMode::Sync;
  WorkUse Use = WorkUse::HandedOn;
  /// The group's stream (StreamRef::Collective), or unknown.
  StreamRef Group = StreamRef::unknown();
  /// The event variable the front end keeps for "the group's stream waits
  /// for the current one" (one serves every call of a function).
  VarId Ready = NoVar;
  /// Where the call is written (the front end's node index).
  unsigned AtCall = 0;
  /// Its tensors read and written, in the order they are lowered.
  llvm::SmallVector<SitedTensor, 4> Reads, Writes;
};

struct LoweredCollective {
  Recipe Steps;
  /// The stream it runs on.
  StreamRef On = StreamRef::current();
  /// Whether it returns a followed work handle: an event to record on On
  /// after the steps.
  bool Handle = false;
};

LoweredCollective lowerCollective(const CollectiveCall &C);

} // namespace streamsafe::lower

#endif // STREAMSAFE_LIB_LOWER_COLLECTIVES_H
