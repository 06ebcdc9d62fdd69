// copy_(src, non_blocking=true) from pinned memory returns at once; the DMA
// runs later on the current stream. Refilling the pinned staging buffer
// before the copy has run uploads the new contents instead of the old.
#include "../harness.h"

void upload(at::Tensor &Dev, float V) {
  at::Tensor Staging = at::empty({it::kN}, at::TensorOptions().pinned_memory(true));
  Staging.fill_(V);
  at::cuda::sleep(it::spin()); // earlier work still runs on the current stream
  Dev.copy_(Staging, /*non_blocking=*/true);
  Staging.fill_(-1.0f); // EXPECT: streamsafe-host-read-before-sync
}

int main(int argc, char **argv) {
  return it::run("host_write_staging_h2d", "bug", argc, argv, [](float V) {
    at::Tensor Dev = at::empty({it::kN}, it::opts());
    upload(Dev, V);
    return it::differs(Dev, V);
  });
}
