// The current stream is thread-local. Fixed: the spawner takes its current
// stream (the pool stream) and passes it to the thread, which copies A on it,
// in order after A's producer.
#include "../harness.h"

#include <thread>

at::Tensor copyInThread(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  at::Tensor Out = at::empty_like(A);
  cudaStream_t S = at::cuda::getCurrentCUDAStream(); // in the spawning thread
  std::thread Worker([&, S] {
    C10_CUDA_CHECK(
        cudaMemcpyAsync(Out.data_ptr(), A.data_ptr(), A.nbytes(), cudaMemcpyDeviceToDevice, S));
    C10_CUDA_CHECK(cudaStreamSynchronize(S));
  });
  Worker.join();
  return Out;
}

int main(int argc, char **argv) {
  return it::run("thread_get_current_stream", "fixed", argc, argv,
                 [](float V) { return it::differs(copyInThread(V), V); });
}
