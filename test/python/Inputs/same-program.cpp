// The C++ rendering of Inputs/same-program.py (cross-language.test): the
// same functions, in the same order, with the same names.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <thread>

at::Tensor side_stream_without_wait(const at::Tensor &x) {
  auto s = c10::cuda::getStreamFromPool();
  at::Tensor y = x + 1;
  at::Tensor z;
  {
    c10::cuda::CUDAStreamGuard g(s);
    z = y * 2;
  }
  return z;
}

void wait_on_unrecorded_event() {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent e;
  e.block(s);
}

at::Tensor clone_without_wait(const at::Tensor &x) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor b;
  {
    c10::cuda::CUDAStreamGuard g(s);
    b = x.mm(x);
  }
  at::Tensor c = b.clone();
  x.record_stream(s);
  b.record_stream(at::cuda::getCurrentCUDAStream());
  return c;
}

float host_read_before_sync(const at::Tensor &d) {
  at::Tensor h = d.to(at::kCPU, /*non_blocking=*/true);
  return h.item<float>();
}

void thread_on_default_stream() {
  auto s = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  std::thread th([&] { t.add_(1); });
  th.join();
}
