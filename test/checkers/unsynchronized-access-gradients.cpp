// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// `loss.backward()` writes the gradients, ready on the stream current at the
// call; a torch::optim::Optimizer's step() reads them and its zero_grad()
// writes them (lib/model/Gradients.h). A step on another stream than the
// backward, with no wait between them, reads gradients still being written.
// The Python twin is test/python/gradients.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/optim/sgd.h>

// Wrong: the backward on a side stream, the step on the current one.
void train_step(const at::Tensor &loss, torch::optim::SGD &opt) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    c10::cuda::CUDAStreamGuard g(side);
    loss.backward();
  }
  opt.step();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'gradients' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'gradients' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-7]]:32: note: the current stream was set to pool stream 'side' here
  opt.zero_grad();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'gradients' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-10]]:5: note: 'gradients' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-12]]:32: note: the current stream was set to pool stream 'side' here
}

// Right: the current stream waits for the backward's.
void train_step_synced(const at::Tensor &loss, torch::optim::SGD &opt) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    c10::cuda::CUDAStreamGuard g(side);
    loss.backward();
  }
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(c10::cuda::getCurrentCUDAStream());
  opt.step();
  opt.zero_grad();
}
