// RUN: %check_streamsafe %s 'streamsafe-*' %t

// Correlated branches on a by-value flag: recorded and waited on under the
// same flag, synchronized otherwise. Every real path orders the write before
// the read; the path that records nothing and waits on the event does not
// exist.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

at::Tensor wait_or_synchronize(bool wait) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  at::Tensor y;
  {
    at::cuda::CUDAStreamGuard guard(side);
    y = at::ones({16}, at::kCUDA);
    if (wait)
      done.record(side);
  }
  if (wait)
    done.block(at::cuda::getCurrentCUDAStream());
  else
    side.synchronize();
  y.mul_(2);
  return y;
}

// Waited on under another flag: on the path (!wait, check) the event was
// never recorded and nothing orders the write before the read.
at::Tensor wait_under_another_flag(bool wait, bool check) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  at::Tensor y;
  {
    at::cuda::CUDAStreamGuard guard(side);
    y = at::ones({16}, at::kCUDA);
    if (wait)
      done.record(side);
  }
  if (check)
    done.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'done', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-11]]:23: note: 'done' is declared here
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'done' is recorded here on some paths only
  else
    side.synchronize();
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-14]]:9: note: 'y' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-16]]:31: note: the current stream was set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-12]]:7: note: on the path reported, 'check' is true
  // CHECK-NOTES: :[[@LINE-16]]:9: note: on the path reported, 'wait' is false
  return y;
}

// Compared streams (the Python twin: test/python/path-conditions-state.py):
// the event is recorded and waited for only when the side stream is not
// the caller's, which a stream fetched from the pool never is. The path
// that skips both does not exist.
at::Tensor record_when_other() {
  auto current = at::cuda::getCurrentCUDAStream();
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  at::Tensor y;
  {
    at::cuda::CUDAStreamGuard guard(side);
    y = at::ones({16}, at::kCUDA);
    if (side != current)
      done.record(side);
  }
  if (side != current)
    done.block(current);
  y.mul_(2);
  return y;
}

// Recorded and waited for only when the two are one: never, so nothing
// orders the write before the read.
at::Tensor record_when_same() {
  auto current = at::cuda::getCurrentCUDAStream();
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  at::Tensor y;
  {
    at::cuda::CUDAStreamGuard guard(side);
    y = at::ones({16}, at::kCUDA);
    if (side == current)
      done.record(side);
  }
  if (side == current)
    done.block(current);
  y.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-9]]:9: note: 'y' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-11]]:31: note: the current stream was set to pool stream 'side' here
  return y;
}
