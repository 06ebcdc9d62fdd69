// RUN: %check_streamsafe %s streamsafe-unrecorded-event-wait %t

// A wait on an event that was never recorded is a silent no-op in CUDA and
// PyTorch (CUDAEvent::block returns early; cudaStreamWaitEvent succeeds).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

void block_before_record(const at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.block(side);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'ready', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'ready' is declared here
  ready.record();
}

void recorded_on_one_branch(const at::Tensor &X, bool produce) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  if (produce) {
    at::Tensor Y = X * 2;
    ready.record();
  }
  ready.block(side);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'ready', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-7]]:23: note: 'ready' is declared here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'ready' is recorded here on some paths only
}

void stream_wait_on_unrecorded_event() {
  auto side = at::cuda::getStreamFromPool();
  c10::Event ready(c10::DeviceType::CUDA);
  c10::Stream(side).wait(ready);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'ready', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: 'ready' is declared here
}

void raw_cuda_wait_before_record(cudaStream_t producer, cudaStream_t consumer) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaStreamWaitEvent(consumer, done, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'done', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'done' is declared here
  cudaEventRecord(done, producer);
}

// Correct: record first.
void record_then_block(const at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
}

void raw_cuda_record_then_wait(cudaStream_t producer, cudaStream_t consumer) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaEventRecord(done, producer);
  cudaStreamWaitEvent(consumer, done, 0);
}

// An event we did not create may have been recorded by the caller.
void event_from_caller(at::cuda::CUDAEvent &ready) {
  ready.block(at::cuda::getStreamFromPool());
}

// Recorded in a loop before each wait.
void record_in_loop(int n) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  for (int i = 0; i < n; ++i) {
    ready.record();
    ready.block(side);
  }
}

// Events that come from elsewhere may have been recorded there: not followed.
void copied_raw_event(cudaStream_t producer, cudaStream_t consumer) {
  cudaEvent_t recorded;
  cudaEventCreate(&recorded);
  cudaEventRecord(recorded, producer);
  cudaEvent_t alias = recorded;
  cudaStreamWaitEvent(consumer, alias, 0);
}

void moved_event() {
  at::cuda::CUDAEvent first;
  first.record();
  at::cuda::CUDAEvent second = std::move(first);
  second.block(at::cuda::getStreamFromPool());
}

void record_on(at::cuda::CUDAEvent &ev);

void recorded_by_helper() {
  at::cuda::CUDAEvent ready;
  record_on(ready);
  ready.block(at::cuda::getStreamFromPool());
}

// The loop-carried hand-off: every iteration but the first waits for the
// previous iteration's record.
void loop_carried_wait(int n) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      ready.block(side);
    ready.record();
  }
}
