// The seed's executor pipeline (DTorch): a task on a worker thread fills Out
// on a stream of its own, records `Finished`, then says it ran. Fixed: the
// host waits for the task's signal (the future) before it waits on
// Finished, so its wait comes after the record and orders the read of Out
// after the task's write.
#include "../harness.h"

#include <chrono>
#include <future>
#include <thread>

float pipeline(float V) {
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  it::sync(); // Out's zeros are done: only the task's write is in question
  at::cuda::CUDAEvent Finished;
  std::promise<void> Ran;
  std::future<void> RanDone = Ran.get_future();
  std::thread Worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // earlier tasks in its queue
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.fill_(V);
    Finished.record();
    Ran.set_value();
  });
  RanDone.wait();
  Finished.block(at::cuda::getCurrentCUDAStream());
  float Got = Out.sum().item<float>();
  Worker.join();
  return Got;
}

int main(int argc, char **argv) {
  return it::run("executor_pipeline_host_wait", "fixed", argc, argv, [](float V) {
    return it::differs(pipeline(V), it::kN * double(V));
  });
}
