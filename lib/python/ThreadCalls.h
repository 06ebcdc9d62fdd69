//===--- ThreadCalls.h - Calls that hand a task to another thread -*- C++
//-*-===//
//
// Reads a call into the model's row of a thread start or a pool's task
// (lib/model/ThreadTasks.h) and finds the callable it hands on. One reader
// for the analysis (Threads.cpp), the file's thread targets (HelperIndex)
// and the project's callers (CallerContexts.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_THREADCALLS_H
#define STREAMSAFE_LIB_PYTHON_THREADCALLS_H

#include "lib/model/ApiRows.h"
#include "lib/python/Imports.h"
#include "lib/python/Syntax.h"

namespace streamsafe::py {

/// The row of \p Call when it hands a task to another thread: a function
/// or class by its qualified name (`threading.Thread`,
/// `asyncio.to_thread`), or a pool's method by its name (`x.submit(f)`),
/// whatever object it is called on (null: neither). \p Method: the
/// method's name, when it is one.
const ApiRow *threadCallRow(TSNode Call, const SourceFile &F, const Imports &I,
                            llvm::StringRef *Method = nullptr);

/// The callable \p Call hands on, where \p Row puts it (null: not given).
TSNode taskArgument(TSNode Call, const ApiRow &Row, const SourceFile &F);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_THREADCALLS_H
