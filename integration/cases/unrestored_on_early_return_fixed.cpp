// A helper switches the current stream for some optional work. Fixed: no
// early return; the original stream is restored on every path.
#include "../harness.h"

void warmUp(bool Skip) {
  at::cuda::CUDAStream Original = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(Side);
  if (!Skip) {
    at::Tensor T = at::ones({64}, it::opts()).mul_(2);
  }
  at::cuda::setCurrentCUDAStream(Original);
}

float sumAfterWarmUp(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  warmUp(/*Skip=*/true);
  return at::sum(A).item<float>(); // runs on whatever stream is current now
}

int main(int argc, char **argv) {
  return it::run("unrestored_on_early_return", "fixed", argc, argv,
                 [](float V) { return it::differs(sumAfterWarmUp(V), it::kN * double(V)); });
}
