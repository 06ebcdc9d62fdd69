// to(kCPU, non_blocking=true) returns pinned host memory and
// returns at once; the copy runs later on the current stream. Fixed: the host
// synchronizes with the stream before reading.
#include "../harness.h"

float copyToHostAndRead(float V) {
  at::cuda::sleep(it::spin()); // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts());
  at::Tensor H = A.to(at::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  return H.data_ptr<float>()[it::kN - 1];
}

int main(int argc, char **argv) {
  return it::run("host_read_nonblocking_d2h", "fixed", argc, argv,
                 [](float V) { return it::differs(copyToHostAndRead(V), V); });
}
