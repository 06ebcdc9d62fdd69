// The side stream waits for X's producer through an event. Fixed: the event
// is recorded on every path before the wait.
#include "../harness.h"

float sideSum(const at::Tensor &X, bool Cached) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  (void)Cached; // whether X is cached, it may still be pending on the caller's stream
  Ready.record();
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  return at::sum(X).item<float>();
}

int main(int argc, char **argv) {
  return it::run("event_recorded_on_some_paths", "fixed", argc, argv, [](float V) {
    at::cuda::sleep(it::spin());                      // the caller's earlier work, still queued
    at::Tensor X = at::full({it::kN}, V, it::opts()); // produced on the caller's stream
    return it::differs(sideSum(X, /*Cached=*/true), it::kN * double(V));
  });
}
