// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// A is allocated on the current stream, read on s, then dies.
void read_on_side_stream_then_free() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA).normal_(0.0, 1.0);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor B = at::sum(A);
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-9]]:18: note: 'A' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
}

// The fix: record_stream tells the allocator.
void read_on_side_stream_recorded() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA).normal_(0.0, 1.0);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor B = at::sum(A);
  }
  A.record_stream(s);
}

// The allocator function spelled out.
void recorded_through_allocator() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  c10::cuda::CUDACachingAllocator::recordStream(A.storage().data_ptr(), s);
}

// Or the allocation stream waits for s before the tensor dies.
void synchronized_back() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready, done;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
    done.record(s);
  }
  done.block(at::cuda::getCurrentCUDAStream());
}

// Or the host waits for s.
void host_waits() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  s.synchronize();
}

// Reassignment drops the last reference too.
void reassigned(at::Tensor &out) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor buf = at::zeros({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    out.copy_(buf);
    // CHECK-NOTES: :[[@LINE-1]]:15: warning: tensor 'buf' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-9]]:20: note: 'buf' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:3: note: the last reference to 'buf' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
  buf = at::zeros({128}, at::kCUDA);
  buf.fill_(1);
}

// A tensor that escapes is not freed here.
at::Tensor returned() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  return A;
}

void kept_in_container(std::vector<at::Tensor> &keep) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  keep.push_back(A);
}

void stash(const at::Tensor &t);

void passed_to_unknown_function() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  stash(A);
}

// Used only on its allocation stream: nothing to record.
void same_stream_only() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor A = at::ones({64}, at::kCUDA);
  A.mul_(2);
}

// Memory the caching allocator does not own.
void from_blob_memory(float *device_ptr) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::from_blob(device_ptr, {64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::cuda::CUDAStreamGuard guard(s);
  A.mul_(2);
}

// A view keeps the storage alive; the use through it counts.
void used_through_view() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({8, 8}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor row = A.select(0, 1);
  {
    at::cuda::CUDAStreamGuard guard(s);
    row.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-10]]:18: note: 'A' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
}

// The stream is declared in the inner scope: the fix-it goes there.
void stream_in_inner_scope() {
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  {
    auto s = at::cuda::getStreamFromPool();
    ready.block(s);
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(3);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-10]]:18: note: 'A' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
}

// Two side streams: each is reported, no fix-it is certain.
void two_side_streams() {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    at::cuda::CUDAStreamGuard guard(s1);
    at::Tensor B = A * 2;
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'A' is used on pool stream 's1' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's1' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's1' here
    // CHECK-NOTES: :[[@LINE-10]]:18: note: 'A' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+10]]:1: note: the last reference to 'A' dies here, with no record_stream on pool stream 's1' and no synchronization with the caller's current stream
  }
  {
    at::cuda::CUDAStreamGuard guard(s2);
    at::Tensor C = A * 3;
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'A' is used on pool stream 's2' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's2' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's2' here
    // CHECK-NOTES: :[[@LINE-18]]:18: note: 'A' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 'A' dies here, with no record_stream on pool stream 's2' and no synchronization with the caller's current stream
  }
}

// A container built from a braced list keeps the tensor.
std::vector<at::Tensor> kept_in_braced_vector() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  std::vector<at::Tensor> keep{A};
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
  return keep;
}

// The fix-its, in file order: record_stream right after the last use.
// CHECK-FIXES: {{^}}    at::Tensor B = at::sum(A);{{$}}
// CHECK-FIXES-NEXT: {{^}}    A.record_stream(s);{{$}}
// CHECK-FIXES: {{^}}    out.copy_(buf);{{$}}
// CHECK-FIXES-NEXT: {{^}}    buf.record_stream(s);{{$}}
// CHECK-FIXES: {{^}}    row.mul_(2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    A.record_stream(s);{{$}}
// CHECK-FIXES: {{^}}    A.mul_(3);{{$}}
// CHECK-FIXES-NEXT: {{^}}    A.record_stream(s);{{$}}

// Recorded before its use on the side stream: the allocator waits, at the
// free, for all the work 's' has queued by then, this use included.
void recorded_before_use() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::ones({64}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  A.record_stream(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    A.mul_(2);
  }
}
