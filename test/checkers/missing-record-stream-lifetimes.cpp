// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// When the last reference to a tensor dies: at the end of its scope, when
// it is reset or assigned again (in a loop: the previous iteration's value
// dies at the assignment). A block made on a side stream and read on the
// current stream is handed to the side stream's next allocation as soon as
// it dies, unless the allocator was told (record_stream).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <vector>

// Wrong: each iteration's staging tensor is read on the side stream, and
// dies at the next iteration's assignment.
void loop_reassign(const std::vector<at::Tensor> &batches, at::Tensor &acc) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor staging;
  for (const auto &b : batches) {
    staging = b.mul(2);
    at::cuda::CUDAEvent ready;
    ready.record(at::cuda::getCurrentCUDAStream());
    ready.block(side);
    at::cuda::CUDAStreamGuard g(side);
    acc.add_(staging);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: tensor 'staging' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-8]]:15: note: 'staging' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'staging' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
  }
}

// Right: the same, with the allocator told.
void loop_reassign_recorded(const std::vector<at::Tensor> &batches,
                            at::Tensor &acc) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor staging;
  for (const auto &b : batches) {
    staging = b.mul(2);
    at::cuda::CUDAEvent ready;
    ready.record(at::cuda::getCurrentCUDAStream());
    ready.block(side);
    at::cuda::CUDAStreamGuard g(side);
    acc.add_(staging);
    staging.record_stream(side);
  }
}

// Wrong: made on the side stream, read on the current stream, dropped.
at::Tensor consume_and_drop(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor y = r.add(1);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'r' is used on the caller's current stream but was allocated on pool stream 'side'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-7]]:9: note: 'r' is allocated on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE+1]]:3: note: the last reference to 'r' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 'side'
  r = at::Tensor();
  return y;
}

// Right: the same, recorded on the current stream before it is dropped.
at::Tensor consume_record_and_drop(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor y = r.add(1);
  r.record_stream(at::cuda::getCurrentCUDAStream());
  return y;
}

// Right: handed back to the caller, who frees it.
at::Tensor hand_back(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  r.add_(1);
  return r;
}

// Right: the host waits for the current stream before the block dies.
float consume_then_synchronize(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor y = r.sum();
  return y.item<float>();
}

// Right: `t = r` in a loop names r's block, which r keeps: t's rebinding at
// the next iteration is no death of it (before its first iteration t holds
// nothing, and where the paths meet it names r's block, not a copy). r is
// recorded on the current stream before it dies. (The Python twin:
// test/python/objects-attribute-dicts.py, WaitingScaledOffloader.)
void loop_alias_recorded(const at::Tensor &x, int n) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor t;
  for (int i = 0; i < n; ++i) {
    t = r;
    t.add_(1);
  }
  r.record_stream(at::cuda::getCurrentCUDAStream());
}

// Wrong: the same, never recorded: reported once, where r dies.
void loop_alias_unrecorded(const at::Tensor &x, int n) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor r;
  at::cuda::CUDAEvent ready, done;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    r = x.mul(2);
  }
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor t;
  for (int i = 0; i < n; ++i) {
    t = r;
    t.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'r' is used on the caller's current stream but was allocated on pool stream 'side'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-8]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    // CHECK-NOTES: :[[@LINE-10]]:9: note: 'r' is allocated on pool stream 'side' here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'r' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 'side'
  }
}
