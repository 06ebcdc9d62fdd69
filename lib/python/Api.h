//===--- Api.h - The API model, as the Python front end asks it -*- C++ -*-===//
//
// The Python front end resolves a name through the imports
// (Imports::qualify) and asks the shared model (lib/model) what it is; this
// file only sorts the model's answer into the cases the front end's syntax
// handles differently (a constructor, a with-block, a torch function). It
// holds no API names.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_API_H
#define STREAMSAFE_LIB_PYTHON_API_H

#include "lib/model/ApiEffect.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe::py {

/// How the front end handles a call of a resolved name.
enum class PyApi {
  None,           ///< not a stream API, not under torch: unknown code
  NewStream,      ///< a stream from the pool
  ExternalStream, ///< a stream from elsewhere
  CurrentStream,  ///< the current stream
  DefaultStream,  ///< the legacy default stream
  NewEvent,       ///< a new event
  StreamContext,  ///< a stream guard for a with-block
  SetStream,      ///< sets the current stream
  Synchronize,    ///< the host waits for the device
  TorchFunction,  ///< a torch function with a recipe (torchEffect says which)
  NotTensor,      ///< returns no tensor the analysis follows
  Thread,         ///< a new thread (target=...)
  Task,           ///< a task for a pool's thread (ThreadCalls.h)
  Graph,          ///< a capture region for a with-block
  DeviceContext,  ///< device d is current for a with-block
  Collective,     ///< a torch.distributed collective (Collectives.h)
};

PyApi apiOf(llvm::StringRef Qualified);
/// For PyApi::TorchFunction: the model's effect (AtenFactory, AtenOp, ...).
ApiEffect torchEffect(llvm::StringRef Qualified);
/// The bare name of a torch function ("zeros" of "torch.zeros").
llvm::StringRef torchBareName(llvm::StringRef Qualified);

/// True when a call of \p Api makes a function worth analysing (a stream,
/// an event, a guard, a sync, a thread, a capture).
bool usesStreams(PyApi Api);
/// True when a method named \p Name is about streams on a stream, an event
/// or a tensor (wait_stream, record, record_stream, synchronize, ...),
/// whatever the receiver is: the pre-scan does not know types.
bool isStreamMethod(llvm::StringRef Name);

/// What the method \p Name of a stream (`torch.cuda.Stream`) or of an event
/// (`torch.cuda.Event`) does: the model's row's effect, else None.
ApiEffect streamMethodEffect(llvm::StringRef Name);
ApiEffect eventMethodEffect(llvm::StringRef Name);
/// `s.wait_stream(o)`: a stream method whose argument is the stream that s
/// waits for (the model's row takes a stream operand, not an event).
bool waitsForStream(llvm::StringRef Name);

/// HostWait, HostSignal, HostSignalAndWait or HostWaitAny: what a method
/// named \p Name of a host synchronisation object does (the model's rows,
/// by name: the receiver's class is not known), else None.
ApiEffect hostOrderMethod(llvm::StringRef Name);
/// Likewise for the function \p Qualified (concurrent.futures.wait).
ApiEffect hostOrderFunction(llvm::StringRef Qualified);

/// True when a def decorated with \p Qualified (`@torch.no_grad()`) runs as
/// written as far as streams go.
bool isTransparentDecorator(llvm::StringRef Qualified);

/// What the method \p Name of a tensor does (the model's row, or the naming
/// conventions).
ApiEffect tensorMethod(llvm::StringRef Name);
/// `x.T`, `x.data`: attributes that are views of the tensor.
bool isViewAttribute(llvm::StringRef Name);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_API_H
