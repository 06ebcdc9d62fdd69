// A device-to-host copy into pinned memory is enqueued on a side stream,
// and the host synchronizes that stream before reading.
#include "../harness.h"

#include <cuda_runtime_api.h>

float copyOnSideAndRead(float V) {
  at::cuda::CUDAStream Cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor D = at::full({it::kN}, V, it::opts());
  at::Tensor H = at::empty({it::kN}, at::TensorOptions().dtype(at::kFloat).pinned_memory(true));
  at::cuda::CUDAEvent Ready;
  Ready.record(Cur);
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::cuda::sleep(it::spin()); // the side stream is busy with earlier work
  C10_CUDA_CHECK(cudaMemcpyAsync(H.data_ptr(), D.data_ptr(), it::kN * sizeof(float),
                                 cudaMemcpyDeviceToHost, Side.stream()));
  D.record_stream(Side);
  Side.synchronize();
  return H.data_ptr<float>()[it::kN - 1];
}

int main(int argc, char **argv) {
  return it::run("host_read_wrong_stream_sync", "fixed", argc, argv,
                 [](float V) { return it::differs(copyOnSideAndRead(V), V); });
}
