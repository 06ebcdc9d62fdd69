// Harness additions for cases that need two CUDA devices
// (docs/integration.md): on a machine with one, such a case prints an
// "error" line saying so instead of running.
#pragma once

#include "harness.h"

namespace it {

// Leaves device 1's current stream busy writing a 4 MiB buffer, which is
// freed at once: the next allocation of that size on device 1's current
// stream gets the same block while the write is still to come.
inline void busyOnDevice1(float Poison) {
  at::cuda::CUDAGuard OnDevice1(1);
  at::Tensor Scratch = at::empty({kN}, opts().device(at::Device(at::kCUDA, 1)));
  at::cuda::sleep(spin());
  Scratch.fill_(Poison);
}

// Waits for both devices the cases use, then checks every element of T.
// (Written out, not as a loop over device_count(): the analyzer cannot tell
// that such a loop runs at all, and reads the check as unsynchronised.)
inline bool differsOnAllDevices(const at::Tensor &T, float Want) {
  {
    at::cuda::CUDAGuard On(0);
    c10::cuda::device_synchronize();
  }
  {
    at::cuda::CUDAGuard On(1);
    c10::cuda::device_synchronize();
  }
  return !T.eq(Want).all().item<bool>();
}

template <class Body>
int runOnTwoDevices(const char *Case, const char *Variant, int Argc, char **Argv, Body &&B) {
  if (c10::cuda::device_count() < 2) {
    std::printf("{\"case\": \"%s\", \"variant\": \"%s\", \"error\": \"needs 2 CUDA devices, "
                "found %d\"}\n",
                Case, Variant, static_cast<int>(c10::cuda::device_count()));
    return 0;
  }
  return run(Case, Variant, Argc, Argv, B, "two devices");
}

} // namespace it
