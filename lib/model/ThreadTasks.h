//===--- ThreadTasks.h - Calls that run a task on another thread -*- C++
//-*-===//
//
// The rows of Python's thread starts and pools (lib/model/ApiRows.cpp,
// ApiEffect::SpawnThread, with the task's operand), asked the ways the
// Python front end meets them: by a qualified name (`threading.Thread`,
// `asyncio.to_thread`), by a method's name on an object the front end
// cannot type (`ex.submit(f)`, `loop.run_in_executor(None, f)`), and by an
// executor's class.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_THREADTASKS_H
#define STREAMSAFE_LIB_MODEL_THREADTASKS_H

#include "lib/model/ApiRows.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe {

/// The row of the Python function or class \p Dotted that runs a task on
/// another thread, or null.
const ApiRow *pythonThreadStart(llvm::StringRef Dotted);
/// The row of a Python executor's method named \p Method that runs a task
/// (`submit`, `map`, `run_in_executor`), or null.
const ApiRow *pythonTaskMethod(llvm::StringRef Method);
/// Whether the Python class \p Dotted has a method that runs tasks: what
/// its constructor makes is an executor.
bool pythonExecutorClass(llvm::StringRef Dotted);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_THREADTASKS_H
