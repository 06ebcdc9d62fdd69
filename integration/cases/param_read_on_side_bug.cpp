// A tensor parameter is only known to be ready on the caller's current
// stream. Reading it on a pool stream without a wait races with its producer,
// which the caller queued behind earlier work.
#include "../harness.h"

at::Tensor reluOnSide(const at::Tensor &X) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Side);
  return X.relu(); // EXPECT: streamsafe-unsynchronized-access
}

int main(int argc, char **argv) {
  return it::run("param_read_on_side", "bug", argc, argv, [](float V) {
    at::cuda::sleep(it::spin());                      // the caller's earlier work, still queued
    at::Tensor X = at::full({it::kN}, V, it::opts()); // produced on the caller's stream
    return it::differs(reluOnSide(X), V);             // synchronizes before reading
  });
}
