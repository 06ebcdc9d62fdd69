//===--- ApiRows.cpp - The rows of the API model --------------------------===//
//
// Adding an API is adding a row here (or to TensorMethods.cpp or
// TorchFunctions.cpp), with its spelling in each language that has it.
// at::cuda:: names are a using-directive of c10::cuda::, so only the c10
// spelling appears. docs/api-model.md gives the facts behind each row.
//
//===----------------------------------------------------------------------===//

#include "lib/model/ApiRows.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

namespace {

using E = ApiEffect;

// Shorthands for the operand positions of a row.
ApiEntry fx(E Effect) { return {Effect}; }
ApiEntry onStream(E Effect, int8_t Stream) {
  ApiEntry A{Effect};
  A.Stream = Stream;
  return A;
}
ApiEntry onEvent(E Effect, int8_t Event, int8_t Stream = -1) {
  ApiEntry A{Effect};
  A.Event = Event;
  A.Stream = Stream;
  return A;
}
// torch.distributed.X(dest, source, ..., group, async_op): operand
// positions and keyword names (in place: one tensor, both).
ApiEntry collective(E Effect, int8_t Dest, const char *DestName, int8_t Source,
                    const char *SourceName, int8_t Group, int8_t AsyncOp) {
  ApiEntry A{Effect};
  A.Dest = Dest;
  A.DestName = DestName;
  A.Source = Source;
  A.SourceName = SourceName;
  A.Group = Group;
  A.AsyncOp = AsyncOp;
  return A;
}
ApiEntry copy(E Effect, int8_t Dest, int8_t Source, int8_t Size,
              int8_t Direction, int8_t Stream,
              const char *AsyncAlternative = nullptr) {
  ApiEntry A{Effect};
  A.Dest = Dest;
  A.Source = Source;
  A.Size = Size;
  A.Direction = Direction;
  A.Stream = Stream;
  A.AsyncAlternative = AsyncAlternative;
  return A;
}
// A thread's task: where the callable is, and how it gets its arguments.
ApiEntry task(E Effect, int8_t Task, const char *TaskName,
              TaskArguments Args = TaskArguments::Following) {
  ApiEntry A{Effect};
  A.Task = Task;
  A.TaskName = TaskName;
  A.TaskArgs = Args;
  return A;
}
ApiEntry capture(E Effect, int8_t Stream, int8_t Mode, int8_t Graph = -1) {
  ApiEntry A{Effect};
  A.Stream = Stream;
  A.Mode = Mode;
  A.Graph = Graph;
  return A;
}
ApiEntry graph(E Effect, int8_t Graph, int8_t Dest, int8_t Stream) {
  ApiEntry A{Effect};
  A.Graph = Graph;
  A.Dest = Dest;
  A.Stream = Stream;
  return A;
}

// Why a row has one spelling only.
constexpr const char *CudaRuntime =
    "the CUDA runtime's C API: Python code reaches it only through PyTorch";
constexpr const char *C10d =
    "torch.distributed's Python functions; C++ calls the c10d::ProcessGroup "
    "methods (rows of their own: tensor vectors, always asynchronous)";
constexpr const char *C10dCpp =
    "c10d's C++ API: tensor vectors, a work handle from every call; Python's "
    "are the torch.distributed rows";
constexpr const char *Nccl =
    "NCCL's C API: Python code reaches NCCL only through torch.distributed";
constexpr const char *CppOnly = "C++ only: PyTorch's Python API has no "
                                "counterpart";
constexpr const char *NotInPython =
    "exists in Python but is not modelled there yet (unknown code)";
constexpr const char *HostLibrary =
    "the language's own threading library; the other language's is a row of "
    "its own with the same effect";
constexpr const char *PythonOnlyApi =
    "Python only: PyTorch's C++ API has no counterpart";
constexpr const char *PythonOnly =
    "Python only: C++ writes it as other calls (see docs/api-model.md)";

const ApiRow Rows[] = {
    // Streams and guards (docs/api-model.md, sections 1 and 2).
    {"c10::cuda::getStreamFromPool", "torch.cuda.Stream",
     fx(E::StreamFromPool)},
    {"c10::cuda::getDefaultCUDAStream", "torch.cuda.default_stream",
     fx(E::DefaultStream)},
    {"c10::cuda::getCurrentCUDAStream", "torch.cuda.current_stream",
     fx(E::CurrentStream)},
    {"c10::cuda::getStreamFromExternal", "torch.cuda.ExternalStream",
     fx(E::ExternalStream)},
    // The current device changes, with no restore (c10/cuda/CUDAFunctions.h).
    {"cudaSetDevice", nullptr, fx(E::SetDevice), CudaRuntime},
    {"c10::cuda::set_device", nullptr, fx(E::SetDevice), NotInPython},
    {"cudaStreamCreate;cudaStreamCreateWithFlags;cudaStreamCreateWithPriority",
     nullptr, fx(E::StreamCreate), CudaRuntime},
    // PyTorch's stable C ABI (torch/csrc/inductor/aoti_torch/c/shim.h):
    // the current stream, written through the second argument.
    {"aoti_torch_get_current_cuda_stream;aoti_torch_get_current_stream",
     nullptr, onStream(E::CurrentStream, 1), CppOnly},
    {"c10::cuda::setCurrentCUDAStream", "torch.cuda.set_stream",
     onStream(E::SetCurrentStream, 0)},
    {"c10::cuda::CUDAStream::unwrap;c10::cuda::CUDAStream::stream;c10::cuda::"
     "CUDAStream::operator CUstream_st *;c10::cuda::CUDAStream::operator "
     "Stream",
     nullptr, fx(E::StreamIdentity), CppOnly},
    {"c10::cuda::CUDAStreamGuard::reset_stream;c10::cuda::"
     "OptionalCUDAStreamGuard::reset_stream;c10::StreamGuard::reset_stream;c10:"
     ":OptionalStreamGuard::reset_stream",
     nullptr, onStream(E::GuardResetStream, 0), CppOnly},
    {"c10::cuda::OptionalCUDAStreamGuard::reset;c10::OptionalStreamGuard::"
     "reset",
     nullptr, fx(E::GuardReset), CppOnly},
    // Events (section 3). record() records on the current stream, record(s)
    // and recordOnce(s) on s: an absent argument is the current stream.
    {"at::cuda::CUDAEvent::record;c10::cuda::CUDAEvent::record;c10::Event::"
     "record",
     "torch.cuda.Event.record", onStream(E::EventRecord, 0)},
    {"at::cuda::CUDAEvent::recordOnce;c10::cuda::CUDAEvent::recordOnce;c10::"
     "Event::recordOnce",
     nullptr, onStream(E::EventRecord, 0), CppOnly},
    {"at::cuda::CUDAEvent::block;c10::cuda::CUDAEvent::block;c10::Event::block",
     "torch.cuda.Event.wait", onStream(E::EventBlock, 0)},
    {"at::cuda::CUDAEvent::synchronize;c10::cuda::CUDAEvent::synchronize;c10::"
     "Event::synchronize",
     "torch.cuda.Event.synchronize", fx(E::EventSynchronize)},
    {"c10::Stream::wait", "torch.cuda.Stream.wait_event",
     onEvent(E::StreamWaitEvent, 0)},
    // s.wait_stream(o): an event recorded on o that s waits on.
    {nullptr, "torch.cuda.Stream.wait_stream", onStream(E::StreamWaitEvent, 0),
     PythonOnly},
    // s.record_event(): a new event recorded on s.
    {nullptr, "torch.cuda.Stream.record_event", onEvent(E::EventRecord, 0),
     PythonOnly},
    {"cudaEventRecord;cudaEventRecordWithFlags", nullptr,
     onEvent(E::RawEventRecord, 0, 1), CudaRuntime},
    {"cudaStreamWaitEvent", nullptr, onEvent(E::RawStreamWaitEvent, 1, 0),
     CudaRuntime},
    {"cudaEventSynchronize", nullptr, onEvent(E::RawEventSynchronize, 0),
     CudaRuntime},
    // Host synchronisation (section 4).
    {"c10::cuda::CUDAStream::synchronize;c10::Stream::synchronize",
     "torch.cuda.Stream.synchronize", fx(E::StreamSynchronize)},
    {"c10::cuda::stream_synchronize;cudaStreamSynchronize", nullptr,
     onStream(E::StreamSyncFunction, 0), CudaRuntime},
    {"cudaDeviceSynchronize;c10::cuda::device_synchronize;torch::cuda::"
     "synchronize",
     "torch.cuda.synchronize", fx(E::DeviceSynchronize)},
    // It synchronises the device before its warm-up (on a side stream) and
    // again before its captures (torch/cuda/graphs.py).
    {nullptr, "torch.cuda.make_graphed_callables", fx(E::DeviceSynchronize),
     PythonOnlyApi},
    // The caching allocator (section 5).
    {"c10::cuda::CUDACachingAllocator::recordStream", nullptr,
     copy(E::AllocatorRecordStream, 0, -1, -1, -1, 1),
     "Python records through the tensor: t.record_stream(s)"},
    // Raw memory operations (section 6): (dest, source, size, kind, stream).
    {"cudaMemcpyAsync", nullptr, copy(E::MemcpyAsync, 0, 1, 2, 3, 4),
     CudaRuntime},
    {"cudaMemcpy2DAsync", nullptr, copy(E::MemcpyAsync, 0, 2, -1, 6, 7),
     CudaRuntime},
    {"cudaMemsetAsync", nullptr, copy(E::MemsetAsync, 0, -1, 2, -1, 3),
     CudaRuntime},
    {"cudaMemcpy3DAsync", nullptr, onStream(E::StreamOrdered, 1), CudaRuntime},
    {"cudaMemcpyPeerAsync;cudaMemcpyToSymbolAsync;cudaMemcpyFromSymbolAsync;"
     "cudaMemset2DAsync",
     nullptr, onStream(E::StreamOrdered, 5), CudaRuntime},
    {"cudaMemset3DAsync", nullptr, onStream(E::StreamOrdered, 3), CudaRuntime},
    {"cudaMallocAsync", nullptr, onStream(E::StreamOrdered, 2), CudaRuntime},
    {"cudaFreeAsync", nullptr, onStream(E::StreamOrdered, 1), CudaRuntime},
    {"cudaLaunchKernel;cudaLaunchCooperativeKernel", nullptr,
     onStream(E::StreamOrdered, 5), CudaRuntime},
    // torch.distributed (docs/api-model.md, "Collectives"): in place, or
    // (output, input, ...), then the group and async_op.
    {nullptr, "torch.distributed.all_reduce",
     collective(E::Collective, 0, "tensor", 0, "tensor", 2, 3), C10d},
    {nullptr, "torch.distributed.broadcast",
     collective(E::Collective, 0, "tensor", 0, "tensor", 2, 3), C10d},
    {nullptr, "torch.distributed.reduce",
     collective(E::Collective, 0, "tensor", 0, "tensor", 3, 4), C10d},
    {nullptr, "torch.distributed.all_gather_into_tensor",
     collective(E::Collective, 0, "output_tensor", 1, "input_tensor", 2, 3),
     C10d},
    {nullptr, "torch.distributed.reduce_scatter_tensor",
     collective(E::Collective, 0, "output", 1, "input", 3, 4), C10d},
    {nullptr, "torch.distributed.all_to_all_single",
     collective(E::Collective, 0, "output", 1, "input", 4, 5), C10d},
    {nullptr, "torch.distributed.all_gather",
     collective(E::Collective, 0, "tensor_list", 1, "tensor", 2, 3), C10d},
    {nullptr, "torch.distributed.reduce_scatter",
     collective(E::Collective, 0, "output", 1, "input_list", 3, 4), C10d},
    {nullptr, "torch.distributed.all_to_all",
     collective(E::Collective, 0, "output_tensor_list", 1, "input_tensor_list",
                2, 3),
     C10d},
    {nullptr, "torch.distributed.send",
     collective(E::Collective, -1, nullptr, 0, "tensor", 2, -1), C10d},
    {nullptr, "torch.distributed.recv",
     collective(E::Collective, 0, "tensor", -1, nullptr, 2, -1), C10d},
    // A batch of P2POp(isend | irecv, tensor, peer, group): each op's
    // tensor is read or written on the group's stream; one work list.
    {nullptr, "torch.distributed.batch_isend_irecv",
     collective(E::CollectiveAsync, -1, nullptr, 0, "p2p_op_list", -1, -1),
     C10d},
    {nullptr, "torch.distributed.isend",
     collective(E::CollectiveAsync, -1, nullptr, 0, "tensor", 2, -1), C10d},
    {nullptr, "torch.distributed.irecv",
     collective(E::CollectiveAsync, 0, "tensor", -1, nullptr, 2, -1), C10d},
    // Functional collectives: out of place, always on the group's stream;
    // the result waits (wait_tensor) at its first use, on the stream
    // current there.
    {nullptr, "torch.distributed._functional_collectives.all_reduce",
     collective(E::CollectiveFunctional, -1, nullptr, 0, "self", 2, -1), C10d},
    {nullptr, "torch.distributed._functional_collectives.all_gather_tensor",
     collective(E::CollectiveFunctional, -1, nullptr, 0, "self", 2, -1), C10d},
    {nullptr, "torch.distributed._functional_collectives.reduce_scatter_tensor",
     collective(E::CollectiveFunctional, -1, nullptr, 0, "self", 3, -1), C10d},
    {nullptr, "torch.distributed._functional_collectives.all_to_all_single",
     collective(E::CollectiveFunctional, -1, nullptr, 0, "self", 3, -1), C10d},
    {nullptr, "torch.distributed._functional_collectives.broadcast",
     collective(E::CollectiveFunctional, -1, nullptr, 0, "self", 2, -1), C10d},
    // The work handle of an asynchronous collective: the stream current at
    // wait() waits for the collective (no host wait); is_completed() asks.
    {nullptr, "torch.distributed.Work.wait", fx(E::EventBlock), C10d},
    {nullptr, "torch.distributed.Work.synchronize", fx(E::EventBlock), C10d},
    {nullptr, "torch.distributed.Work.block_current_stream", fx(E::EventBlock),
     C10d},
    {nullptr, "torch.distributed.Work.is_completed",
     fx(E::RestrictedEventQuery), C10d},
    // c10d's C++ API (docs/api-model.md, "Collectives"): the process
    // group is the object; every call returns its work
    // (c10::intrusive_ptr<c10d::Work>) and runs on the group's stream
    // (asynchronously, as async_op=True). A method that overrides one of
    // these (ProcessGroupNCCL's, a Backend's) is the same row.
    {"c10d::ProcessGroup::allreduce;c10d::Backend::allreduce;"
     "c10d::ProcessGroup::allreduce_coalesced;"
     "c10d::Backend::allreduce_coalesced;c10d::ProcessGroup::broadcast;"
     "c10d::Backend::broadcast;c10d::ProcessGroup::reduce;"
     "c10d::Backend::reduce",
     nullptr, collective(E::CollectiveAsync, 0, nullptr, 0, nullptr, -1, -1),
     C10dCpp},
    {"c10d::ProcessGroup::allgather;c10d::Backend::allgather;"
     "c10d::ProcessGroup::_allgather_base;c10d::Backend::_allgather_base;"
     "c10d::ProcessGroup::allgather_into_tensor_coalesced;"
     "c10d::Backend::allgather_into_tensor_coalesced;"
     "c10d::ProcessGroup::gather;c10d::Backend::gather;"
     "c10d::ProcessGroup::scatter;c10d::Backend::scatter;"
     "c10d::ProcessGroup::reduce_scatter;c10d::Backend::reduce_scatter;"
     "c10d::ProcessGroup::_reduce_scatter_base;"
     "c10d::Backend::_reduce_scatter_base;"
     "c10d::ProcessGroup::reduce_scatter_tensor_coalesced;"
     "c10d::Backend::reduce_scatter_tensor_coalesced;"
     "c10d::ProcessGroup::alltoall_base;c10d::Backend::alltoall_base;"
     "c10d::ProcessGroup::alltoall;c10d::Backend::alltoall",
     nullptr, collective(E::CollectiveAsync, 0, nullptr, 1, nullptr, -1, -1),
     C10dCpp},
    {"c10d::ProcessGroup::send;c10d::Backend::send", nullptr,
     collective(E::CollectiveAsync, -1, nullptr, 0, nullptr, -1, -1), C10dCpp},
    {"c10d::ProcessGroup::recv;c10d::Backend::recv;"
     "c10d::ProcessGroup::recvAnysource;c10d::Backend::recvAnysource",
     nullptr, collective(E::CollectiveAsync, 0, nullptr, -1, nullptr, -1, -1),
     C10dCpp},
    // Work::wait() and synchronize() make the current stream wait for the
    // collective (ProcessGroupNCCL's WorkNCCL::synchronizeStream).
    {"c10d::Work::wait;c10d::Work::synchronize", nullptr, fx(E::EventBlock),
     C10dCpp},
    {"c10d::Work::isCompleted", nullptr, fx(E::RestrictedEventQuery), C10dCpp},
    // Raw NCCL (section 6b): the send buffer is read and the receive
    // buffer written on the stream argument, the last one.
    {"ncclAllReduce;ncclBroadcast", nullptr,
     copy(E::NcclOnStream, 1, 0, -1, -1, 6), Nccl},
    {"ncclReduce", nullptr, copy(E::NcclOnStream, 1, 0, -1, -1, 7), Nccl},
    {"ncclAllGather", nullptr, copy(E::NcclOnStream, 1, 0, -1, -1, 5), Nccl},
    {"ncclReduceScatter", nullptr, copy(E::NcclOnStream, 1, 0, -1, -1, 6),
     Nccl},
    {"ncclBcast", nullptr, copy(E::NcclOnStream, 0, -1, -1, -1, 5), Nccl},
    {"ncclSend", nullptr, copy(E::NcclOnStream, -1, 0, -1, -1, 5), Nccl},
    {"ncclRecv", nullptr, copy(E::NcclOnStream, 0, -1, -1, -1, 5), Nccl},
    {"cudaMemcpy", nullptr,
     copy(E::MemcpySync, 0, 1, 2, 3, -1, "cudaMemcpyAsync"), CudaRuntime},
    {"cudaMemcpy2D", nullptr,
     copy(E::MemcpySync, 0, 2, -1, 6, -1, "cudaMemcpy2DAsync"), CudaRuntime},
    {"cudaMemcpy3D", nullptr,
     copy(E::MemcpySync, -1, -1, -1, -1, -1, "cudaMemcpy3DAsync"), CudaRuntime},
    {"cudaMemcpyPeer", nullptr,
     copy(E::MemcpySync, 0, 2, 4, -1, -1, "cudaMemcpyPeerAsync"), CudaRuntime},
    {"cudaMemcpyToSymbol", nullptr,
     copy(E::MemcpySync, -1, 1, 2, 4, -1, "cudaMemcpyToSymbolAsync"),
     CudaRuntime},
    {"cudaMemcpyFromSymbol", nullptr,
     copy(E::MemcpySync, 0, -1, 2, 4, -1, "cudaMemcpyFromSymbolAsync"),
     CudaRuntime},
    {"cudaMemset", nullptr,
     copy(E::MemsetSync, 0, -1, 2, -1, -1, "cudaMemsetAsync"), CudaRuntime},
    {"cudaMemset2D", nullptr,
     copy(E::MemsetSync, -1, -1, -1, -1, -1, "cudaMemset2DAsync"), CudaRuntime},
    {"cudaMemset3D", nullptr,
     copy(E::MemsetSync, -1, -1, -1, -1, -1, "cudaMemset3DAsync"), CudaRuntime},
    {"c10::cuda::memcpy_and_sync", nullptr,
     copy(E::MemcpyAndSync, 0, 1, 2, 3, 4), CppOnly},
    {"std::memcpy;memcpy", nullptr, copy(E::HostMemcpy, 0, 1, 2, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    {"std::memset;memset", nullptr, copy(E::HostMemcpy, 0, -1, 2, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    {"std::copy", nullptr, copy(E::HostMemcpy, 2, 0, -1, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    {"std::copy_n", nullptr, copy(E::HostMemcpy, 2, 0, 1, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    {"std::fill", nullptr, copy(E::HostMemcpy, 0, -1, -1, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    {"std::fill_n", nullptr, copy(E::HostMemcpy, 0, -1, 1, -1, -1),
     "host memory through raw pointers: C and C++ only"},
    // CUDA graph capture (section 9). capture_begin(pool) in 1.13,
    // capture_begin(pool, capture_mode) in 2.x: one row for both, the mode
    // at 1 when written. The capturing stream is the current one.
    {"at::cuda::CUDAGraph::capture_begin", nullptr,
     capture(E::CaptureBegin, -1, 1), NotInPython},
    {"at::cuda::CUDAGraph::capture_end", nullptr, fx(E::CaptureEnd),
     NotInPython},
    {nullptr, "torch.cuda.graph", fx(E::CaptureRegion),
     "a with-block: C++ calls capture_begin() and capture_end()"},
    {"cudaStreamBeginCapture", nullptr, capture(E::CaptureBegin, 0, 1),
     CudaRuntime},
    {"cudaStreamBeginCaptureToGraph", nullptr, capture(E::CaptureBegin, 0, 5),
     CudaRuntime},
    {"cudaStreamEndCapture", nullptr, capture(E::CaptureEnd, 0, -1, 1),
     CudaRuntime},
    // A replay runs what the graph recorded on the replay's stream
    // (CUDAGraph::replay() launches on getCurrentCUDAStream()).
    {"at::cuda::CUDAGraph::replay", "torch.cuda.CUDAGraph.replay",
     fx(E::GraphReplay)},
    {"cudaGraphLaunch", nullptr, graph(E::GraphReplay, 0, -1, 1), CudaRuntime},
    {"cudaGraphInstantiate;cudaGraphInstantiateWithFlags;"
     "cudaGraphInstantiateWithParams",
     nullptr, graph(E::GraphInstantiate, 1, 0, -1), CudaRuntime},
    {"cudaMalloc;cudaFree;cudaMallocHost;cudaHostAlloc;cudaFreeHost;"
     "cudaMallocManaged;cudaMallocPitch",
     nullptr, fx(E::RestrictedAllocation), CudaRuntime},
    {"cudaEventQuery", nullptr, onEvent(E::RestrictedEventQuery, 0),
     CudaRuntime},
    {"at::cuda::CUDAEvent::query;c10::cuda::CUDAEvent::query;c10::Event::query",
     "torch.cuda.Event.query", fx(E::RestrictedEventQuery)},
    {"cudaStreamQuery", nullptr, onStream(E::RestrictedStreamQuery, 0),
     CudaRuntime},
    {"c10::cuda::CUDAStream::query;c10::Stream::query",
     "torch.cuda.Stream.query", fx(E::RestrictedStreamQuery)},
    // The thread's capture mode (cudaThreadExchangeStreamCaptureMode swaps
    // it with *mode; the guard's constructor sets it, its destructor puts
    // the old one back): a call the runtime counts as unsafe is refused
    // only when both the capture's and the thread's modes are strict.
    {"cudaThreadExchangeStreamCaptureMode", nullptr,
     capture(E::CaptureModeExchange, -1, 0), CudaRuntime},
    {"c10::cuda::CUDAStreamCaptureModeGuard::CUDAStreamCaptureModeGuard",
     nullptr, capture(E::CaptureModeExchange, -1, 0), CppOnly},
    // Threads (section 7). std::async with the default policy may run
    // deferred on the caller; it is treated as another thread (it may be).
    // C++'s std::thread is a class (isThreadClass in lib/frontend).
    {nullptr, "threading.Thread",
     task(E::SpawnThread, 1, "target", TaskArguments::Packed),
     "C++ starts a thread by constructing std::thread"},
    // Python's pools: each task runs on a worker thread, which starts on
    // the default stream (as c10::ThreadPool::run's do); one that set a
    // stream in an earlier task keeps it, which is not followed. The
    // executor of run_in_executor (None: the loop's default pool) comes
    // first.
    {nullptr, "asyncio.to_thread", task(E::SpawnThread, 0, "func"),
     "C++'s pools are c10::ThreadPool and std::async (rows above)"},
    {nullptr,
     "concurrent.futures.ThreadPoolExecutor.submit;concurrent.futures."
     "thread.ThreadPoolExecutor.submit",
     task(E::SpawnThread, 0, "fn"),
     "C++'s pools are c10::ThreadPool and std::async (rows above)"},
    {nullptr, "asyncio.AbstractEventLoop.run_in_executor",
     task(E::SpawnThread, 1, "func"),
     "C++'s pools are c10::ThreadPool and std::async (rows above)"},
    {nullptr,
     "concurrent.futures.ThreadPoolExecutor.map;concurrent.futures.thread."
     "ThreadPoolExecutor.map",
     task(E::SpawnThread, 0, "fn", TaskArguments::Mapped),
     "C++'s pools are c10::ThreadPool and std::async (rows above)"},
    {"std::async;at::launch;at::intraop_launch;c10::ThreadPool::run;c10::"
     "TaskThreadPoolBase::run;c10::TaskThreadPool::run",
     nullptr, fx(E::SpawnThread), NotInPython},
    // ATen/Parallel-inl.h: the chunks run on the intra-op pool's threads
    // (and one on the caller) where the unit's compile gives ATen a
    // parallel backend (OpenMP with -fopenmp, or the native one); else the
    // body runs inline on the caller.
    {"at::parallel_for;at::parallel_reduce", nullptr, fx(E::ParallelLoop),
     "Python has no intra-op loop of its own"},
    // The host code of two threads is ordered by a wait on what the other
    // signalled: a thread's end (join, its task's future), a promise, a
    // latch, a condition variable, a Python Event or Queue (section 7).
    // libstdc++ defines future's wait() in its base __basic_future. Each
    // language's threading library is its own: rows of one language each,
    // with the same effects.
    {"std::thread::join;std::jthread::join;std::future::get;std::future::"
     "wait;std::future::wait_for;std::future::wait_until;std::shared_future::"
     "get;std::shared_future::wait;std::__basic_future::wait;std::__basic_"
     "future::wait_for;std::__basic_future::wait_until;std::latch::wait;std::"
     "barrier::wait;std::condition_variable::wait;std::condition_variable::"
     "wait_for;std::condition_variable::wait_until;std::condition_variable_"
     "any::wait;std::condition_variable_any::wait_for;std::condition_"
     "variable_any::wait_until;std::counting_semaphore::acquire;c10::"
     "ThreadPool::waitWorkComplete;c10::TaskThreadPoolBase::"
     "waitWorkComplete",
     nullptr, fx(E::HostWait), HostLibrary},
    {"std::promise::set_value;std::promise::set_exception;std::promise::set_"
     "value_at_thread_exit;std::latch::count_down;std::barrier::arrive;std::"
     "barrier::arrive_and_drop;std::condition_variable::notify_one;std::"
     "condition_variable::notify_all;std::condition_variable_any::notify_"
     "one;std::condition_variable_any::notify_all;std::counting_semaphore::"
     "release",
     nullptr, fx(E::HostSignal), HostLibrary},
    {"std::latch::arrive_and_wait;std::barrier::arrive_and_wait", nullptr,
     fx(E::HostSignalAndWait), HostLibrary},
    // A lock may be taken after another thread released it: taken to order
    // after every thread (precision first).
    {"std::mutex::lock;std::recursive_mutex::lock;std::shared_mutex::lock;"
     "std::unique_lock::lock;std::lock_guard::lock_guard;std::unique_lock::"
     "unique_lock;std::scoped_lock::scoped_lock;std::shared_lock::shared_"
     "lock",
     nullptr, fx(E::HostWaitAny), HostLibrary},
    {nullptr,
     "threading.Thread.join;concurrent.futures.Future.result;concurrent."
     "futures.Future.exception;threading.Event.wait;queue.Queue.get;threading."
     "Condition.wait;threading.Condition.wait_for;threading.Semaphore.acquire",
     fx(E::HostWait), HostLibrary},
    {nullptr,
     "threading.Event.set;queue.Queue.put;queue.Queue.put_nowait;concurrent."
     "futures.Future.set_result;threading.Condition.notify;threading."
     "Condition.notify_all;threading.Semaphore.release",
     fx(E::HostSignal), HostLibrary},
    {nullptr, "threading.Barrier.wait", fx(E::HostSignalAndWait), HostLibrary},
    {nullptr,
     "concurrent.futures.wait;concurrent.futures.as_completed;threading.Lock."
     "acquire;threading.RLock.acquire",
     fx(E::HostWaitAny), HostLibrary},
    // Autograd's modes touch no stream: a def they decorate runs as written.
    {nullptr,
     "torch.no_grad;torch.enable_grad;torch.inference_mode;torch.set_grad_"
     "enabled",
     fx(E::GradMode),
     "C++ writes a mode as a guard object (at::NoGradGuard, "
     "c10::InferenceMode), never as a decorator"},
    // Calls that pass their argument on.
    {"std::move;std::forward;std::as_const", nullptr, fx(E::TransparentCast),
     "C++ value categories: Python has none"},
};

const ClassRow Classes[] = {
    {"at::Tensor", "torch.Tensor", ValueClass::Tensor},
    {"at::TensorBase", nullptr, ValueClass::Tensor,
     "the base class of at::Tensor"},
    {"c10::cuda::CUDAStream", "torch.cuda.Stream", ValueClass::Stream},
    {"c10::Stream", "torch.Stream", ValueClass::Stream},
    {"at::cuda::CUDAEvent;c10::cuda::CUDAEvent", "torch.cuda.Event",
     ValueClass::Event},
    {"c10::Event", "torch.Event", ValueClass::Event},
    // A collective's work handle, held by c10::intrusive_ptr: an event
    // recorded on the group's stream after the collective.
    {"c10d::Work", nullptr, ValueClass::Event, C10dCpp},
    // with torch.cuda.stream(s): a guard for the block.
    {"c10::cuda::CUDAStreamGuard", "torch.cuda.stream;torch.cuda.StreamContext",
     ValueClass::StreamGuard},
    {"c10::StreamGuard", nullptr, ValueClass::StreamGuard, CppOnly},
    {"c10::cuda::OptionalCUDAStreamGuard;c10::OptionalStreamGuard", nullptr,
     ValueClass::OptionalGuard,
     "Python's torch.cuda.stream(None) is the optional form"},
    {"c10::cuda::CUDAMultiStreamGuard;c10::MultiStreamGuard", nullptr,
     ValueClass::MultiGuard, CppOnly},
    // with torch.cuda.device(d): device d is current for the block.
    {"c10::cuda::CUDAGuard", "torch.cuda.device", ValueClass::DeviceGuard},
    {"c10::cuda::OptionalCUDAGuard;c10::DeviceGuard;c10::OptionalDeviceGuard",
     nullptr, ValueClass::DeviceGuard, CppOnly},
};

// The names of a row, separated by ';'.
llvm::SmallVector<llvm::StringRef, 4> namesOf(const char *Names) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  if (Names)
    llvm::StringRef(Names).split(Out, ';', -1, /*KeepEmpty=*/false);
  return Out;
}

template <typename T, typename RowT, typename Pick>
llvm::StringMap<T> index(llvm::ArrayRef<RowT> Table, const char *RowT::*Names,
                         Pick Value) {
  llvm::StringMap<T> M;
  for (const RowT &R : Table)
    for (llvm::StringRef N : namesOf(R.*Names))
      M.try_emplace(N, Value(R));
  return M;
}

} // namespace

llvm::ArrayRef<ApiRow> apiRows() { return Rows; }
llvm::ArrayRef<ClassRow> classRows() { return Classes; }

const ApiEntry *cppApi(llvm::StringRef QualifiedName) {
  static const auto M = index<const ApiEntry *>(
      apiRows(), &ApiRow::Cpp, [](const ApiRow &R) { return &R.Entry; });
  auto It = M.find(QualifiedName);
  return It == M.end() ? nullptr : It->second;
}

const ApiRow *pythonApi(llvm::StringRef Dotted) {
  static const auto M = index<const ApiRow *>(
      apiRows(), &ApiRow::Python, [](const ApiRow &R) { return &R; });
  auto It = M.find(Dotted);
  return It == M.end() ? nullptr : It->second;
}

ValueClass cppClass(llvm::StringRef QualifiedName) {
  static const auto M = index<ValueClass>(
      classRows(), &ClassRow::Cpp, [](const ClassRow &R) { return R.Class; });
  auto It = M.find(QualifiedName);
  return It == M.end() ? ValueClass::None : It->second;
}

ValueClass pythonClass(llvm::StringRef Dotted) {
  static const auto M =
      index<ValueClass>(classRows(), &ClassRow::Python,
                        [](const ClassRow &R) { return R.Class; });
  auto It = M.find(Dotted);
  return It == M.end() ? ValueClass::None : It->second;
}

} // namespace streamsafe
