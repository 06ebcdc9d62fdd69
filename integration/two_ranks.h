// Harness additions for the multi-rank collective cases (docs/integration.md,
// "Two ranks"): two processes, one per GPU, in one NCCL process group of
// c10d's C++ API. On a machine with fewer than two GPUs a case prints an
// "error" line saying so instead of running. Cases that include this say
// `// BUILD: c10d`.
#pragma once

#include "c10d_harness.h"
#include "harness.h"

#include <csignal>
#include <cstdio>
#include <sys/wait.h>

namespace it {

// Tensors of the two-rank cases: 64 MiB, well over NCCL's 4 MiB staging
// buffer, so a send cannot finish before its receiver is there.
constexpr int64_t kRankN = int64_t(1) << 24;

// Whether either rank saw a wrong result (both ranks agree, so every run
// is counted once).
inline bool anyRank(c10d::ProcessGroupNCCL &PG, bool Bad) {
  std::vector<at::Tensor> Flag{at::full({1}, Bad ? 1.0f : 0.0f, opts())};
  c10d::AllreduceOptions Max;
  Max.reduceOp = c10d::ReduceOp::MAX;
  PG.allreduce(Flag, Max)->wait();
  return Flag[0].item<float>() > 0;
}

// Forks one process per rank before CUDA starts (a forked child cannot use
// a CUDA context its parent made). Each binds GPU `rank`, joins the group
// through a file store and runs `B(PG, Rank, V)` under it::run; rank 0
// prints the JSON line. The exit status is the worse of the two.
template <class Body>
int runOnTwoRanks(const char *Case, const char *Variant, int Argc, char **Argv, Body &&B) {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", 0);
  setenv("NVSHMEM_DISABLE_NVLS", "1", 0);
  std::string Path = "/tmp/streamsafe-ranks-store-" + std::to_string(getpid());
  unlink(Path.c_str());
  std::fflush(stdout);
  pid_t Children[2];
  for (int Rank = 0; Rank < 2; ++Rank) {
    Children[Rank] = fork();
    if (Children[Rank] < 0) {
      std::perror("fork");
      std::exit(1);
    }
    if (Children[Rank] != 0)
      continue;
    if (Rank != 0 && !std::freopen("/dev/null", "w", stdout))
      std::_Exit(1);
    int Devices = static_cast<int>(c10::cuda::device_count());
    if (Devices < 2) {
      if (Rank == 0)
        std::printf("{\"case\": \"%s\", \"variant\": \"%s\", \"error\": \"needs 2 CUDA "
                    "devices, found %d\"}\n",
                    Case, Variant, Devices);
      std::fflush(stdout);
      std::_Exit(0);
    }
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(Rank));
    auto Store = c10::make_intrusive<c10d::FileStore>(Path, 2);
    auto PG = c10::make_intrusive<c10d::ProcessGroupNCCL>(
        Store, Rank, 2, c10d::ProcessGroupNCCL::Options::create());
    int Rc = run(Case, Variant, Argc, Argv,
                 [&](float V) { return anyRank(*PG, B(*PG, Rank, V)); }, "two ranks");
    std::fflush(stdout);
    std::_Exit(Rc); // no teardown: every collective has been waited for
  }
  // A rank that fails leaves its peer waiting in a collective for ever: both
  // are killed after $STREAMSAFE_RANKS_TIMEOUT_S seconds (default 300).
  int Worst = 0, Left = 2;
  bool Reaped[2] = {false, false}, Killed = false;
  for (int Tick = 0; Left > 0; ++Tick) {
    for (int Rank = 0; Rank < 2; ++Rank) {
      int Status = 0;
      if (Reaped[Rank] || waitpid(Children[Rank], &Status, WNOHANG) != Children[Rank])
        continue;
      Reaped[Rank] = true;
      --Left;
      int Rc = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
      Worst = Rc > Worst ? Rc : Worst;
    }
    if (Left > 0 && !Killed && Tick >= envInt("STREAMSAFE_RANKS_TIMEOUT_S", 300) * 10) {
      for (int Rank = 0; Rank < 2; ++Rank)
        if (!Reaped[Rank])
          kill(Children[Rank], SIGKILL);
      std::printf("{\"case\": \"%s\", \"variant\": \"%s\", \"error\": \"a rank did not "
                  "finish in time\"}\n",
                  Case, Variant);
      std::fflush(stdout);
      Killed = true;
    }
    if (Left > 0)
      usleep(100000);
  }
  unlink(Path.c_str());
  return Killed ? 124 : Worst;
}

} // namespace it
