//===--- ThreadTasks.cpp - Calls that run a task on another thread --------===//

#include "lib/model/ThreadTasks.h"
#include "llvm/ADT/SmallVector.h"

namespace streamsafe {

namespace {

/// Each Python spelling of a SpawnThread row whose class is no module of
/// the standard library's functions: "Class.method" pairs.
struct TaskMethod {
  llvm::StringRef Class, Method;
  const ApiRow *Row;
};

const llvm::SmallVector<TaskMethod, 4> &taskMethods() {
  static const llvm::SmallVector<TaskMethod, 4> Methods = [] {
    llvm::SmallVector<TaskMethod, 4> Out;
    for (const ApiRow &R : apiRows()) {
      if (R.Entry.Effect != ApiEffect::SpawnThread || !R.Python)
        continue;
      llvm::SmallVector<llvm::StringRef, 2> Names;
      llvm::StringRef(R.Python).split(Names, ';', -1, false);
      for (llvm::StringRef N : Names) {
        auto [Class, Method] = N.rsplit('.');
        // A method is one of a class: its owner's last part is capitalised
        // (`ThreadPoolExecutor.submit`, not `asyncio.to_thread`).
        llvm::StringRef Owner = Class.rsplit('.').second;
        if (Owner.empty())
          Owner = Class;
        if (!Owner.empty() && Owner.front() >= 'A' && Owner.front() <= 'Z')
          Out.push_back({Class, Method, &R});
      }
    }
    return Out;
  }();
  return Methods;
}

} // namespace

const ApiRow *pythonThreadStart(llvm::StringRef Dotted) {
  const ApiRow *R = pythonApi(Dotted);
  return R && R->Entry.Effect == ApiEffect::SpawnThread ? R : nullptr;
}

const ApiRow *pythonTaskMethod(llvm::StringRef Method) {
  for (const TaskMethod &M : taskMethods())
    if (M.Method == Method)
      return M.Row;
  return nullptr;
}

bool pythonExecutorClass(llvm::StringRef Dotted) {
  for (const TaskMethod &M : taskMethods())
    if (M.Class == Dotted)
      return true;
  return false;
}

} // namespace streamsafe
