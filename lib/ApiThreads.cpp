//===--- ApiThreads.cpp - Threads that do not inherit the current stream --===//
//
// API_MODEL.md §7: the current stream is thread-local. A callable handed to
// any of these runs on another thread, which starts on the default stream
// whatever guard or setCurrentCUDAStream was active where it was spawned.
// std::async with the default policy may run deferred on the caller; it is
// treated as another thread too (it may be one).
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

ApiEffect classifyThreadsApi(llvm::StringRef Name) {
  static const llvm::StringMap<ApiEffect> Table = {
      {"std::async", ApiEffect::SpawnThread},
      {"at::launch", ApiEffect::SpawnThread},
      {"at::intraop_launch", ApiEffect::SpawnThread},
      {"c10::ThreadPool::run", ApiEffect::SpawnThread},
      {"c10::TaskThreadPoolBase::run", ApiEffect::SpawnThread},
      {"c10::TaskThreadPool::run", ApiEffect::SpawnThread},
  };
  return lookupEffect(Table, Name);
}

bool isThreadClass(llvm::StringRef Name) {
  return Name == "std::thread" || Name == "std::jthread";
}

} // namespace streamsafe
