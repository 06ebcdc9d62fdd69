//===--- Api.h - The PyTorch stream API, by qualified name ------*- C++ -*-===//
//
// What a resolved name (Imports::qualify) or a method name does to streams,
// events and tensors: the Python rows of the API model (docs/python.md).
// The facts each one becomes mirror the C++ rows of lib/frontend/ApiRows.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_API_H
#define STREAMSAFE_LIB_PYTHON_API_H

#include "llvm/ADT/StringRef.h"

namespace streamsafe::py {

/// A function or class named by its dotted path.
enum class PyApi {
  None,           ///< not a stream API, not under torch: unknown code
  NewStream,      ///< torch.cuda.Stream(): a stream from the pool
  ExternalStream, ///< torch.cuda.ExternalStream(ptr): a stream from elsewhere
  CurrentStream,  ///< torch.cuda.current_stream()
  DefaultStream,  ///< torch.cuda.default_stream()
  NewEvent,       ///< torch.cuda.Event()
  StreamContext,  ///< torch.cuda.stream(s), torch.cuda.StreamContext(s)
  SetStream,      ///< torch.cuda.set_stream(s)
  Synchronize,    ///< torch.cuda.synchronize()
  Factory,        ///< torch.empty/zeros/randn/...: a new tensor
  LikeFactory,    ///< torch.empty_like/...: a new tensor where the source is
  TensorOp,       ///< any other torch.* / torch.nn.functional.* function
  NotTensor,      ///< torch.* that returns no tensor (torch.device, ...)
  Thread,         ///< threading.Thread(target=...)
  Graph,          ///< torch.cuda.graph(g): a capture region (with)
  DeviceContext,  ///< torch.cuda.device(d): device d is current (with)
};

PyApi apiOf(llvm::StringRef Qualified);
/// torch.empty*: allocates without writing.
bool allocatesOnly(llvm::StringRef Qualified);

/// What a method does to the tensor it is called on.
enum class TensorMethod {
  Op,           ///< reads the tensor, returns a new one on the current stream
  InPlace,      ///< writes the tensor (name ends in '_'), returns it
  View,         ///< returns a view: no access
  Metadata,     ///< size(), dim(): no access, no tensor
  PieceList,    ///< chunk(), split(): views, not followed (escape)
  CopyFrom,     ///< copy_(src, non_blocking=...)
  RecordStream, ///< record_stream(s)
  HostRead,     ///< item(), tolist(), numpy(): the host reads it
  To,           ///< to(...), cuda(), cpu(): a copy to a device or the host
  PinMemory,    ///< pin_memory()
};

TensorMethod tensorMethod(llvm::StringRef Name);
/// `x.T`, `x.data`: attributes that are views of the tensor.
bool isViewAttribute(llvm::StringRef Name);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_API_H
