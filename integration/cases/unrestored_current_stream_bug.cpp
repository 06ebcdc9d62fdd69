// A helper switches the current stream with setCurrentCUDAStream
// and never switches back. The caller's next op then runs on the pool stream,
// unordered with the caller's earlier work on its own stream.
#include "../harness.h"

// Does its own bookkeeping on a side stream so the caller is not delayed.
void sideBookkeeping() {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(Side); // EXPECT: streamsafe-unrestored-current-stream
  at::Tensor Counters = at::zeros({64}, it::opts());
  Counters.add_(1);
}

float sumAfterBookkeeping(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  sideBookkeeping();
  return at::sum(A).item<float>(); // EXPECT: streamsafe-unsynchronized-access (runs on whatever stream is current now: the pool stream)
}

int main(int argc, char **argv) {
  return it::run("unrestored_current_stream", "bug", argc, argv,
                 [](float V) { return it::differs(sumAfterBookkeeping(V), it::kN * double(V)); });
}
