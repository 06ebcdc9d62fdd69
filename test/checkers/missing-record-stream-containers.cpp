// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// The elements of a local container die with their last reference: at
// clear(), pop_back(), erase(), when the container is assigned again or
// goes out of scope. A range-for that calls record_stream on each element
// tells the allocator about all of them. Elements pushed in a loop are not
// followed one by one: they are kept (silent).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <vector>

// Wrong: the buffer is used on the side stream, and clear() drops its last
// reference.
void cleared_without_record(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  std::vector<at::Tensor> bufs;
  bufs.push_back(x.mul(2));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    bufs[0].add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'bufs[0]' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-9]]:18: note: 'bufs[0]' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:3: note: the last reference to 'bufs[0]' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
  }
  bufs.clear();
}

// Right: a range-for tells the allocator about every buffer.
void cleared_after_record(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  std::vector<at::Tensor> bufs;
  bufs.push_back(x.mul(2));
  bufs.push_back(x.add(2));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    for (auto &b : bufs)
      b.add_(1);
  }
  for (auto &b : bufs)
    b.record_stream(side);
  bufs.clear();
}

// Wrong: the vector's end drops the element used on the side stream.
void dropped_at_scope_end(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  std::vector<at::Tensor> bufs{x.mul(2), x.add(2)};
  {
    at::cuda::CUDAStreamGuard g(side);
    bufs[1].add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'bufs[1]' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-6]]:42: note: 'bufs[1]' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'bufs[1]' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
  }
}

// Right: the same, recorded.
void recorded_before_scope_end(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  std::vector<at::Tensor> bufs{x.mul(2), x.add(2)};
  {
    at::cuda::CUDAStreamGuard g(side);
    bufs[1].add_(1);
  }
  bufs[1].record_stream(side);
}

// Wrong: pop_back() drops the last element, which was not recorded; the
// first one was, and erase() drops it safely.
void popped_and_erased(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  std::vector<at::Tensor> bufs;
  bufs.push_back(x.mul(2));
  bufs.push_back(x.add(2));
  {
    at::cuda::CUDAStreamGuard g(side);
    bufs[0].add_(1);
    bufs[1].add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'bufs[1]' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-4]]:31: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-7]]:18: note: 'bufs[1]' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+3]]:3: note: the last reference to 'bufs[1]' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
  }
  bufs[0].record_stream(side);
  bufs.pop_back();
  bufs.erase(bufs.begin());
}

// Right: clear() drops the vector's reference, but 'kept' still holds the
// tensor, which is handed back.
at::Tensor still_held(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  at::Tensor kept = x.mul(2);
  std::vector<at::Tensor> bufs{kept};
  {
    at::cuda::CUDAStreamGuard g(side);
    bufs[0].add_(1);
  }
  bufs.clear();
  return kept;
}

// Silent: pushed in a loop, the buffers are not followed one by one.
void loop_pushed(const at::Tensor &x, int n) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  std::vector<at::Tensor> bufs;
  for (int i = 0; i < n; ++i)
    bufs.push_back(x.mul(i));
  {
    at::cuda::CUDAStreamGuard g(side);
    for (auto &b : bufs)
      b.add_(1);
  }
  bufs.clear();
}

// Wrong: assigning the pair again drops the first element.
void pair_reassigned(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(side);
  std::pair<at::Tensor, at::Tensor> p{x.mul(2), x.add(2)};
  {
    at::cuda::CUDAStreamGuard g(side);
    p.first.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'p.first' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-6]]:39: note: 'p.first' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:3: note: the last reference to 'p.first' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
  }
  p = std::make_pair(x.mul(3), x.add(3));
}
