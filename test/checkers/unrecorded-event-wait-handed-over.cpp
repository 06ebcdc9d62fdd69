// RUN: %check_streamsafe %s streamsafe-unrecorded-event-wait %t

// A task handed to code the analysis does not see (an executor it does not
// know, a queue) may run there and record the events it captures: a later
// wait on one of them is not taken as a wait on an unrecorded event.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <deque>
#include <functional>
#include <future>

struct Executor {
  void Submit(std::function<void()> Task);
};

// The seed's executor shape: the task records `Finished`; the host waits
// for the task, then for the event.
void task_records_the_event(Executor &Ex, const at::Tensor &X) {
  at::Tensor Out;
  at::cuda::CUDAEvent Finished;
  std::promise<void> Ran;
  std::future<void> RanDone = Ran.get_future();
  Ex.Submit([&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out = X.relu();
    Finished.record();
    Ran.set_value();
  });
  RanDone.wait();
  Finished.block(at::cuda::getCurrentCUDAStream());
  at::Tensor Y = Out * 2;
}

// Through a std::function variable kept in a queue.
void queued_task_records_the_event(std::deque<std::function<void()>> &Queue,
                                   const at::Tensor &X) {
  at::Tensor Out;
  at::cuda::CUDAEvent Finished;
  std::function<void()> Task = [&] {
    Out = X.relu();
    Finished.record();
  };
  Queue.push_back(Task);
  Finished.block(at::cuda::getCurrentCUDAStream());
}

// A task that does not capture the event cannot record it.
void task_without_the_event(Executor &Ex, const at::Tensor &X) {
  at::Tensor Out;
  at::cuda::CUDAEvent Finished;
  Ex.Submit([&Out, &X] { Out = X.relu(); });
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-4]]:23: note: 'Finished' is declared here
}
