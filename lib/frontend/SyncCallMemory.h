//===--- SyncCallMemory.h - Does a synchronous runtime call touch tensors -===//
//
// A synchronous cudaMemcpy/cudaMemset runs on the legacy default stream. That
// is only a hazard for memory that PyTorch's streams also use: a tensor's
// storage, whose block the caching allocator may hand out again while work on
// a non-blocking stream still uses it. One-time setup of a raw cudaMalloc'd or
// IPC-opened buffer is not. This file tells the two apart, syntactically,
// within one function body (streamsafe-default-stream-launch's
// ReportSynchronousRuntimeCalls: tensor).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_SYNCCALLMEMORY_H
#define STREAMSAFE_LIB_FRONTEND_SYNCCALLMEMORY_H

#include "lib/frontend/ApiTable.h"

namespace clang {
class CallExpr;
class Stmt;
} // namespace clang

namespace streamsafe {

/// True when a device-side pointer argument of the synchronous runtime call
/// \p Call (row \p Row) is derived from a tensor: data_ptr(), data<T>(),
/// an accessor, the storage, or a call that returns a pointer and takes a
/// tensor; through casts, pointer arithmetic, subscripts and local variables
/// of \p Body (their initializers and assignments). For a copy whose
/// direction is spelled, only its device side counts. Parameters, members
/// and pointers from other calls are not tensors.
bool touchesTensorMemory(const clang::CallExpr &Call, const ApiEntry &Row,
                         const clang::Stmt &Body, ApiTable &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_SYNCCALLMEMORY_H
