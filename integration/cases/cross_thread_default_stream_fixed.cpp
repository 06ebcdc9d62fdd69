// The current stream is thread-local. A is produced on a pool
// stream set by a guard in this thread. Fixed: the worker thread sets its own
// guard to the producer's stream before using A.
#include "../harness.h"

#include <thread>

float produceThenSumInThread(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  float Total = 0;
  std::thread Worker([&] {
    at::cuda::CUDAStreamGuard WorkerGuard(Pool);
    at::Tensor S = at::sum(A);
    Total = S.item<float>();
  });
  Worker.join();
  return Total;
}

int main(int argc, char **argv) {
  return it::run("cross_thread_default_stream", "fixed", argc, argv, [](float V) {
    return it::differs(produceThenSumInThread(V), it::kN * double(V));
  });
}
