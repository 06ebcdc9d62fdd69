// A helper works on a side stream. Fixed: a CUDAStreamGuard
// restores the caller's current stream when the helper returns.
#include "../harness.h"

// Does its own bookkeeping on a side stream so the caller is not delayed.
void sideBookkeeping() {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Counters = at::zeros({64}, it::opts());
  Counters.add_(1);
}

float sumAfterBookkeeping(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  sideBookkeeping();
  return at::sum(A).item<float>(); // runs on whatever stream is current now
}

int main(int argc, char **argv) {
  return it::run("unrestored_current_stream", "fixed", argc, argv,
                 [](float V) { return it::differs(sumAfterBookkeeping(V), it::kN * double(V)); });
}
