// A copy from device 0 into a buffer just allocated on device 1, issued on
// device 0's current stream. The caching allocator hands out a block that
// device 1's current stream freed while a kernel there still writes it
// (stream-ordered reuse, legal on that stream); nothing orders the copy on
// device 0 after that kernel, which then overwrites the copied data. A fix
// of this shape landed in a widely used embedding library after illegal
// memory accesses in production.
#include "../two_devices.h"

at::Tensor copyIntoOtherDevice(const at::Tensor &Src) {
  at::Tensor Mid = at::empty_like(Src, Src.options().device(at::Device(at::kCUDA, 1)));
  at::cuda::CUDAStream S0 = at::cuda::getCurrentCUDAStream(0);
  size_t Bytes = Src.numel() * sizeof(float);
  C10_CUDA_CHECK(cudaMemcpyAsync(Mid.data_ptr(), Src.data_ptr(), Bytes, // EXPECT: streamsafe-unsynchronized-access
                                 cudaMemcpyDeviceToDevice, S0));
  return Mid;
}

int main(int argc, char **argv) {
  return it::runOnTwoDevices("copy_to_other_device", "bug", argc, argv,
                             [](float V) {
                               at::Tensor Src = at::full({it::kN}, V, it::opts());
                               it::busyOnDevice1(V + 7);
                               at::Tensor Mid = copyIntoOtherDevice(Src);
                               return it::differsOnAllDevices(Mid, V);
                             });
}
