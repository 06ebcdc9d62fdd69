// to(kCPU, non_blocking=true) returns pinned host memory and
// returns at once; the copy runs later on the current stream. Reading the host
// tensor before synchronizing sees whatever the pinned block held before.
#include "../harness.h"

float copyToHostAndRead(float V) {
  at::cuda::sleep(it::spin()); // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts());
  at::Tensor H = A.to(at::kCPU, /*non_blocking=*/true);
  return H.data_ptr<float>()[it::kN - 1]; // EXPECT: streamsafe-host-read-before-sync
}

int main(int argc, char **argv) {
  return it::run("host_read_nonblocking_d2h", "bug", argc, argv,
                 [](float V) { return it::differs(copyToHostAndRead(V), V); });
}
