// RUN: %check_streamsafe %s streamsafe-unsynchronized-access,streamsafe-unrecorded-event-wait %t

// Raw CUDA handles are streams and events like their LibTorch wrappers: a
// cudaStream_t from CUDAStream::stream() is that stream (and
// getStreamFromExternal of it is the same stream again), a stream made by
// cudaStreamCreate differs from every other, and cudaEvent_t follows the
// same rules as CUDAEvent.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

// Wrong: the side stream waits on the event before it is recorded, so the
// wait orders nothing and the side stream races with add_.
void wait_before_record(at::Tensor &y) {
  cudaStream_t side = at::cuda::getStreamFromPool().stream();
  cudaStream_t cur = at::cuda::getCurrentCUDAStream().stream();
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaStreamWaitEvent(side, ev, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'ev', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'ev' is declared here
  y.add_(1);
  cudaEventRecord(ev, cur);
  at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(side, 0));
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'y' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-6]]:3: note: 'y' is written on the caller's current stream here
  cudaEventDestroy(ev);
}

// Right: recorded after add_, then waited on.
void record_then_wait(at::Tensor &y) {
  cudaStream_t side = at::cuda::getStreamFromPool().stream();
  cudaStream_t cur = at::cuda::getCurrentCUDAStream().stream();
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  y.add_(1);
  cudaEventRecord(ev, cur);
  cudaStreamWaitEvent(side, ev, 0);
  at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(side, 0));
  y.mul_(2);
  cudaStreamSynchronize(side);
  cudaEventDestroy(ev);
}

// Wrong: two created streams, no event between them.
void created_streams(at::Tensor &y) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t ready;
  cudaEventCreate(&ready);
  cudaEventRecord(ready, at::cuda::getCurrentCUDAStream().stream());
  cudaStreamWaitEvent(s1, ready, 0);
  cudaStreamWaitEvent(s2, ready, 0);
  {
    at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(s1, 0));
    y.add_(1);
  }
  {
    at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(s2, 0));
    y.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'y' is written on new stream 's2' while its write on new stream 's1' may still be pending; nothing makes new stream 's2' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to new stream 's2' here
    // CHECK-NOTES: :[[@LINE-7]]:5: note: 'y' is written on new stream 's1' here
    // CHECK-NOTES: :[[@LINE-9]]:31: note: the current stream was set to new stream 's1' here
  }
}

// Right: s2 waits for an event recorded on s1 after its write.
void created_streams_joined(at::Tensor &y) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t ready, done;
  cudaEventCreate(&ready);
  cudaEventCreate(&done);
  cudaEventRecord(ready, at::cuda::getCurrentCUDAStream().stream());
  cudaStreamWaitEvent(s1, ready, 0);
  {
    at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(s1, 0));
    y.add_(1);
  }
  cudaEventRecord(done, s1);
  cudaStreamWaitEvent(s2, done, 0);
  {
    at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(s2, 0));
    y.mul_(2);
  }
  cudaStreamSynchronize(s2);
}

// Right: a stream handle passed in may be the current stream.
void parameter_stream(at::Tensor &y, cudaStream_t s) {
  y.add_(1);
  at::cuda::CUDAStreamGuard g(at::cuda::getStreamFromExternal(s, 0));
  y.mul_(2);
}
