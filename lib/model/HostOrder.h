//===--- HostOrder.h - The facts of a host wait or signal --------*- C++
//-*-===//
//
// What a call with one of the host-ordering effects (HostWait, HostSignal,
// HostSignalAndWait, HostWaitAny) does, on the channel its object is: the
// one recipe both front ends emit (docs/api-model.md, threads).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_HOSTORDER_H
#define STREAMSAFE_LIB_MODEL_HOSTORDER_H

#include "lib/ir/IR.h"
#include "lib/model/ApiEffect.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe {

bool isHostOrder(ApiEffect E);
/// The facts of a call with effect \p E on \p Channel (NoVar: an object no
/// variable names; a signal on it reaches no waiter followed).
llvm::SmallVector<Fact::Op, 2> hostOrderFacts(ApiEffect E, VarId Channel);
/// Whether the Python class \p Qualified (`threading.Event`, `queue.Queue`)
/// makes an object whose waits order host threads only: its wait() is no
/// CUDA event's, whatever the thread that set it enqueued.
bool isHostOnlyChannelClass(llvm::StringRef Qualified);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_HOSTORDER_H
