// Shared harness of the StreamSafe GPU integration suite (docs/integration.md).
//
// Each case calls it::run() with a body that does the stream work once and
// reports whether the result was corrupted. it::run() warms up, runs the body
// N times and prints one JSON line.
#pragma once

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/Sleep.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace it {

constexpr int64_t kN = 1 << 20; // elements per tensor (4 MiB of floats)

inline at::TensorOptions opts() { return at::TensorOptions().device(at::kCUDA).dtype(at::kFloat); }

// Cycles that the busy stream spins before the racing access. 1e8 cycles are
// about 50 ms on an H200 (~2 GHz), far longer than it takes the host to
// enqueue the unsynchronized consumer, so the race is won every time.
inline int64_t &spinCycles() {
  static int64_t Cycles = 100000000;
  return Cycles;
}
inline int64_t spin() { return spinCycles(); }

inline void sync() { c10::cuda::device_synchronize(); }

// True when Got is not Want (relative tolerance: float sums of kN elements).
inline bool differs(double Got, double Want) {
  return std::fabs(Got - Want) > 1e-3 * std::fabs(Want) + 1e-6;
}

// Waits for the device, then checks that every element of T equals Want.
inline bool differs(const at::Tensor &T, float Want) {
  sync();
  return !T.eq(Want).all().item<bool>();
}

inline int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

// Calls Body(V) with a fresh value V each time (so data left over from an
// earlier call is detectable) and counts the calls that return true.
//
// Runs: argv[1], else $STREAMSAFE_RUNS, else 20; spin: $STREAMSAFE_SPIN
// cycles, else 1e8. Warm-up calls
// ($STREAMSAFE_WARMUP, default 33) use a short spin and are not counted: they
// fill the caching allocator for every pool stream (32 per priority,
// round-robin) and the pinned host cache, so no cudaMalloc or cudaHostAlloc,
// which may synchronize the device, happens inside a measured run.
template <class Body>
int run(const char *Case, const char *Variant, int Argc, char **Argv, Body &&B,
        const char *Detail = "") {
  int Runs = Argc > 1 ? std::atoi(Argv[1]) : envInt("STREAMSAFE_RUNS", 20);
  int Warm = envInt("STREAMSAFE_WARMUP", 33);
  int64_t Cycles = envInt("STREAMSAFE_SPIN", 100000000);
  float V = 0;
  auto Once = [&] {
    // Every call starts on the default stream, whatever a buggy case leaked.
    c10::cuda::CUDAStreamGuard Restore(c10::cuda::getDefaultCUDAStream());
    bool Bad = B(++V);
    sync();
    return Bad;
  };
  spinCycles() = 1000;
  for (int I = 0; I < Warm; ++I)
    Once();
  spinCycles() = Cycles;
  int Corrupted = 0;
  for (int I = 0; I < Runs; ++I)
    Corrupted += Once() ? 1 : 0;
  std::printf("{\"case\": \"%s\", \"variant\": \"%s\", \"runs\": %d, "
              "\"corrupted\": %d, \"detail\": \"spin %lld cycles; %s\"}\n",
              Case, Variant, Runs, Corrupted, static_cast<long long>(Cycles), Detail);
  return 0;
}

} // namespace it
