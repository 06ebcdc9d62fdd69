// A task handed to the inter-op thread pool (at::launch) runs on a pool
// thread, on that thread's default stream: the pool stream set by this
// thread's guard does not follow it, and the task sums A too early.
#include "../harness.h"

#include <ATen/Parallel.h>

#include <future>

float sumInPoolTask(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  std::promise<float> Total;
  std::future<float> Done = Total.get_future();
  at::launch([&] {
    Total.set_value(at::sum(A).item<float>()); // EXPECT: streamsafe-unsynchronized-access // EXPECT: streamsafe-thread-current-stream
  });
  return Done.get();
}

int main(int argc, char **argv) {
  return it::run("pool_task_pool_stream", "bug", argc, argv, [](float V) {
    return it::differs(sumInPoolTask(V), it::kN * double(V));
  });
}
