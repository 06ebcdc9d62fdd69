// A helper switches the current stream and restores it at the end, but an
// early return skips the restore. The caller's next op then runs on the pool
// stream, unordered with the caller's earlier work on its own stream.
#include "../harness.h"

void warmUp(bool Skip) {
  at::cuda::CUDAStream Original = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(Side); // EXPECT: streamsafe-unrestored-current-stream
  if (Skip)
    return;
  at::Tensor T = at::ones({64}, it::opts()).mul_(2);
  at::cuda::setCurrentCUDAStream(Original);
}

float sumAfterWarmUp(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  warmUp(/*Skip=*/true); // the pool stream stays current
  return at::sum(A).item<float>(); // EXPECT: streamsafe-unsynchronized-access
}

int main(int argc, char **argv) {
  return it::run("unrestored_on_early_return", "bug", argc, argv,
                 [](float V) { return it::differs(sumAfterWarmUp(V), it::kN * double(V)); });
}
