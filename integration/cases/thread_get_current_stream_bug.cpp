// The current stream is thread-local: getCurrentCUDAStream() in a new thread
// returns the default stream, not the pool stream the spawner set with a
// guard. The thread copies A on the stream it got, unordered with A's
// producer on the pool stream, and copies stale data.
#include "../harness.h"

#include <thread>

at::Tensor copyInThread(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  at::Tensor Out = at::empty_like(A);
  std::thread Worker([&] {
    cudaStream_t S = at::cuda::getCurrentCUDAStream(); // EXPECT: streamsafe-thread-current-stream
    C10_CUDA_CHECK(cudaMemcpyAsync(Out.data_ptr(),     // EXPECT: streamsafe-unsynchronized-access
                                   A.data_ptr(),       // EXPECT: streamsafe-unsynchronized-access
                                   A.nbytes(), cudaMemcpyDeviceToDevice, S));
    C10_CUDA_CHECK(cudaStreamSynchronize(S));
  });
  Worker.join();
  return Out;
}

int main(int argc, char **argv) {
  return it::run("thread_get_current_stream", "bug", argc, argv,
                 [](float V) { return it::differs(copyInThread(V), V); });
}
