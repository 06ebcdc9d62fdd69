// A task handed to the inter-op thread pool (at::launch) runs on a pool
// thread, on that thread's default stream. Fixed: the task is handed the
// producer's stream and sets it before it sums A.
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
  at::launch([&, Pool] {
    at::cuda::CUDAStreamGuard TaskGuard(Pool);
    Total.set_value(at::sum(A).item<float>());
  });
  return Done.get();
}

int main(int argc, char **argv) {
  return it::run("pool_task_pool_stream", "fixed", argc, argv, [](float V) {
    return it::differs(sumInPoolTask(V), it::kN * double(V));
  });
}
