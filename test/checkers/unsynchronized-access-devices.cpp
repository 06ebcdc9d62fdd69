// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Several devices. Each device has its own current stream: a tensor
// allocated with options naming `cuda:1` is allocated on device 1's current
// stream, `getCurrentCUDAStream(0)` is device 0's, and a `CUDAGuard(d)` makes
// device d's current stream the one the code after it uses. The current
// streams of two different devices (constant indices) are different streams;
// a device the analysis cannot read is assumed to be the current one, and
// the stream of a device that may be the entry device is not told apart
// from the entry device's (silent).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

// A two-hop copy across three devices: `src` lives on cuda:0; each hop
// copies into a buffer just allocated on the next device, issued on the
// source device's current stream, and nothing orders it after the
// allocation on the destination device's current stream (the block may
// still be in use there), nor the second hop after the first.
void twoHopNoWait(const at::Tensor &src, size_t bytes) {
  at::Tensor mid =
      at::empty_like(src, src.options().device(at::Device(at::kCUDA, 1)));
  at::Tensor dst =
      at::empty_like(src, src.options().device(at::Device(at::kCUDA, 2)));
  at::cuda::CUDAStream s0 = at::cuda::getCurrentCUDAStream(0);
  at::cuda::CUDAStream s1 = at::cuda::getCurrentCUDAStream(1);
  cudaMemcpyAsync(mid.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, s0);
  // CHECK-NOTES: :[[@LINE-2]]:19: warning: tensor 'mid' is written on the current stream of device 0 while its allocation on the current stream of device 1 may still be pending; nothing makes the current stream of device 0 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'mid' is allocated on the current stream of device 1 here
  cudaMemcpyAsync(dst.data_ptr(), mid.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, s1);
  // CHECK-NOTES: :[[@LINE-2]]:19: warning: tensor 'dst' is written on the current stream of device 1 while its allocation on the current stream of device 2 may still be pending; nothing makes the current stream of device 1 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-10]]:7: note: 'dst' is allocated on the current stream of device 2 here
  // CHECK-NOTES: :[[@LINE-4]]:35: warning: tensor 'mid' is read on the current stream of device 1 while its write on the current stream of device 0 may still be pending; nothing makes the current stream of device 1 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-9]]:19: note: 'mid' is written on the current stream of device 0 here
}

// The same hops, each ordered with events: the destination device's
// current stream records that the buffer is ready, the copying stream waits
// for it; the second hop also waits for the first.
void twoHopWithWait(const at::Tensor &src, size_t bytes) {
  at::Tensor mid =
      at::empty_like(src, src.options().device(at::Device(at::kCUDA, 1)));
  at::Tensor dst =
      at::empty_like(src, src.options().device(at::Device(at::kCUDA, 2)));
  at::cuda::CUDAStream s0 = at::cuda::getCurrentCUDAStream(0);
  at::cuda::CUDAStream s1 = at::cuda::getCurrentCUDAStream(1);
  at::cuda::CUDAStream s2 = at::cuda::getCurrentCUDAStream(2);
  at::cuda::CUDAEvent midReady, dstReady, firstHop;
  midReady.record(s1);
  midReady.block(s0);
  cudaMemcpyAsync(mid.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, s0);
  firstHop.record(s0);
  firstHop.block(s1);
  dstReady.record(s2);
  dstReady.block(s1);
  cudaMemcpyAsync(dst.data_ptr(), mid.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, s1);
}

// A CUDAGuard makes device 0 current: getCurrentCUDAStream() is device 0's
// current stream inside it.
void guardOtherDevice(const at::Tensor &src, size_t bytes) {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));
  at::cuda::CUDAGuard guard(0);
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-2]]:19: warning: tensor 'out' is written on the current stream of device 0 while its allocation on the current stream of device 1 may still be pending; nothing makes the current stream of device 0 wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 'out' is allocated on the current stream of device 1 here
}

// ---- Not reported. ----

// The guard makes the buffer's own device current. An ATen op on the
// buffer runs on its device's current stream, whatever device is current;
// after the guard's scope, the entry device is current again (it may be
// device 1).
void guardSameDevice(const at::Tensor &src, size_t bytes) {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));
  {
    at::cuda::CUDAGuard guard(1);
    cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                    cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
  }
  {
    c10::cuda::OptionalCUDAGuard guard(at::Device(at::kCUDA, 0));
    out.mul_(2);
  }
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
}

// Devices the analysis cannot read: assumed to be the current one.
void unknownDevices(const at::Tensor &src, at::Device other, int index,
                    size_t bytes) {
  at::Tensor out = at::empty_like(src, src.options().device(other));
  cudaMemcpyAsync(out.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream(0));
  at::Tensor mid =
      at::empty_like(src, src.options().device(at::Device(at::kCUDA, 1)));
  at::cuda::CUDAGuard guard(index);
  cudaMemcpyAsync(mid.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
  cudaMemcpyAsync(mid.data_ptr(), src.data_ptr(), bytes,
                  cudaMemcpyDeviceToDevice,
                  at::cuda::getCurrentCUDAStream(src.device().index()));
}

// The entry device's current stream was changed: device 1 may be the entry
// device, so its current stream may be the pool stream.
void entryDeviceChanged(const at::Tensor &src, size_t bytes) {
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard sideGuard(side);
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));
  cudaMemsetAsync(out.data_ptr(), 0, bytes, side);
}
