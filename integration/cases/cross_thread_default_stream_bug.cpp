// The current stream is thread-local. A is produced on a pool
// stream set by a guard in this thread; the worker thread starts on the
// default stream, whatever guard is active here, and reads A too early.
#include "../harness.h"

#include <thread>

float produceThenSumInThread(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  float Total = 0;
  std::thread Worker([&] {
    at::Tensor S = at::sum(A); // EXPECT: streamsafe-unsynchronized-access // EXPECT: streamsafe-thread-current-stream
    Total = S.item<float>();
  });
  Worker.join();
  return Total;
}

int main(int argc, char **argv) {
  return it::run("cross_thread_default_stream", "bug", argc, argv, [](float V) {
    return it::differs(produceThenSumInThread(V), it::kN * double(V));
  });
}
