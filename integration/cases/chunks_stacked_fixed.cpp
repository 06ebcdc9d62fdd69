// The chunks of X are scaled on a side stream, then stacked on the current
// stream, which first waits for an event recorded on the side stream.
#include "../harness.h"

#include <vector>

at::Tensor scaleChunks(float V) {
  at::cuda::CUDAStream Cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor X = at::full({4, it::kN / 4}, V, it::opts());
  std::vector<at::Tensor> Parts = X.chunk(4);
  at::cuda::CUDAEvent Ready;
  Ready.record(Cur);
  Ready.block(Side);
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    at::cuda::sleep(it::spin()); // the side stream is busy with earlier work
    for (auto &P : Parts) {
      P.mul_(2);
      P.record_stream(Side);
    }
  }
  at::cuda::CUDAEvent Scaled;
  Scaled.record(Side);
  Scaled.block(Cur);
  return at::stack(Parts);
}

int main(int argc, char **argv) {
  return it::run("chunks_stacked", "fixed", argc, argv,
                 [](float V) { return it::differs(scaleChunks(V), 2 * V); });
}
