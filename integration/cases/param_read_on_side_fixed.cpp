// A tensor parameter is only known to be ready on the caller's current
// stream. Fixed: the pool stream waits on an event recorded on the caller's
// stream at entry.
#include "../harness.h"

at::Tensor reluOnSide(const at::Tensor &X) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(); // X is ready on the caller's current stream here
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  return X.relu();
}

int main(int argc, char **argv) {
  return it::run("param_read_on_side", "fixed", argc, argv, [](float V) {
    at::cuda::sleep(it::spin());                      // the caller's earlier work, still queued
    at::Tensor X = at::full({it::kN}, V, it::opts()); // produced on the caller's stream
    return it::differs(reluOnSide(X), V);             // synchronizes before reading
  });
}
