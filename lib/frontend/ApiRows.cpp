//===--- ApiRows.cpp - The built-in rows of the API table -----------------===//
//
// One row per API: its fully qualified name, its effect and where its
// operands are. Adding an API is adding a row. at::cuda:: names are a
// using-directive of c10::cuda::, so only the c10 spelling appears;
// CUDAEvent is at::cuda:: in 1.13 and c10::cuda:: in 2.x, so both do.
// docs/api-model.md gives the facts behind each row, with PyTorch sources.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

namespace {

using E = ApiEffect;

struct Row {
  const char *Name;
  ApiEntry Entry;
};

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

ApiEntry capture(E Effect, int8_t Stream, int8_t Mode) {
  ApiEntry A{Effect};
  A.Stream = Stream;
  A.Mode = Mode;
  return A;
}

const Row Rows[] = {
    // Streams and guards (docs/api-model.md, sections 1 and 2).
    {"c10::cuda::getStreamFromPool", fx(E::StreamFromPool)},
    {"c10::cuda::getDefaultCUDAStream", fx(E::DefaultStream)},
    {"c10::cuda::getCurrentCUDAStream", fx(E::CurrentStream)},
    {"c10::cuda::getStreamFromExternal", fx(E::ExternalStream)},
    // The current device changes, with no restore (c10/cuda/CUDAFunctions.h).
    {"cudaSetDevice", fx(E::SetDevice)},
    {"c10::cuda::set_device", fx(E::SetDevice)},
    {"cudaStreamCreate", fx(E::StreamCreate)},
    {"cudaStreamCreateWithFlags", fx(E::StreamCreate)},
    {"cudaStreamCreateWithPriority", fx(E::StreamCreate)},
    // PyTorch's stable C ABI (torch/csrc/inductor/aoti_torch/c/shim.h):
    // the current stream, written through the second argument.
    {"aoti_torch_get_current_cuda_stream", onStream(E::CurrentStream, 1)},
    {"aoti_torch_get_current_stream", onStream(E::CurrentStream, 1)},
    {"c10::cuda::setCurrentCUDAStream", onStream(E::SetCurrentStream, 0)},
    {"c10::cuda::CUDAStream::unwrap", fx(E::StreamIdentity)},
    {"c10::cuda::CUDAStream::stream", fx(E::StreamIdentity)},
    {"c10::cuda::CUDAStream::operator CUstream_st *", fx(E::StreamIdentity)},
    {"c10::cuda::CUDAStream::operator Stream", fx(E::StreamIdentity)},
    {"c10::cuda::CUDAStreamGuard::reset_stream",
     onStream(E::GuardResetStream, 0)},
    {"c10::cuda::OptionalCUDAStreamGuard::reset_stream",
     onStream(E::GuardResetStream, 0)},
    {"c10::cuda::OptionalCUDAStreamGuard::reset", fx(E::GuardReset)},
    {"c10::StreamGuard::reset_stream", onStream(E::GuardResetStream, 0)},
    {"c10::OptionalStreamGuard::reset_stream",
     onStream(E::GuardResetStream, 0)},
    {"c10::OptionalStreamGuard::reset", fx(E::GuardReset)},
    // Events (section 3). record() records on the current stream, record(s)
    // and recordOnce(s) on s: an absent argument is the current stream.
    {"at::cuda::CUDAEvent::record", onStream(E::EventRecord, 0)},
    {"c10::cuda::CUDAEvent::record", onStream(E::EventRecord, 0)},
    {"c10::Event::record", onStream(E::EventRecord, 0)},
    {"at::cuda::CUDAEvent::recordOnce", onStream(E::EventRecord, 0)},
    {"c10::cuda::CUDAEvent::recordOnce", onStream(E::EventRecord, 0)},
    {"c10::Event::recordOnce", onStream(E::EventRecord, 0)},
    {"at::cuda::CUDAEvent::block", onStream(E::EventBlock, 0)},
    {"c10::cuda::CUDAEvent::block", onStream(E::EventBlock, 0)},
    {"c10::Event::block", onStream(E::EventBlock, 0)},
    {"at::cuda::CUDAEvent::synchronize", fx(E::EventSynchronize)},
    {"c10::cuda::CUDAEvent::synchronize", fx(E::EventSynchronize)},
    {"c10::Event::synchronize", fx(E::EventSynchronize)},
    {"c10::Stream::wait", onEvent(E::StreamWaitEvent, 0)},
    {"cudaEventRecord", onEvent(E::RawEventRecord, 0, 1)},
    {"cudaEventRecordWithFlags", onEvent(E::RawEventRecord, 0, 1)},
    {"cudaStreamWaitEvent", onEvent(E::RawStreamWaitEvent, 1, 0)},
    {"cudaEventSynchronize", onEvent(E::RawEventSynchronize, 0)},
    // Host synchronisation (section 4).
    {"c10::cuda::CUDAStream::synchronize", fx(E::StreamSynchronize)},
    {"c10::Stream::synchronize", fx(E::StreamSynchronize)},
    {"c10::cuda::stream_synchronize", onStream(E::StreamSyncFunction, 0)},
    {"cudaStreamSynchronize", onStream(E::StreamSyncFunction, 0)},
    {"cudaDeviceSynchronize", fx(E::DeviceSynchronize)},
    {"c10::cuda::device_synchronize", fx(E::DeviceSynchronize)},
    {"torch::cuda::synchronize", fx(E::DeviceSynchronize)},
    // The caching allocator (section 5).
    {"c10::cuda::CUDACachingAllocator::recordStream",
     copy(E::AllocatorRecordStream, 0, -1, -1, -1, 1)},
    // Raw memory operations (section 6): (dest, source, size, kind, stream).
    {"cudaMemcpyAsync", copy(E::MemcpyAsync, 0, 1, 2, 3, 4)},
    {"cudaMemcpy2DAsync", copy(E::MemcpyAsync, 0, 2, -1, 6, 7)},
    {"cudaMemsetAsync", copy(E::MemsetAsync, 0, -1, 2, -1, 3)},
    {"cudaMemcpy3DAsync", onStream(E::StreamOrdered, 1)},
    {"cudaMemcpyPeerAsync", onStream(E::StreamOrdered, 5)},
    {"cudaMemcpyToSymbolAsync", onStream(E::StreamOrdered, 5)},
    {"cudaMemcpyFromSymbolAsync", onStream(E::StreamOrdered, 5)},
    {"cudaMemset2DAsync", onStream(E::StreamOrdered, 5)},
    {"cudaMemset3DAsync", onStream(E::StreamOrdered, 3)},
    {"cudaMallocAsync", onStream(E::StreamOrdered, 2)},
    {"cudaFreeAsync", onStream(E::StreamOrdered, 1)},
    {"cudaLaunchKernel", onStream(E::StreamOrdered, 5)},
    {"cudaLaunchCooperativeKernel", onStream(E::StreamOrdered, 5)},
    {"cudaMemcpy", copy(E::MemcpySync, 0, 1, 2, 3, -1, "cudaMemcpyAsync")},
    {"cudaMemcpy2D", copy(E::MemcpySync, 0, 2, -1, 6, -1, "cudaMemcpy2DAsync")},
    {"cudaMemcpy3D",
     copy(E::MemcpySync, -1, -1, -1, -1, -1, "cudaMemcpy3DAsync")},
    {"cudaMemcpyPeer",
     copy(E::MemcpySync, 0, 2, 4, -1, -1, "cudaMemcpyPeerAsync")},
    {"cudaMemcpyToSymbol",
     copy(E::MemcpySync, -1, 1, 2, 4, -1, "cudaMemcpyToSymbolAsync")},
    {"cudaMemcpyFromSymbol",
     copy(E::MemcpySync, 0, -1, 2, 4, -1, "cudaMemcpyFromSymbolAsync")},
    {"cudaMemset", copy(E::MemsetSync, 0, -1, 2, -1, -1, "cudaMemsetAsync")},
    {"cudaMemset2D",
     copy(E::MemsetSync, -1, -1, -1, -1, -1, "cudaMemset2DAsync")},
    {"cudaMemset3D",
     copy(E::MemsetSync, -1, -1, -1, -1, -1, "cudaMemset3DAsync")},
    {"c10::cuda::memcpy_and_sync", copy(E::MemcpyAndSync, 0, 1, 2, 3, 4)},
    {"std::memcpy", copy(E::HostMemcpy, 0, 1, 2, -1, -1)},
    {"memcpy", copy(E::HostMemcpy, 0, 1, 2, -1, -1)},
    {"std::memset", copy(E::HostMemcpy, 0, -1, 2, -1, -1)},
    {"memset", copy(E::HostMemcpy, 0, -1, 2, -1, -1)},
    {"std::copy", copy(E::HostMemcpy, 2, 0, -1, -1, -1)},
    {"std::copy_n", copy(E::HostMemcpy, 2, 0, 1, -1, -1)},
    {"std::fill", copy(E::HostMemcpy, 0, -1, -1, -1, -1)},
    {"std::fill_n", copy(E::HostMemcpy, 0, -1, 1, -1, -1)},
    // CUDA graph capture (section 9). capture_begin(pool) in 1.13,
    // capture_begin(pool, capture_mode) in 2.x: one row for both, the mode
    // at 1 when written. The capturing stream is the current one.
    {"at::cuda::CUDAGraph::capture_begin", capture(E::CaptureBegin, -1, 1)},
    {"at::cuda::CUDAGraph::capture_end", fx(E::CaptureEnd)},
    {"cudaStreamBeginCapture", capture(E::CaptureBegin, 0, 1)},
    {"cudaStreamBeginCaptureToGraph", capture(E::CaptureBegin, 0, 5)},
    {"cudaStreamEndCapture", capture(E::CaptureEnd, 0, -1)},
    {"cudaMalloc", fx(E::RestrictedAllocation)},
    {"cudaFree", fx(E::RestrictedAllocation)},
    {"cudaMallocHost", fx(E::RestrictedAllocation)},
    {"cudaHostAlloc", fx(E::RestrictedAllocation)},
    {"cudaFreeHost", fx(E::RestrictedAllocation)},
    {"cudaMallocManaged", fx(E::RestrictedAllocation)},
    {"cudaMallocPitch", fx(E::RestrictedAllocation)},
    {"cudaEventQuery", onEvent(E::RestrictedEventQuery, 0)},
    {"at::cuda::CUDAEvent::query", fx(E::RestrictedEventQuery)},
    {"c10::cuda::CUDAEvent::query", fx(E::RestrictedEventQuery)},
    {"c10::Event::query", fx(E::RestrictedEventQuery)},
    {"cudaStreamQuery", onStream(E::RestrictedStreamQuery, 0)},
    {"c10::cuda::CUDAStream::query", fx(E::RestrictedStreamQuery)},
    {"c10::Stream::query", fx(E::RestrictedStreamQuery)},
    // Threads (section 7). std::async with the default policy may run
    // deferred on the caller; it is treated as another thread (it may be).
    {"std::async", fx(E::SpawnThread)},
    {"at::launch", fx(E::SpawnThread)},
    {"at::intraop_launch", fx(E::SpawnThread)},
    {"c10::ThreadPool::run", fx(E::SpawnThread)},
    {"c10::TaskThreadPoolBase::run", fx(E::SpawnThread)},
    {"c10::TaskThreadPool::run", fx(E::SpawnThread)},
    // Calls that pass their argument on.
    {"std::move", fx(E::TransparentCast)},
    {"std::forward", fx(E::TransparentCast)},
    {"std::as_const", fx(E::TransparentCast)},
    // Methods of at::Tensor with an effect of their own (section 5); any
    // other method is an op, in place when its name ends in '_'.
    {"at::Tensor::copy_", copy(E::TensorCopyFrom, -1, 0, -1, -1, -1)},
    {"at::Tensor::record_stream", onStream(E::TensorRecordStream, 0)},
    {"at::Tensor::reset", fx(E::TensorReset)},
    {"at::Tensor::item", fx(E::TensorHostRead)},
    {"at::Tensor::cpu", fx(E::TensorHostRead)},
    {"at::Tensor::to", fx(E::TensorTo)},
    {"at::Tensor::pin_memory", fx(E::TensorPinMemory)},
    // ATen free functions with an effect of their own; any other is an op
    // (in place for a trailing '_', an out= variant for _out / _outf).
    {"at::from_blob", fx(E::AtenFromBlob)},
};

// Tensor methods that touch no device memory, views, raw pointers; ATen
// factories. Lists, as they are long and uniform.
const char *const TensorMetadata[] = {"sizes",
                                      "size",
                                      "sym_sizes",
                                      "sym_size",
                                      "dim",
                                      "ndimension",
                                      "numel",
                                      "sym_numel",
                                      "dtype",
                                      "scalar_type",
                                      "options",
                                      "device",
                                      "get_device",
                                      "is_cuda",
                                      "is_cpu",
                                      "defined",
                                      "strides",
                                      "stride",
                                      "sym_strides",
                                      "is_contiguous",
                                      "is_non_overlapping_and_dense",
                                      "element_size",
                                      "itemsize",
                                      "nbytes",
                                      "layout",
                                      "is_sparse",
                                      "requires_grad",
                                      "storage_offset",
                                      "key_set",
                                      "is_pinned",
                                      "suggest_memory_format",
                                      "use_count",
                                      "weak_use_count",
                                      "is_same",
                                      "has_storage",
                                      "is_complex",
                                      "is_floating_point",
                                      "is_signed",
                                      "name",
                                      "toString",
                                      "print",
                                      "unsafeGetTensorImpl",
                                      "getIntrusivePtr",
                                      "is_alias_of",
                                      "is_view",
                                      "_base",
                                      "grad_fn",
                                      "is_leaf",
                                      "output_nr",
                                      "_version",
                                      "retain_grad",
                                      "is_quantized",
                                      "is_meta",
                                      "is_mkldnn",
                                      "is_nested",
                                      "is_inference",
                                      "has_names",
                                      "storage",
                                      "is_conj",
                                      "is_neg",
                                      "type"};
const char *const TensorViews[] = {"view",
                                   "view_as",
                                   "slice",
                                   "narrow",
                                   "select",
                                   "operator[]",
                                   "transpose",
                                   "permute",
                                   "expand",
                                   "expand_as",
                                   "as_strided",
                                   "t",
                                   "reshape",
                                   "reshape_as",
                                   "squeeze",
                                   "unsqueeze",
                                   "flatten",
                                   "unflatten",
                                   "contiguous",
                                   "detach",
                                   "alias",
                                   "unfold",
                                   "diagonal",
                                   "real",
                                   "imag",
                                   "movedim",
                                   "moveaxis",
                                   "swapaxes",
                                   "swapdims",
                                   "mT",
                                   "mH",
                                   "T",
                                   "H",
                                   "adjoint",
                                   "view_as_real",
                                   "view_as_complex",
                                   "conj",
                                   "resolve_conj",
                                   "resolve_neg",
                                   "_conj",
                                   "variable_data",
                                   "tensor_data",
                                   "coalesce",
                                   "values",
                                   "indices"};
// Methods returning a std::vector of views of the tensor's pieces.
const char *const TensorViewLists[] = {"chunk",
                                       "split",
                                       "unbind",
                                       "tensor_split",
                                       "unsafe_chunk",
                                       "unsafe_split",
                                       "split_with_sizes",
                                       "hsplit",
                                       "vsplit",
                                       "dsplit",
                                       "unsafe_split_with_sizes"};
const char *const TensorRawPointers[] = {"data_ptr",
                                         "const_data_ptr",
                                         "mutable_data_ptr",
                                         "accessor",
                                         "packed_accessor32",
                                         "packed_accessor64",
                                         "generic_packed_accessor",
                                         "packed_accessor"};
const char *const AtenFactories[] = {
    "empty",      "empty_like", "empty_strided", "zeros",
    "zeros_like", "ones",       "ones_like",     "full",
    "full_like",  "rand",       "rand_like",     "randn",
    "randn_like", "randint",    "randint_like",  "randperm",
    "arange",     "range",      "linspace",      "logspace",
    "eye",        "tensor",     "scalar_tensor", "empty_quantized",
    "normal",     "bernoulli",  "tril_indices",  "triu_indices",
    "zeros_out",  "ones_out",   "empty_out"};

const llvm::StringMap<ApiEntry> &table() {
  static const llvm::StringMap<ApiEntry> T = [] {
    llvm::StringMap<ApiEntry> M;
    for (const Row &R : Rows)
      M[R.Name] = R.Entry;
    for (const char *N : TensorMetadata)
      M[std::string("at::Tensor::") + N] = fx(E::TensorMetadata);
    for (const char *N : TensorViews)
      M[std::string("at::Tensor::") + N] = fx(E::TensorView);
    for (const char *N : TensorViewLists)
      M[std::string("at::Tensor::") + N] = fx(E::TensorViewList);
    for (const char *N : TensorRawPointers)
      M[std::string("at::Tensor::") + N] = fx(E::TensorRawPointer);
    for (const char *N : AtenFactories)
      M[std::string("at::") + N] = fx(E::AtenFactory);
    return M;
  }();
  return T;
}

const llvm::StringMap<ValueClass> &classes() {
  static const llvm::StringMap<ValueClass> C = {
      {"at::Tensor", ValueClass::Tensor},
      {"at::TensorBase", ValueClass::Tensor},
      {"c10::cuda::CUDAStream", ValueClass::Stream},
      {"c10::Stream", ValueClass::Stream},
      {"at::cuda::CUDAEvent", ValueClass::Event},
      {"c10::cuda::CUDAEvent", ValueClass::Event},
      {"c10::Event", ValueClass::Event},
      {"c10::cuda::CUDAStreamGuard", ValueClass::StreamGuard},
      {"c10::StreamGuard", ValueClass::StreamGuard},
      {"c10::cuda::OptionalCUDAStreamGuard", ValueClass::OptionalGuard},
      {"c10::OptionalStreamGuard", ValueClass::OptionalGuard},
      {"c10::cuda::CUDAMultiStreamGuard", ValueClass::MultiGuard},
      {"c10::MultiStreamGuard", ValueClass::MultiGuard},
      {"c10::cuda::CUDAGuard", ValueClass::DeviceGuard},
      {"c10::cuda::OptionalCUDAGuard", ValueClass::DeviceGuard},
      {"c10::DeviceGuard", ValueClass::DeviceGuard},
      {"c10::OptionalDeviceGuard", ValueClass::DeviceGuard},
  };
  return C;
}

} // namespace

const ApiEntry *builtinRow(llvm::StringRef QualifiedName) {
  const auto &T = table();
  auto It = T.find(QualifiedName);
  return It == T.end() ? nullptr : &It->second;
}

ValueClass builtinClass(llvm::StringRef QualifiedName) {
  const auto &C = classes();
  auto It = C.find(QualifiedName);
  return It == C.end() ? ValueClass::None : It->second;
}

} // namespace streamsafe
