//===--- FileJobs.cpp - Files checked on several threads, reported in order
//===//

#include "tools/py/FileJobs.h"
#include "lib/python/Modules.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/thread.h"
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace streamsafe::py {

static FileOutcome checkOne(const std::string &Path, const PyOptions &Opts,
                            const std::vector<std::string> &CheckArgs) {
  FileOutcome O;
  auto Buf = Path == "-" ? llvm::MemoryBuffer::getSTDIN()
                         : llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    O.ReadError = Buf.getError().message();
    return O;
  }
  O.Checked = checkFile(Path, (*Buf)->getBuffer().str(), Opts, CheckArgs);
  return O;
}

void checkFiles(const std::vector<std::string> &Files, unsigned Jobs,
                unsigned StackBytes, const PyOptions &Opts,
                const std::vector<std::string> &CheckArgs,
                llvm::function_ref<bool(size_t, FileOutcome &)> Report) {
  // One thread: on the caller's, file by file, as before threads.
  if (Jobs <= 1 || Files.size() <= 1) {
    ModuleCache Modules(Opts.ProjectRoot, Opts.DeviceModuleFunctions);
    PyOptions Own = Opts;
    Own.Modules = &Modules;
    for (size_t K = 0; K < Files.size(); ++K) {
      FileOutcome O = checkOne(Files[K], Own, CheckArgs);
      if (!Report(K, O))
        return;
    }
    return;
  }
  std::vector<std::optional<FileOutcome>> Done(Files.size());
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  std::mutex M;
  std::condition_variable Ready;
  auto Work = [&] {
    ModuleCache Modules(Opts.ProjectRoot, Opts.DeviceModuleFunctions);
    PyOptions Own = Opts;
    Own.Modules = &Modules;
    for (size_t K; !Stop && (K = Next++) < Files.size();) {
      FileOutcome O = checkOne(Files[K], Own, CheckArgs);
      std::lock_guard<std::mutex> L(M);
      Done[K] = std::move(O);
      Ready.notify_all();
    }
  };
  std::vector<llvm::thread> Threads;
  for (unsigned T = 0; T < Jobs && T < Files.size(); ++T)
    Threads.emplace_back(std::optional<unsigned>(StackBytes), Work);
  for (size_t K = 0; K < Files.size(); ++K) {
    std::unique_lock<std::mutex> L(M);
    Ready.wait(L, [&] { return Done[K].has_value(); });
    FileOutcome O = std::move(*Done[K]);
    Done[K].reset();
    L.unlock();
    if (!Report(K, O)) {
      Stop = true;
      break;
    }
  }
  for (llvm::thread &T : Threads)
    T.join();
}

unsigned defaultJobs(size_t Files) {
  unsigned Cores = llvm::hardware_concurrency().compute_thread_count();
  if (Cores == 0)
    Cores = 1;
  return Files < Cores ? unsigned(Files ? Files : 1) : Cores;
}

} // namespace streamsafe::py
