// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// A gradient hook is handed the gradient autograd made on the stream of the
// backward op, current while the hook runs. When it returns a replacement,
// autograd lets go of the gradient it handed, its last reference
// (lib/model/GradientHooks.h): work the hook queued on another stream that
// still reads it races the next backward kernels the allocator gives the
// block to, unless it was recorded there. The Python twin is
// test/python/gradient-hooks.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

// Wrong: the gradient is read on the reduction stream and replaced.
struct Reducer {
  c10::cuda::CUDAStream comm = c10::cuda::getStreamFromPool();
  void install(torch::Tensor param) {
    param.register_hook([this](torch::Tensor grad) {
      at::cuda::CUDAEvent ready;
      ready.record(c10::cuda::getCurrentCUDAStream());
      ready.block(comm);
      {
        c10::cuda::CUDAStreamGuard g(comm);
        at::Tensor shard = grad.clone();
        // CHECK-NOTES: :[[@LINE-1]]:28: warning: tensor 'grad' is used on stream member 'comm' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream member 'comm' is still using it [streamsafe-missing-record-stream]
        // CHECK-NOTES: :[[@LINE-3]]:36: note: the current stream is set to stream member 'comm' here
        // CHECK-NOTES: :[[@LINE-9]]:46: note: 'grad' is handed in here by the caller, allocated on the caller's current stream
        // CHECK-NOTES: :[[@LINE+4]]:7: note: the caller lets go of 'grad' when this returns, its last reference, with no record_stream on stream member 'comm' and no synchronization with the caller's current stream
        // CHECK-NOTES: :[[@LINE-13]]:32: note: 'comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        shard.div_(8);
      }
      return at::empty_like(grad);
    });
  }
};

// Correct: recorded on the stream that reads it.
struct RecordedReducer {
  c10::cuda::CUDAStream comm = c10::cuda::getStreamFromPool();
  void install(torch::Tensor param) {
    param.register_hook([this](torch::Tensor grad) {
      at::cuda::CUDAEvent ready;
      ready.record(c10::cuda::getCurrentCUDAStream());
      ready.block(comm);
      {
        c10::cuda::CUDAStreamGuard g(comm);
        at::Tensor shard = grad.clone();
        shard.div_(8);
        c10::cuda::CUDACachingAllocator::recordStream(
            grad.storage().data_ptr(), comm);
      }
      return at::empty_like(grad);
    });
  }
};

// Correct: the current stream waits for the reduction before the return.
struct JoinedReducer {
  c10::cuda::CUDAStream comm = c10::cuda::getStreamFromPool();
  void install(torch::Tensor param) {
    param.register_hook([this](torch::Tensor grad) {
      at::cuda::CUDAEvent ready;
      ready.record(c10::cuda::getCurrentCUDAStream());
      ready.block(comm);
      {
        c10::cuda::CUDAStreamGuard g(comm);
        at::Tensor shard = grad.clone();
        shard.div_(8);
      }
      at::cuda::CUDAEvent done;
      done.record(comm);
      done.block(c10::cuda::getCurrentCUDAStream());
      return at::empty_like(grad);
    });
  }
};

// Silent: a hook that returns nothing leaves the gradient to autograd.
struct KeepingReducer {
  c10::cuda::CUDAStream comm = c10::cuda::getStreamFromPool();
  void install(torch::Tensor param) {
    param.register_hook([this](torch::Tensor grad) {
      at::cuda::CUDAEvent ready;
      ready.record(c10::cuda::getCurrentCUDAStream());
      ready.block(comm);
      c10::cuda::CUDAStreamGuard g(comm);
      at::Tensor shard = grad.clone();
      shard.div_(8);
    });
  }
};

// Silent: the same lambda, never registered as a hook; its caller keeps
// what it hands in.
template <typename F> at::Tensor apply(F f, at::Tensor t) { return f(t); }

struct NotAHook {
  c10::cuda::CUDAStream comm = c10::cuda::getStreamFromPool();
  at::Tensor run(at::Tensor t) {
    return apply(
        [this](at::Tensor grad) {
          at::cuda::CUDAEvent ready;
          ready.record(c10::cuda::getCurrentCUDAStream());
          ready.block(comm);
          {
            c10::cuda::CUDAStreamGuard g(comm);
            at::Tensor shard = grad.clone();
            shard.div_(8);
          }
          return at::empty_like(grad);
        },
        t);
  }
};
