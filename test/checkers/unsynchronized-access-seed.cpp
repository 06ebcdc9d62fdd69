// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// The basic two-stream patterns, wrong and fixed: events, side streams, clone.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// B is made on s1; an event recorded on s1, waited on by s2, orders its use.
void event_record_and_wait() {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard g(s1);
    at::Tensor A = at::randn({100, 100}, at::kCUDA);
    B = A.mm(A);
  }
  at::cuda::CUDAEvent event;
  event.record(s1);
  event.block(s2);
  at::cuda::CUDAStreamGuard g(s2);
  at::Tensor C = B.mm(B);
}

// The same without the event: B is used on s2 while s1 may still write it.
void event_missing_wait() {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard g(s1);
    at::Tensor A = at::randn({100, 100}, at::kCUDA);
    B = A.mm(A);
  }
  at::cuda::CUDAStreamGuard g(s2);
  at::Tensor C = B.mm(B);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'B' is read on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's2' here
  // CHECK-NOTES: :[[@LINE-6]]:9: note: 'B' is written on pool stream 's1' here
  // CHECK-NOTES: :[[@LINE-9]]:31: note: the current stream was set to pool stream 's1' here
}

// Wrong: A made on the current stream, read on a side stream with no wait.
void side_stream_read_without_wait() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA).normal_(0.0, 1.0);
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor B = at::sum(A);
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: tensor 'A' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-6]]:18: note: 'A' is written on the caller's current stream here
  }
  A.record_stream(s);
}

// Right: s waits for the current stream, A is recorded on s.
void side_stream_read_with_wait() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA).normal_(0.0, 1.0);
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor B = at::sum(A);
  }
  A.record_stream(s);
}

// Subtle: a fresh allocation written on a side stream (no read dependency).
void fresh_allocation_written_on_side_stream() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA);
  at::cuda::CUDAStreamGuard guard(s);
  A.normal_(0.0, 1.0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'A' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'A' is allocated on the caller's current stream here
  A.record_stream(s);
}

// ... and with the wait placed before work the current stream queues
// ahead of the allocation: the block may be one that work still uses.
void fresh_allocation_wait_too_early(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::Tensor scale = x.abs();
  at::Tensor A = at::empty({100, 100}, at::kCUDA);
  at::cuda::CUDAStreamGuard guard(s);
  A.normal_(0.0, 1.0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'A' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'A' is allocated on the caller's current stream here
  A.record_stream(s);
}

// ... and correct: the wait after the allocation.
void fresh_allocation_waited() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = at::empty({100, 100}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::cuda::CUDAStreamGuard guard(s);
  A.normal_(0.0, 1.0);
  A.record_stream(s);
}

// ... and correct too: the wait just before the allocation, nothing queued
// on the current stream between them. The block's earlier users there were
// all queued before the record, so s waits for them.
void fresh_allocation_waited_just_before() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::Tensor A = at::empty({100, 100}, at::kCUDA);
  at::cuda::CUDAStreamGuard guard(s);
  A.normal_(0.0, 1.0);
  A.record_stream(s);
}

// clone() runs on the current stream, which does not wait for s.
at::Tensor clone_after_side_stream_compute(const at::Tensor &A) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent inputs_ready;
  inputs_ready.record();
  inputs_ready.block(s);
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard guard(s);
    B = A.mm(A);
  }
  at::Tensor C = B.clone();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'B' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'B' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-7]]:31: note: the current stream was set to pool stream 's' here
  return C;
}

// Fix 1: the current stream waits for s.
at::Tensor clone_fix_wait(const at::Tensor &A) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent inputs_ready;
  inputs_ready.record();
  inputs_ready.block(s);
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard guard(s);
    B = A.mm(A);
  }
  at::cuda::CUDAEvent done;
  done.record(s);
  done.block(at::cuda::getCurrentCUDAStream());
  return B.clone();
}

// Fix 2: synchronize the device.
at::Tensor clone_fix_synchronize(const at::Tensor &A) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent inputs_ready;
  inputs_ready.record();
  inputs_ready.block(s);
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard guard(s);
    B = A.mm(A);
  }
  c10::cuda::device_synchronize();
  return B.clone();
}

// Fix 3: clone on the stream that produced B.
at::Tensor clone_fix_same_stream(const at::Tensor &A) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent inputs_ready;
  inputs_ready.record();
  inputs_ready.block(s);
  at::Tensor C;
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor B = A.mm(A);
    C = B.clone();
  }
  at::cuda::CUDAEvent done;
  done.record(s);
  done.block(at::cuda::getCurrentCUDAStream());
  return C;
}

// to() another device within one thread needs no extra synchronisation.
at::Tensor to_other_device_same_thread() {
  at::Tensor t = at::randn({100}, at::kCUDA);
  return t.to(at::Device(at::kCUDA, 1));
}
