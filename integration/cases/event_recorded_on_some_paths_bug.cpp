// The event is recorded on one path only. On the other path the side stream
// waits on a never-recorded event, a silent no-op, and sums X before its
// producer on the caller's stream has run.
#include "../harness.h"

float sideSum(const at::Tensor &X, bool Cached) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  if (!Cached) // a cached X was believed to be ready already
    Ready.record();
  Ready.block(Side); // EXPECT: streamsafe-unrecorded-event-wait
  at::cuda::CUDAStreamGuard Guard(Side);
  return at::sum(X).item<float>(); // EXPECT: streamsafe-unsynchronized-access
}

int main(int argc, char **argv) {
  return it::run("event_recorded_on_some_paths", "bug", argc, argv, [](float V) {
    at::cuda::sleep(it::spin());                      // the caller's earlier work, still queued
    at::Tensor X = at::full({it::kN}, V, it::opts()); // produced on the caller's stream
    return it::differs(sideSum(X, /*Cached=*/true), it::kN * double(V));
  });
}
