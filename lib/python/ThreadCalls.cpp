//===--- ThreadCalls.cpp - Calls that hand a task to another thread -------===//

#include "lib/python/ThreadCalls.h"
#include "lib/model/ThreadTasks.h"
#include "lib/python/Collectives.h"

namespace streamsafe::py {

const ApiRow *threadCallRow(TSNode Call, const SourceFile &F, const Imports &I,
                            llvm::StringRef *Method) {
  if (!is(Call, "call"))
    return nullptr;
  TSNode Fn = field(Call, "function");
  if (const ApiRow *R = pythonThreadStart(I.qualify(Fn)))
    return R;
  if (!is(Fn, "attribute"))
    return nullptr;
  llvm::StringRef M = F.text(field(Fn, "attribute"));
  const ApiRow *R = pythonTaskMethod(M);
  if (R && Method)
    *Method = M;
  return R;
}

TSNode taskArgument(TSNode Call, const ApiRow &Row, const SourceFile &F) {
  return callArgument(Call, Row.Entry.Task, Row.Entry.TaskName, F);
}

} // namespace streamsafe::py
