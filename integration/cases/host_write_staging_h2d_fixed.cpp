// copy_(src, non_blocking=true) from pinned memory returns at once; the DMA
// runs later on the current stream. Fixed: the host waits on an event
// recorded after the copy before refilling the staging buffer.
#include "../harness.h"

void upload(at::Tensor &Dev, float V) {
  at::Tensor Staging = at::empty({it::kN}, at::TensorOptions().pinned_memory(true));
  Staging.fill_(V);
  at::cuda::sleep(it::spin()); // earlier work still runs on the current stream
  Dev.copy_(Staging, /*non_blocking=*/true);
  at::cuda::CUDAEvent Copied;
  Copied.record();
  Copied.synchronize(); // the copy has read Staging
  Staging.fill_(-1.0f);
}

int main(int argc, char **argv) {
  return it::run("host_write_staging_h2d", "fixed", argc, argv, [](float V) {
    at::Tensor Dev = at::empty({it::kN}, it::opts());
    upload(Dev, V);
    return it::differs(Dev, V);
  });
}
