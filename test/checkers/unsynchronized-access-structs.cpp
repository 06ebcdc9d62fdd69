// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Tensors kept in a struct's fields: each field is followed as a tensor of
// its own (one variable per field, named by it), whether the struct is a
// local built by braces or a parameter. The Python twins (dicts with
// constant keys, dataclasses, named tuples) are in
// test/python/data-records.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

struct Staging {
  at::Tensor src;
  at::Tensor dst;
};

// Wrong: a field filled on the side stream, read on the caller's stream
// with no join.
at::Tensor local_struct_race(const at::Tensor &X) {
  Staging St{X, at::empty_like(X)};
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Fork;
  Fork.record(c10::cuda::getCurrentCUDAStream());
  Fork.block(Side);
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    St.dst.copy_(St.src);
  }
  return St.dst.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'dst' is read on the caller's current stream while its write on pool stream 'Side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'dst' is written on pool stream 'Side' here
  // CHECK-NOTES: :[[@LINE-7]]:32: note: the current stream was set to pool stream 'Side' here
}

// Right: joined by an event before the read.
at::Tensor local_struct_joined(const at::Tensor &X) {
  Staging St{X, at::empty_like(X)};
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Fork, Done;
  Fork.record(c10::cuda::getCurrentCUDAStream());
  Fork.block(Side);
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    St.dst.copy_(St.src);
    Done.record(Side);
  }
  Done.block(c10::cuda::getCurrentCUDAStream());
  return St.dst.sum();
}

// Wrong: the struct is the caller's; its field, ready on the caller's
// stream at entry as a tensor parameter is, is written on the side stream
// with no fork and read on the caller's stream with no join.
at::Tensor param_struct_unjoined(Staging &St) {
  auto Side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    St.dst.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'St.dst' is written on pool stream 'Side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'Side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'Side' here
    // CHECK-NOTES: :[[@LINE-7]]:43: note: 'St.dst' is assumed ready on the caller's current stream at function entry
  }
  return St.dst.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'St.dst' is read on the caller's current stream while its write on pool stream 'Side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:5: note: 'St.dst' is written on pool stream 'Side' here
  // CHECK-NOTES: :[[@LINE-10]]:32: note: the current stream was set to pool stream 'Side' here
}

// Right: forked before the write, joined before the read.
at::Tensor param_struct_joined(Staging &St) {
  auto Side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Fork, Done;
  Fork.record(c10::cuda::getCurrentCUDAStream());
  Fork.block(Side);
  {
    c10::cuda::CUDAStreamGuard Guard(Side);
    St.dst.add_(1);
    Done.record(Side);
  }
  Done.block(c10::cuda::getCurrentCUDAStream());
  return St.dst.sum();
}
