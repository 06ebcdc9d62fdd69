//===--- QuietOrders.h - Waits nothing was enqueued after -------*- C++ -*-===//
//
// `side.wait_stream(current)` orders side after every kernel queued on the
// current stream so far. A block the allocator hands out on the current
// stream next had its earlier users there, all of them before the wait
// while nothing has been enqueued on it since: the allocation is then
// ordered before side's work too (`out = torch.empty(...)` after the wait,
// filled under `with torch.cuda.stream(side):`). As StreamState::Idle for
// the host's waits, this is a must fact: a join keeps what both paths have.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_QUIETORDERS_H
#define STREAMSAFE_LIB_ENGINE_QUIETORDERS_H

#include "lib/engine/StreamTable.h"
#include "lib/ir/IR.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <utility>

namespace streamsafe {

struct QuietOrders {
  /// Events recorded on a stream with nothing enqueued on it since (sorted).
  llvm::SmallVector<std::pair<VarId, StreamId>, 0> Records;
  /// For a stream, the streams (a bit each) that waited for all of its
  /// work, nothing enqueued on it since (sorted by stream).
  llvm::SmallVector<std::pair<StreamId, uint64_t>, 0> WaitedBy;

  /// \p Event was recorded on \p On (a known stream).
  void recorded(VarId Event, StreamId On);
  /// \p Waiter waited for \p Event: for all of its stream's work when that
  /// stream has been quiet since the record.
  void waited(VarId Event, StreamId Waiter);
  /// Work was enqueued on \p On (StreamTable::Unknown: on any stream).
  void enqueued(StreamId On);
  /// The streams ordered after all of \p On's work so far.
  uint64_t waitersOf(StreamId On) const;
  /// What both paths have.
  void join(const QuietOrders &O);
  bool empty() const { return Records.empty() && WaitedBy.empty(); }
  bool operator==(const QuietOrders &O) const {
    return Records == O.Records && WaitedBy == O.WaitedBy;
  }
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_QUIETORDERS_H
