// The fix: device 1's current stream records that the new buffer is ready,
// and device 0's stream waits for that event before the copy.
#include "../two_devices.h"

at::Tensor copyIntoOtherDevice(const at::Tensor &Src) {
  at::Tensor Mid = at::empty_like(Src, Src.options().device(at::Device(at::kCUDA, 1)));
  at::cuda::CUDAStream S0 = at::cuda::getCurrentCUDAStream(0);
  at::cuda::CUDAStream S1 = at::cuda::getCurrentCUDAStream(1);
  at::cuda::CUDAEvent MidReady;
  MidReady.record(S1);
  MidReady.block(S0);
  size_t Bytes = Src.numel() * sizeof(float);
  C10_CUDA_CHECK(cudaMemcpyAsync(Mid.data_ptr(), Src.data_ptr(), Bytes,
                                 cudaMemcpyDeviceToDevice, S0));
  return Mid;
}

int main(int argc, char **argv) {
  return it::runOnTwoDevices("copy_to_other_device", "fixed", argc, argv,
                             [](float V) {
                               at::Tensor Src = at::full({it::kN}, V, it::opts());
                               it::busyOnDevice1(V + 7);
                               at::Tensor Mid = copyIntoOtherDevice(Src);
                               return it::differsOnAllDevices(Mid, V);
                             });
}
