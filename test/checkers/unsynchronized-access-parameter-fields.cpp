// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A tensor the function reaches through an object its caller hands it (a
// field of a parameter, of an element of a parameter's container, or of an
// element of the object's own container) is the caller's data, as a tensor
// parameter is: ready on the caller's current stream at entry, one location
// per object name and field. The Python twin is
// test/python/data-parameter-fields.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <vector>

struct Bucket {
  at::Tensor grad_data;
  int id = 0;
};

void reduce_one(Bucket &bucket) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  bucket.grad_data.div_(8);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'bucket.grad_data' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-6]]:25: note: 'bucket.grad_data' is assumed ready on the caller's current stream at function entry
}

void reduce_all(std::vector<Bucket> &buckets) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  for (auto &b : buckets)
    b.grad_data.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'b.grad_data' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-4]]:30: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-7]]:38: note: 'b.grad_data' is assumed ready on the caller's current stream at function entry
}

struct Reducer {
  std::vector<Bucket> buckets;
  void start() {
    auto comm = c10::cuda::getStreamFromPool();
    c10::cuda::CUDAStreamGuard g(comm);
    for (auto &bucket : buckets)
      bucket.grad_data.mul_(2);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: tensor 'bucket.grad_data' is written on pool stream 'comm', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
      // CHECK-NOTES: :[[@LINE-4]]:32: note: the current stream is set to pool stream 'comm' here
      // CHECK-NOTES: :[[@LINE-4]]:25: note: 'bucket.grad_data' is assumed ready on the caller's current stream at function entry
  }
};

// Correct: the side stream waits for the caller's stream first.
void reduce_joined(Bucket &bucket) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  c10::cuda::CUDAStreamGuard g(side);
  bucket.grad_data.div_(8);
  side.synchronize();
}

// Correct: a field the function assigns is its own value from there on.
void reduce_own(Bucket &bucket, int64_t n) {
  bucket.grad_data = at::zeros({n}, at::kCUDA);
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  c10::cuda::CUDAStreamGuard g(side);
  bucket.grad_data.div_(8);
  side.synchronize();
}
