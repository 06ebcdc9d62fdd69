//===--- ApiEffect.h - What an API does, in neither language ----*- C++ -*-===//
//
// The vocabulary of the API model: the effects a call can have on streams,
// events, tensors and the host, the kinds of values the analysis follows,
// and where a row's operands are among a call's arguments. Both front ends
// resolve a call to a row (ApiRows.h, TensorMethods.h, TorchFunctions.h)
// and lower its effect through the shared recipes (Recipes.h).
// docs/api-model.md says what each effect does to the state.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_APIEFFECT_H
#define STREAMSAFE_LIB_MODEL_APIEFFECT_H

#include <cstdint>

namespace streamsafe {

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
  // Raw NCCL: a collective or send/recv enqueued on its stream argument.
  NcclOnStream, ///< ncclAllReduce(send, recv, ..., s): Source, Dest, Stream
  // torch.distributed: a process group's collectives and point-to-point.
  Collective,      ///< all_reduce(t, async_op=...): reads Source, writes Dest
  CollectiveAsync, ///< isend(t), irecv(t): always asynchronous
  CollectiveFunctional, ///< funcol.all_reduce(t, ...): reads Source, returns
                        ///< a tensor that waits wherever it is used
  // CUDA graph capture.
  CaptureBegin,          ///< capture_begin(): current stream; or Stream
  CaptureEnd,            ///< capture_end(), cudaStreamEndCapture(s, &g)
  GraphReplay,           ///< replay(): current stream; cudaGraphLaunch(g, s)
  GraphInstantiate,      ///< cudaGraphInstantiate(&exec, g): exec replays g
  RestrictedAllocation,  ///< cudaMalloc, cudaFree: refused while capturing
  RestrictedEventQuery,  ///< cudaEventQuery(e), ev.query()
  RestrictedStreamQuery, ///< cudaStreamQuery(s), s.query()
  CaptureModeExchange,   ///< the thread's capture mode becomes Mode
  // Threads.
  SpawnThread,  ///< the callable argument runs on a new thread
  ParallelLoop, ///< at::parallel_for: on pool threads where compiled so
  // Host-side ordering between threads: the object is the channel.
  HostWait,          ///< join(), get(), wait(): after what signalled it
  HostSignal,        ///< set_value(), count_down(), notify_one(), set()
  HostSignalAndWait, ///< arrive_and_wait(), Barrier.wait()
  HostWaitAny,       ///< a lock, concurrent.futures.wait: any thread
  // Autograd modes: no stream effect. As a decorator the def runs as written.
  GradMode, ///< torch.no_grad, torch.inference_mode
  // Python's context managers (with-blocks) with no C++ function.
  CaptureRegion, ///< with torch.cuda.graph(g): a capture of the block
  // Methods of at::Tensor.
  TensorMetadata,     ///< sizes(), dtype(), defined(): no device access
  TensorView,         ///< view(), slice(), operator[]: shares the storage
  TensorViewList,     ///< chunk(), split(), unbind(): views of its pieces
  TensorInPlace,      ///< add_(), operator+=: writes self
  TensorCopyFrom,     ///< copy_(src, non_blocking)
  TensorRecordStream, ///< record_stream(s)
  TensorReset,        ///< reset(): drops this reference
  TensorHostRead,     ///< item(), tolist(): the host reads the values
  TensorToHost,       ///< cpu(): a blocking copy to the host
  TensorTo,           ///< to(...), cuda(): a copy, maybe to the host
  TensorRawPointer,   ///< data_ptr(), accessor(): no access by itself
  TensorPinMemory,    ///< pin_memory(): a copy into pinned host memory
  TensorSizedByData,  ///< nonzero(), masked_select(): the host waits to
                      ///< read the result's size, then allocates it
  TensorOp,           ///< any other ATen op: reads self, returns a new tensor
  // Free functions of at:: and torch::.
  AtenFactory,     ///< empty, zeros_like, randn: allocates, reads no tensor
  AtenFromBlob,    ///< from_blob: memory the caching allocator does not own
  AtenInPlace,     ///< relu_(t): writes its first argument
  AtenOutFirst,    ///< add_out(out, ...): writes its first argument
  AtenOutLast,     ///< add_outf(..., out): writes its last argument
  AtenOp,          ///< reads its tensor arguments, returns a new tensor
  AtenSizedByData, ///< nonzero(t), masked_select(t, m): as the method
  AtenNoTensor,    ///< returns no tensor the analysis follows (Python's
                   ///< torch.device, torch.chunk): its arguments escape
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
/// How a thread's task gets its arguments.
enum class TaskArguments : uint8_t {
  Following, ///< the arguments after the task (`std::thread(f, a, b)`)
  Packed,    ///< a tuple and a dict (`Thread(target=f, args=(a,), kwargs=)`)
  Mapped,    ///< iterables of them (`executor.map(f, xs)`): not bound
};

struct ApiEntry {
  ApiEffect Effect = ApiEffect::None;
  int8_t Stream = -1;
  int8_t Event = -1;
  int8_t Dest = -1;      ///< the tensor or pointer written
  int8_t Source = -1;    ///< the tensor or pointer read
  int8_t Size = -1;      ///< the byte count
  int8_t Direction = -1; ///< the cudaMemcpyKind
  int8_t Mode = -1;      ///< the cudaStreamCaptureMode (absent: global)
  int8_t Graph = -1;     ///< the graph (cudaGraph_t, cudaGraphExec_t)
  int8_t Group = -1;     ///< a collective's process group
  int8_t AsyncOp = -1;   ///< a collective's async_op flag
  /// A collective's keyword names of Dest and Source (Python: `output=`).
  const char *DestName = nullptr;
  const char *SourceName = nullptr;
  /// For synchronous runtime calls: the stream-ordered alternative.
  const char *AsyncAlternative = nullptr;
  /// A thread's task: the callable's position (-1: the first argument that
  /// names code, as C++'s rows have it), its keyword (Python: `target=`),
  /// and how it is handed its arguments.
  int8_t Task = -1;
  const char *TaskName = nullptr;
  TaskArguments TaskArgs = TaskArguments::Following;
};

/// The row of an effect whose operands sit where the effect says: a tensor
/// method's source (copy_(src)) or stream (record_stream(s)) is its first
/// argument.
ApiEntry entryOf(ApiEffect E);

/// True for the effects of a tensor's methods.
bool isTensorEffect(ApiEffect E);

/// True for the effects of a free tensor function (at::, torch.): a
/// factory, from_blob, an in-place, out= or plain op.
bool isTorchFunctionEffect(ApiEffect E);

/// True for effects that are about streams (not plain tensor work): a
/// function calling one of them is worth analysing.
bool isStreamEffect(ApiEffect E);

/// True for tensor methods that make the host wait for the device (item(),
/// tolist(), a blocking cpu()): a helper calling one runs in place, so
/// that a capture or a pending side-stream write sees the wait.
bool isHostWaitEffect(ApiEffect E);

/// The name of an effect as written in the model's dump and docs
/// ("TensorView").
const char *effectName(ApiEffect E);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_APIEFFECT_H
