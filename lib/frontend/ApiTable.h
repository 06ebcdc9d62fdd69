//===--- ApiTable.h - The one table of stream APIs ---------------*- C++
//-*-===//
//
// Every consumer that asks "what does this call do to streams" (the
// lowering, the pre-scan, streamsafe-default-stream-launch) asks this table.
// Built-in rows (ApiRows.cpp) are keyed by fully qualified name and matched
// against declarations, so every spelling (at::cuda:: for c10::cuda::,
// using-declarations, typedefs, auto) reaches the same row, and a user class
// named `Stream` in another namespace reaches none. The user's framework
// APIs (ApiConfig) come first. Lookups are cached per declaration.
// docs/api-model.md says what each effect does to the state.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_APITABLE_H
#define STREAMSAFE_LIB_FRONTEND_APITABLE_H

#include "lib/frontend/ApiConfig.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
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
  Tensor,        ///< at::Tensor / at::TensorBase, and what holds one
                 ///< (at::Tensor *, shared_ptr, optional)
  Stream,        ///< c10::cuda::CUDAStream, c10::Stream
  RawStream,     ///< cudaStream_t
  Event,         ///< CUDAEvent, c10::Event, configured event classes
  RawEvent,      ///< cudaEvent_t
  StreamGuard,   ///< CUDAStreamGuard, c10::StreamGuard, configured guards
  OptionalGuard, ///< OptionalCUDAStreamGuard, c10::OptionalStreamGuard
  MultiGuard,    ///< CUDAMultiStreamGuard, c10::MultiStreamGuard
  DeviceGuard    ///< CUDAGuard, OptionalCUDAGuard, c10::DeviceGuard
};

/// What a call does. One enumerator per behaviour the lowering knows.
enum class ApiEffect : uint8_t {
  None,
  // Streams and guards.
  StreamFromPool,   ///< returns a fresh pool stream
  StreamCreate,     ///< cudaStreamCreate*(&s, ...): s is a new stream
  DefaultStream,    ///< returns the default stream
  CurrentStream,    ///< returns the current stream
  ExternalStream,   ///< wraps a foreign stream
  SetCurrentStream, ///< Stream becomes the current stream
  StreamIdentity,   ///< the object's own stream (unwrap, stream(), casts)
  GuardResetStream, ///< guard.reset_stream(s)
  GuardReset,       ///< optional guard .reset(): restores
  SetDevice,        ///< cudaSetDevice(d): device d becomes current
  // Events.
  EventRecord,         ///< ev.record(), ev.record(s), recordOnce(s)
  EventBlock,          ///< ev.block(s): s waits
  StreamWaitEvent,     ///< s.wait(ev)
  EventSynchronize,    ///< ev.synchronize(): the host waits
  RawEventRecord,      ///< cudaEventRecord(e, s = 0)
  RawStreamWaitEvent,  ///< cudaStreamWaitEvent(s, e, flags)
  RawEventSynchronize, ///< cudaEventSynchronize(e)
  // Host synchronisation.
  StreamSynchronize,  ///< s.synchronize()
  StreamSyncFunction, ///< cudaStreamSynchronize(s), stream_synchronize(s)
  DeviceSynchronize,  ///< cudaDeviceSynchronize(), torch::cuda::synchronize()
  // The caching allocator.
  AllocatorRecordStream, ///< CUDACachingAllocator::recordStream(ptr, s)
  // Raw memory operations.
  MemcpyAsync,   ///< stream-ordered copy: Dest, Source, Stream
  MemsetAsync,   ///< stream-ordered set: Dest, Stream
  MemcpySync,    ///< cudaMemcpy: the legacy stream, then the host waits
  MemsetSync,    ///< cudaMemset: the legacy stream
  MemcpyAndSync, ///< c10::cuda::memcpy_and_sync: Stream, then the host waits
  HostMemcpy,    ///< std::memcpy(dst, src, n): the host touches both
  StreamOrdered, ///< other work issued on Stream (cudaLaunchKernel, ...)
  // CUDA graph capture.
  CaptureBegin,          ///< capture_begin(): current stream; or Stream
  CaptureEnd,            ///< capture_end(), cudaStreamEndCapture(s, &g)
  RestrictedAllocation,  ///< cudaMalloc, cudaFree: refused while capturing
  RestrictedEventQuery,  ///< cudaEventQuery(e), ev.query()
  RestrictedStreamQuery, ///< cudaStreamQuery(s), s.query()
  // Threads.
  SpawnThread, ///< the callable argument runs on a new thread
  // Methods of at::Tensor.
  TensorMetadata,     ///< sizes(), dtype(), defined(): no device access
  TensorView,         ///< view(), slice(), operator[]: shares the storage
  TensorViewList,     ///< chunk(), split(), unbind(): views of its pieces
  TensorInPlace,      ///< add_(), operator+=: writes self
  TensorCopyFrom,     ///< copy_(src, non_blocking)
  TensorRecordStream, ///< record_stream(s)
  TensorReset,        ///< reset(): drops this reference
  TensorHostRead,     ///< item(), cpu(): blocking copy to the host
  TensorTo,           ///< to(...): a copy, maybe to the host
  TensorRawPointer,   ///< data_ptr(), accessor(): no access by itself
  TensorPinMemory,    ///< pin_memory(): a copy into pinned host memory
  TensorOp,           ///< any other ATen op: reads self, returns a new tensor
  // Free functions of at:: and torch::.
  AtenFactory,  ///< empty, zeros_like, randn: allocates, reads no tensor
  AtenFromBlob, ///< from_blob: memory the caching allocator does not own
  AtenInPlace,  ///< relu_(t): writes its first argument
  AtenOutFirst, ///< add_out(out, ...): writes its first argument
  AtenOutLast,  ///< add_outf(..., out): writes its last argument
  AtenOp,       ///< reads its tensor arguments, returns a new tensor
  // Calls that only pass their argument on (std::move, std::forward).
  TransparentCast,
  // The user's framework APIs (ApiConfig).
  ConfiguredSetCurrent,     ///< f(stream): set, never restored
  ConfiguredCurrentStream,  ///< f(): the current stream
  ConfiguredStreamSync,     ///< f(stream) / obj.f() / f(): the host waits
  ConfiguredRecordStream,   ///< f(tensor, stream)
  ConfiguredThreadSpawn,    ///< f(callable): a new thread
  ConfiguredExecutorLaunch, ///< obj.f(callable): obj's worker thread
  ConfiguredEventRecord,    ///< ev.f(stream) / ev.f()
  ConfiguredEventWait,      ///< ev.f(waiting stream)
  ConfiguredEventSync,      ///< ev.f(): the host waits
  ConfiguredEventOther,     ///< any other method of an event class: nothing
  ConfiguredCaptureBegin,   ///< f(stream) / f() / obj.f(): a capture begins
  ConfiguredCaptureEnd,     ///< f() / obj.f(): the capture ends
};

/// One row: an effect and where its operands are among the arguments
/// (-1: not an argument; for methods the object is not counted).
struct ApiEntry {
  ApiEffect Effect = ApiEffect::None;
  int8_t Stream = -1;
  int8_t Event = -1;
  int8_t Dest = -1;      ///< the tensor or pointer written
  int8_t Source = -1;    ///< the tensor or pointer read
  int8_t Size = -1;      ///< the byte count
  int8_t Direction = -1; ///< the cudaMemcpyKind
  int8_t Mode = -1;      ///< the cudaStreamCaptureMode (absent: global)
  /// For synchronous runtime calls: the stream-ordered alternative.
  const char *AsyncAlternative = nullptr;
};

/// True for the class templates that hold one tensor (shared_ptr,
/// unique_ptr, optional): a specialisation for at::Tensor is followed as the
/// tensor it holds.
bool isTensorHandleTemplate(llvm::StringRef QualifiedName);

/// True for the effects of at::Tensor's methods.
bool isTensorEffect(ApiEffect E);

/// True for effects that are about streams (not plain tensor work): a
/// function calling one of them is worth analysing.
bool isStreamEffect(ApiEffect E);

/// The table of one translation unit's analysis: built-in rows, the user's
/// configuration, and caches keyed by declaration.
class ApiTable {
public:
  explicit ApiTable(const ApiConfig &Config) : Config(Config) {}

  /// What a call of \p FD does (ApiEffect::None: nothing the model knows).
  const ApiEntry &lookup(const clang::FunctionDecl *FD);
  ValueClass classify(clang::QualType T);
  ValueClass classify(const clang::CXXRecordDecl *RD);
  /// std::thread / std::jthread: constructing one spawns a thread.
  bool isThreadClass(const clang::CXXRecordDecl *RD);
  /// For a guard class: the constructor argument that becomes the current
  /// stream (0 but for a hand-written switcher, see StreamSwitchers.h).
  unsigned guardStreamParameter(const clang::CXXRecordDecl *RD);
  const ApiConfig &config() const { return Config; }

private:
  ApiEntry compute(const clang::FunctionDecl *FD);
  ValueClass recognise(const clang::CXXRecordDecl &RD);

  const ApiConfig &Config;
  llvm::DenseMap<const clang::FunctionDecl *, ApiEntry> Calls;
  llvm::DenseMap<const clang::CXXRecordDecl *, ValueClass> Records;
  llvm::DenseMap<const clang::CXXRecordDecl *, unsigned> GuardParameters;
  /// Methods of event wrappers recognised from their code (EventWrappers.h).
  llvm::DenseMap<const clang::FunctionDecl *, ApiEntry> Wrapped;
};

/// The built-in row for \p QualifiedName, or null (ApiRows.cpp). Methods of
/// at::TensorBase are listed as at::Tensor's; ATen free functions under
/// at:: (torch:: names are looked up as at::).
const ApiEntry *builtinRow(llvm::StringRef QualifiedName);
/// The built-in class for the record named \p QualifiedName.
ValueClass builtinClass(llvm::StringRef QualifiedName);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_APITABLE_H
