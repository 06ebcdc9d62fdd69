//===--- Facts.h - The stream fact IR ----------------------------*- C++
//-*-===//
//
// Each CFG element is lowered once to a short list of facts: what it does to
// the current stream, to tensors, to events and to host synchronisation.
// Operands stay expressions (and variables); the engine resolves them against
// the flow-sensitive state, since which storage a variable names or which
// stream is current depends on the path.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FACTS_H
#define STREAMSAFE_LIB_FACTS_H

#include "lib/Sites.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class Expr;
class LambdaExpr;
class VarDecl;
} // namespace clang

namespace streamsafe {

enum class FactKind {
  SetCurrent,   ///< Stream becomes the current stream (never restored)
  GuardEnter,   ///< guard Var saves the current stream, sets Stream
  GuardExit,    ///< guard Var restores what it saved
  Read,         ///< Tensor read on Stream (null: the current stream)
  Write,        ///< Tensor written on Stream
  Allocate,     ///< Tensor (a call) allocated and written on Stream
  Bind,         ///< Var := Value (tensor, stream or event variable)
  Unbind,       ///< Var dies (scope end) or is reset
  Escape,       ///< Tensor may outlive the function (returned, stored, kept)
  EventRecord,  ///< Event recorded on Stream
  EventWait,    ///< Stream waits on Event
  EventSync,    ///< host waits on Event
  StreamSync,   ///< host waits on Stream
  DeviceSync,   ///< host waits on the device
  RecordStream, ///< allocator told Tensor is used on Stream
  Spawn,        ///< Body runs on another thread (Executor's, or a new one)
  CurrentQuery, ///< getCurrentCUDAStream() is called here
  HostRead,     ///< the host reads Tensor's memory (item, data_ptr, memcpy)
  HostWrite     ///< the host writes Tensor's memory (CPU in-place, memcpy)
};

struct Fact {
  explicit Fact(FactKind K) : Kind(K) {}
  FactKind Kind;
  SiteId Site = NoSite;
  const clang::Expr *Tensor = nullptr;
  const clang::Expr *Stream = nullptr; ///< null means the current stream
  const clang::Expr *Event = nullptr;
  const clang::Expr *Value = nullptr;
  const clang::VarDecl *Var = nullptr;
  /// For Allocate: memory the caching allocator does not own (from_blob).
  bool Foreign = false;
  /// For Allocate: the call only allocates (empty*), it writes no values.
  bool AllocateOnly = false;
  /// For Allocate: the result lives in host memory (to(kCPU), cpu(),
  /// factories with CPU or pinned options).
  bool HostResult = false;
  /// The copy does not block the host (non_blocking=true, cudaMemcpyAsync).
  bool Async = false;
  /// The access is a copy (to(), copy_, cudaMemcpy*), not a computation:
  /// on host memory it is a DMA, not host code.
  bool Copy = false;
  /// For GuardEnter: save the current stream to restore, change nothing.
  bool KeepCurrent = false;
  /// For StreamSync: applies only when Tensor or Value lives on the host.
  bool IfHostInvolved = false;
  /// For Spawn: the callable's body, and the executor object (null for a
  /// new thread, which starts on the default stream).
  const clang::LambdaExpr *Body = nullptr;
  const clang::Expr *Executor = nullptr;
  /// For Spawn: the callable is called right here, on this thread.
  bool InPlace = false;
  /// The stream is the legacy default stream although no expression says so
  /// (kernel<<<g, b>>>, cudaEventRecord(e) with its default argument).
  bool LegacyStream = false;
};

using FactList = llvm::SmallVector<Fact, 2>;

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FACTS_H
