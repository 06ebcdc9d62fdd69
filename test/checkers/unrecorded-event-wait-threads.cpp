// RUN: %check_streamsafe %s streamsafe-unrecorded-event-wait %t

// An event recorded on another thread is this thread's to wait on only after
// a host wait orders the two: the thread's join, its future, or a signal it
// gives after the record (docs/api-model.md, threads).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/core/thread_pool.h>
#include <c10/cuda/CUDAStream.h>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

void log_progress();

// The thread may not have recorded `Finished` yet: the wait may do nothing.
void thread_not_joined(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::thread Worker([&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
  });
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-8]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-9]]:15: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
  Worker.join();
}

void thread_joined(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::thread Worker([&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
  });
  Worker.join();
  Finished.block(at::cuda::getCurrentCUDAStream());
}

// The seed's executor pipeline: the task records `Finished`, then says it
// ran; the host waits for that, then for the event.
void promise_waited(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::promise<void> Ran;
  std::future<void> RanDone = Ran.get_future();
  std::thread Worker([&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
    Ran.set_value();
  });
  RanDone.wait();
  Finished.block(at::cuda::getCurrentCUDAStream());
  Worker.join();
}

void promise_not_waited(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::promise<void> Ran;
  std::future<void> RanDone = Ran.get_future();
  std::thread Worker([&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
    Ran.set_value();
  });
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-11]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-10]]:15: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
  RanDone.wait();
  Worker.join();
}

// The signal comes before the record: waiting for it orders nothing.
void signal_before_record(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::promise<void> Started;
  std::future<void> StartedDone = Started.get_future();
  std::thread Worker([&] {
    Started.set_value();
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
  });
  StartedDone.wait();
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-12]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-11]]:15: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
  Worker.join();
}

void async_future_got(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  auto Task = std::async(std::launch::async, [&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
  });
  Task.get();
  Finished.block(at::cuda::getCurrentCUDAStream());
}

void async_future_not_got(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  auto Task = std::async(std::launch::async, [&] {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    Out.copy_(X.relu());
    Finished.record();
  });
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-8]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-9]]:15: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
}

void condition_waited(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::mutex M;
  std::condition_variable Cv;
  bool Ready = false;
  std::thread Worker([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
    {
      std::lock_guard<std::mutex> Lock(M);
      Ready = true;
    }
    Cv.notify_one();
  });
  {
    std::unique_lock<std::mutex> Lock(M);
    Cv.wait(Lock, [&] { return Ready; });
  }
  Finished.block(at::cuda::getCurrentCUDAStream());
  Worker.join();
}

// Code the analysis does not see may wait for the thread: silent.
void unseen_code_may_wait(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::thread Worker([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
  });
  log_progress();
  Finished.block(at::cuda::getCurrentCUDAStream());
  Worker.join();
}

// Library code (std::, c10::) only keeps what it is given: it waits for no
// thread (lib/lower/UnknownCode.h; the Python twin is
// test/python/threads-host-order.py, builtin_does_not_wait).
void library_does_not_wait(const at::Tensor &X, at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  std::thread Worker([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
  });
  std::vector<int64_t> Sizes;
  Sizes.push_back(X.numel());
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-9]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-7]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-10]]:15: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
  Worker.join();
}

// A future handed in may be the thread's: waiting on it is taken to order.
void foreign_future(const at::Tensor &X, at::Tensor &Out,
                    std::shared_future<void> Done) {
  at::cuda::CUDAEvent Finished;
  std::thread Worker([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
  });
  Done.wait();
  Finished.block(at::cuda::getCurrentCUDAStream());
  Worker.join();
}

// A pool's waitWorkComplete() waits for every task it ran.
void pool_work_complete(c10::ThreadPool &Pool, const at::Tensor &X,
                        at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  Pool.run([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
  });
  Pool.waitWorkComplete();
  Finished.block(at::cuda::getCurrentCUDAStream());
}

void pool_work_not_waited(c10::ThreadPool &Pool, const at::Tensor &X,
                          at::Tensor &Out) {
  at::cuda::CUDAEvent Finished;
  Pool.run([&] {
    Out.copy_(X.relu());
    Finished.record(at::cuda::getStreamFromPool());
  });
  Finished.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-7]]:23: note: 'Finished' is declared here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'Finished' is recorded here, on the other thread
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'Finished'
  Pool.waitWorkComplete();
}
