// RUN: %check_streamsafe %s streamsafe-unrecorded-event-wait %t

// The consumer kernel waits on an event that the producer records only
// after the wait was enqueued.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>

__global__ void step(float *data, int n) {}

void wait_enqueued_before_record(at::Tensor &data) {
  auto producer = at::cuda::getStreamFromPool();
  auto consumer = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent produced;
  produced.block(consumer);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'produced', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'produced' is declared here
  step<<<1, 32, 0, producer>>>(data.data_ptr<float>(), 32);
  produced.record(producer);
  step<<<1, 32, 0, consumer>>>(data.data_ptr<float>(), 32);
}

void record_then_wait(at::Tensor &data) {
  auto producer = at::cuda::getStreamFromPool();
  auto consumer = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent produced;
  step<<<1, 32, 0, producer>>>(data.data_ptr<float>(), 32);
  produced.record(producer);
  produced.block(consumer);
  step<<<1, 32, 0, consumer>>>(data.data_ptr<float>(), 32);
}
