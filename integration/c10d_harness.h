// A one-process NCCL process group (world size 1) of c10d's C++ API, for
// the collective cases: its collectives run on the group's internal NCCL
// stream as with more ranks. NVLink multicast stays off (the device
// tool's rule). Cases that include this say `// BUILD: c10d`.
#pragma once

#ifndef USE_C10D_NCCL
#define USE_C10D_NCCL
#endif
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace it {

inline c10::intrusive_ptr<c10d::ProcessGroupNCCL> singleRankGroup() {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", 0);
  setenv("NVSHMEM_DISABLE_NVLS", "1", 0);
  std::string Path =
      "/tmp/streamsafe-c10d-store-" + std::to_string(getpid());
  unlink(Path.c_str());
  auto Store = c10::make_intrusive<c10d::FileStore>(Path, 1);
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(
      Store, 0, 1, c10d::ProcessGroupNCCL::Options::create());
}

} // namespace it
