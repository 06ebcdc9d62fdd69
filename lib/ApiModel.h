//===--- ApiModel.h - What each LibTorch/CUDA API does to streams -*- C++
//-*-===//
//
// The API model, split by family (ApiStreams.cpp, ApiEvents.cpp,
// ApiTensors.cpp, ApiSync.cpp). Each family is a table from a canonical
// qualified name to an effect. Declarations are recognised by their canonical
// names, so every spelling (at::cuda:: for c10::cuda::, using-declarations,
// typedefs, auto) reaches the same entry. See shared/API_MODEL.md for the
// facts behind each row.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_APIMODEL_H
#define STREAMSAFE_LIB_APIMODEL_H

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class NamedDecl;
class FunctionDecl;
class CXXRecordDecl;
} // namespace clang

namespace streamsafe {

/// The canonical qualified name of a declaration
/// ("c10::cuda::getStreamFromPool").
std::string canonicalName(const clang::NamedDecl *D);
/// True when \p D is declared (at any depth) inside namespace \p NS at top
/// level.
bool isInTopNamespace(const clang::Decl *D, llvm::StringRef NS);

/// The kinds of values the analysis follows.
enum class ValueClass {
  None,
  Tensor,        ///< at::Tensor / at::TensorBase
  Stream,        ///< c10::cuda::CUDAStream, c10::Stream
  RawStream,     ///< cudaStream_t
  Event,         ///< at::cuda::CUDAEvent, c10::Event
  RawEvent,      ///< cudaEvent_t
  StreamGuard,   ///< CUDAStreamGuard, c10::StreamGuard (one stream)
  OptionalGuard, ///< OptionalCUDAStreamGuard, c10::OptionalStreamGuard
  MultiGuard     ///< CUDAMultiStreamGuard, c10::MultiStreamGuard
};
struct ApiConfig;
ValueClass classifyType(clang::QualType T, const ApiConfig *Config = nullptr);
ValueClass classifyRecord(const clang::CXXRecordDecl *RD,
                          const ApiConfig *Config = nullptr);

/// Effects of calls to free functions and non-tensor methods (streams, guards,
/// events, host synchronisation, the allocator, raw copies).
enum class ApiEffect {
  None,
  // Streams and guards (ApiStreams.cpp).
  StreamFromPool,   ///< returns a fresh pool stream
  DefaultStream,    ///< returns the default stream
  CurrentStream,    ///< returns the current stream
  ExternalStream,   ///< wraps a foreign stream
  SetCurrentStream, ///< arg 0 becomes the current stream
  StreamIdentity,   ///< a view of the object stream (unwrap, stream())
  GuardResetStream, ///< optional/stream guard .reset_stream(s)
  GuardReset,       ///< optional guard .reset(): restores
  // Events (ApiEvents.cpp).
  EventRecordOn,       ///< ev.record(s), recordOnce(s); record() = current
  EventBlock,          ///< ev.block(s)
  StreamWaitEvent,     ///< s.wait(ev)
  EventSynchronize,    ///< ev.synchronize()
  RawEventRecord,      ///< cudaEventRecord(e, s = 0)
  RawStreamWaitEvent,  ///< cudaStreamWaitEvent(s, e, flags)
  RawEventSynchronize, ///< cudaEventSynchronize(e)
  // Host synchronisation (ApiSync.cpp).
  StreamSynchronize,  ///< s.synchronize()
  StreamSyncFunction, ///< cudaStreamSynchronize(s), stream_synchronize(s)
  DeviceSynchronize,  ///< cudaDeviceSynchronize(), torch::cuda::synchronize()
  // Allocator (ApiTensors.cpp).
  AllocatorRecordStream, ///< CUDACachingAllocator::recordStream(dataptr, s)
  // Raw copies (ApiSync.cpp).
  MemcpyAsync,   ///< cudaMemcpyAsync(dst, src, n, kind, s)
  MemsetAsync,   ///< cudaMemsetAsync(dst, v, n, s)
  MemcpySync,    ///< cudaMemcpy: legacy stream, then host waits for it
  MemcpyAndSync, ///< c10::cuda::memcpy_and_sync(dst, src, n, kind, s)
  HostMemcpy,    ///< std::memcpy(dst, src, n): the host touches both
  // Threads (ApiThreads.cpp).
  SpawnThread, ///< the callable argument runs on a new thread
};
ApiEffect classifyCall(llvm::StringRef CanonicalName);
/// The effect \p Table gives \p Name, or None: the lookup every family does.
template <typename Map>
ApiEffect lookupEffect(const Map &Table, llvm::StringRef Name) {
  auto It = Table.find(Name);
  return It == Table.end() ? ApiEffect::None : It->second;
}
ApiEffect classifyStreamsApi(llvm::StringRef Name);
ApiEffect classifyEventsApi(llvm::StringRef Name);
ApiEffect classifySyncApi(llvm::StringRef Name);
ApiEffect classifyAllocatorApi(llvm::StringRef Name);
ApiEffect classifyThreadsApi(llvm::StringRef Name);
/// True for std::thread / std::jthread: constructing one spawns a thread.
bool isThreadClass(llvm::StringRef CanonicalName);

/// What a method of at::Tensor does (ApiTensors.cpp).
enum class TensorMethod {
  Metadata,     ///< sizes(), dtype(), defined(): no device access
  View,         ///< view(), slice(), operator[]: shares the storage
  InPlace,      ///< add_(), copy_(): writes self
  RecordStream, ///< record_stream(s)
  Reset,        ///< reset(): drops this reference
  HostRead,     ///< item(), cpu(): reads, then the host waits for the stream
  To,           ///< to(...): a copy, maybe to the host
  RawPointer,   ///< data_ptr(), accessor(): no access by itself
  Op            ///< any other ATen op: reads self, returns a new tensor
};
TensorMethod classifyTensorMethod(llvm::StringRef Name);

/// What an at::/torch:: free function does (ApiTensors.cpp).
enum class AtenFunction {
  Factory,  ///< empty, zeros_like, randn: allocates, reads no tensor
  Foreign,  ///< from_blob: memory the caching allocator does not own
  InPlace,  ///< relu_(t): writes its first argument
  OutFirst, ///< add_out(out, ...): writes its first argument
  OutLast,  ///< add_outf(..., out): writes its last argument
  Op        ///< reads its tensor arguments, returns a new tensor
};
AtenFunction classifyAtenFunction(llvm::StringRef Name);

/// True for free functions whose tensor arguments are not device accesses and
/// cannot be kept (std::move, std::forward).
bool isTransparentCast(llvm::StringRef CanonicalName);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_APIMODEL_H
