//===--- HostOrder.cpp - The facts of a host wait or signal ---------------===//

#include "lib/model/HostOrder.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe {

bool isHostOrder(ApiEffect E) {
  return E == ApiEffect::HostWait || E == ApiEffect::HostSignal ||
         E == ApiEffect::HostSignalAndWait || E == ApiEffect::HostWaitAny;
}

llvm::SmallVector<Fact::Op, 2> hostOrderFacts(ApiEffect E, VarId Channel) {
  llvm::SmallVector<Fact::Op, 2> Ops;
  if ((E == ApiEffect::HostSignal || E == ApiEffect::HostSignalAndWait) &&
      Channel != NoVar)
    Ops.push_back(fact::HostSignal{Channel});
  if (E == ApiEffect::HostWait || E == ApiEffect::HostSignalAndWait)
    Ops.push_back(fact::HostWait{Channel});
  if (E == ApiEffect::HostWaitAny)
    Ops.push_back(fact::HostWait{NoVar});
  return Ops;
}

bool isHostOnlyChannelClass(llvm::StringRef Qualified) {
  static const llvm::StringSet<> Classes = {
      "threading.Event",       "threading.Condition",
      "threading.Semaphore",   "threading.BoundedSemaphore",
      "threading.Barrier",     "threading.Thread",
      "queue.Queue",           "queue.SimpleQueue",
      "queue.LifoQueue",       "queue.PriorityQueue",
      "multiprocessing.Event", "multiprocessing.Queue"};
  return Classes.contains(Qualified);
}

} // namespace streamsafe
