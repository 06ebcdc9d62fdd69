// The seed's executor pipeline (DTorch): a task on a worker thread fills Out
// on a stream of its own, records `Finished`, then says it ran. The host
// waits on Finished and reads Out on its own stream, but does not wait for
// the task first: the worker is still busy with earlier tasks, so the
// host's wait comes before the record and does nothing, and the read runs
// before Out is written.
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
  Finished.block(at::cuda::getCurrentCUDAStream()); // EXPECT: streamsafe-unrecorded-event-wait
  float Got = Out.sum().item<float>();               // EXPECT: streamsafe-unsynchronized-access
  RanDone.wait();
  Worker.join();
  return Got;
}

int main(int argc, char **argv) {
  return it::run("executor_pipeline_host_wait", "bug", argc, argv, [](float V) {
    return it::differs(pipeline(V), it::kN * double(V));
  });
}
