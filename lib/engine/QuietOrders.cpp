//===--- QuietOrders.cpp - Waits nothing was enqueued after ---------------===//

#include "lib/engine/QuietOrders.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe {

void QuietOrders::recorded(VarId Event, StreamId On) {
  llvm::erase_if(Records, [&](const auto &R) { return R.first == Event; });
  Records.push_back({Event, On});
  llvm::sort(Records);
}

void QuietOrders::waited(VarId Event, StreamId Waiter) {
  auto R =
      llvm::find_if(Records, [&](const auto &X) { return X.first == Event; });
  if (R == Records.end() || Waiter == StreamTable::Unknown ||
      Waiter == R->second)
    return;
  StreamId On = R->second;
  auto W = llvm::lower_bound(
      WaitedBy, On, [](const auto &X, StreamId S) { return X.first < S; });
  if (W == WaitedBy.end() || W->first != On)
    W = WaitedBy.insert(W, {On, 0});
  W->second |= StreamTable::bit(Waiter);
}

void QuietOrders::enqueued(StreamId On) {
  if (empty())
    return;
  if (On == StreamTable::Unknown) {
    Records.clear();
    WaitedBy.clear();
    return;
  }
  llvm::erase_if(Records, [&](const auto &R) { return R.second == On; });
  llvm::erase_if(WaitedBy, [&](const auto &W) { return W.first == On; });
}

uint64_t QuietOrders::waitersOf(StreamId On) const {
  for (const auto &[Stream, Bits] : WaitedBy)
    if (Stream == On)
      return Bits;
  return 0;
}

void QuietOrders::join(const QuietOrders &O) {
  llvm::erase_if(Records, [&](const auto &R) {
    return !llvm::is_contained(O.Records, R);
  });
  llvm::SmallVector<std::pair<StreamId, uint64_t>, 0> Both;
  for (const auto &[Stream, Bits] : WaitedBy)
    if (uint64_t B = Bits & O.waitersOf(Stream))
      Both.push_back({Stream, B});
  WaitedBy = std::move(Both);
}

} // namespace streamsafe
