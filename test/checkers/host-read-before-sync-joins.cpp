// RUN: %check_streamsafe %s streamsafe-host-read-before-sync %t

// Where paths meet with a host tensor on one and a device tensor on the
// other (the Python twin is test/python/data-host-joins.py): the joined
// tensor is host memory, and what may still be in flight on it is only
// what the host path left there. A pending copy comes only from a real
// non_blocking copy into host memory; the device path's work never races
// with host code. (Each function names the current stream so that the
// pre-scan analyses it.)

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

// Right: a device tensor moved to the host on one path; nothing is copied
// with non_blocking anywhere.
float to_host_if_cuda(at::Tensor m) {
  auto cur = at::cuda::getCurrentCUDAStream();
  (void)cur;
  if (m.is_cuda())
    m = m.cpu();
  return m.data_ptr<float>()[0];
}

// Right: rows appended to a CPU tensor in a loop; the loop head joins the
// empty CPU tensor with at::cat's result.
float cat_rows(const at::Tensor &q, int n) {
  auto cur = at::cuda::getCurrentCUDAStream();
  (void)cur;
  at::Tensor w = at::empty({0, 4});
  for (int i = 0; i < n; ++i)
    w = at::cat({w, q.slice(0, i, i + 1)});
  return w.data_ptr<float>()[0];
}

// Right: a CPU tensor on one path, an op's result on the other.
float zeros_or_op(const at::Tensor &q, bool flag) {
  auto cur = at::cuda::getCurrentCUDAStream();
  (void)cur;
  at::Tensor h;
  if (flag)
    h = at::zeros({3});
  else
    h = q * 2;
  return h.data_ptr<float>()[0];
}

// Wrong: one path copies to the host with non_blocking; on that path the
// copy may still be running when the host reads.
float async_copy_on_one_path(const at::Tensor &d, bool flag) {
  at::Tensor h;
  if (flag)
    h = d.to(at::kCPU, /*non_blocking=*/true);
  else
    h = d * 2;
  return h.data_ptr<float>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-5]]:9: note: the non_blocking copy is enqueued on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-7]]:7: note: on the path reported, 'flag' is true
}

// Wrong: the same on the host path of a loop: the copy made in an earlier
// iteration may still be running when the host reads it.
void async_copy_in_loop(const at::Tensor &d, float *out, int n) {
  at::Tensor h = d * 2;
  for (int i = 0; i < n; ++i) {
    out[i] = h.data_ptr<float>()[0];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    // CHECK-NOTES: :[[@LINE+1]]:9: note: the non_blocking copy is enqueued on the caller's current stream here
    h = d.to(at::kCPU, /*non_blocking=*/true);
  }
}

// Right: the same loop, synchronised before each read.
void async_copy_in_loop_synchronized(const at::Tensor &d, float *out, int n) {
  at::Tensor h = d * 2;
  for (int i = 0; i < n; ++i) {
    at::cuda::getCurrentCUDAStream().synchronize();
    out[i] = h.data_ptr<float>()[0];
    h = d.to(at::kCPU, /*non_blocking=*/true);
  }
}
