// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Streams that carry their device. `getStreamFromPool(priority, d)` with a
// constant d is a stream of device d; a `CUDAStreamGuard` on it makes
// device d current as well, so the
// ATen ops on device d's tensors inside it run on the pool stream, and its
// end restores both. `cudaSetDevice(d)` and `c10::cuda::set_device(d)` with
// a constant d switch the current device with no restore. A device the
// analysis cannot read stays the current one (silent).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

// Wrong: the pool stream belongs to device 1, so the guard makes device 1
// current and the op on a device-1 tensor runs on the pool stream, with
// nothing ordering it after the allocation on device 1's current stream.
void poolStreamOfDevice(int64_t n) {
  auto s = at::cuda::getStreamFromPool(false, 1);
  at::Tensor out = at::empty({n}, at::TensorOptions().device("cuda:1"));
  {
    at::cuda::CUDAStreamGuard g(s);
    out.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' is written on pool stream 's' while its allocation on the current stream of device 1 may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-6]]:20: note: 'out' is allocated on the current stream of device 1 here
  }
}

// Right: the pool stream waits for device 1's current stream first.
void poolStreamOfDeviceWaits(int64_t n) {
  auto s = at::cuda::getStreamFromPool(false, 1);
  at::Tensor out = at::empty({n}, at::TensorOptions().device("cuda:1"));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream(1));
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    out.add_(1);
  }
}

// Right: a pool stream of device 0 does not run the ops of a device-1
// tensor; they stay on device 1's current stream.
void poolStreamOfOtherDevice(int64_t n) {
  auto s = at::cuda::getStreamFromPool(false, 0);
  at::Tensor out = at::empty({n}, at::TensorOptions().device("cuda:1"));
  {
    at::cuda::CUDAStreamGuard g(s);
    out.add_(1);
  }
}

// Right: a pool stream of a device the analysis cannot read is taken to be
// the current device's; the device-1 tensor's ops stay on device 1's
// current stream.
void poolStreamOfUnknownDevice(int64_t n, c10::DeviceIndex d) {
  auto s = at::cuda::getStreamFromPool(false, d);
  at::Tensor out = at::empty({n}, at::TensorOptions().device("cuda:1"));
  {
    at::cuda::CUDAStreamGuard g(s);
    out.add_(1);
  }
}

// Wrong: the write on device 1's pool stream is not joined before the copy
// on device 0's current stream reads the tensor.
void guardRestoresDevice(const at::Tensor &src, size_t bytes) {
  auto s = at::cuda::getStreamFromPool(false, 1);
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream(1));
  ready.block(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    out.add_(1);
  }
  at::cuda::CUDAGuard back(0);
  cudaMemcpyAsync(src.data_ptr(), out.data_ptr(), bytes,
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: tensor 'out' is read on the current stream of device 0 while its write on pool stream 's' may still be pending; nothing makes the current stream of device 0 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'out' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-7]]:31: note: the current stream was set to pool stream 's' here
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
}

// Wrong: cudaSetDevice(1) makes device 1 current: the copy runs on device
// 1's current stream, not ordered after the allocation on device 0's.
void setDeviceSwitches(const at::Tensor &src, size_t bytes) {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:0"));
  cudaSetDevice(1);
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: tensor 'out' is written on the current stream of device 1 while its allocation on the current stream of device 0 may still be pending; nothing makes the current stream of device 1 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'out' is allocated on the current stream of device 0 here
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
}

// Right: set_device(0) keeps the allocation's device current.
void setDeviceSame(const at::Tensor &src, size_t bytes) {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:0"));
  c10::cuda::set_device(0);
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
}

// Right: a device that is not a constant is taken to be the current one.
void setDeviceUnknown(const at::Tensor &src, size_t bytes, int d) {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:0"));
  cudaSetDevice(d);
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
}
