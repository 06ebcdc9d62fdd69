// The C++ rendering of Inputs/lower-rules.py (cross-language.test): the
// rules of lib/lower and lib/report/ShownFindings.h, written once for both
// languages, give the same findings.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Side parameters (lib/lower/SideParameters.h): entered, so a side stream.
at::Tensor scale_on(const at::Tensor &x, c10::cuda::CUDAStream s) {
  at::Tensor y = x * 2;
  c10::cuda::CUDAStreamGuard g(s);
  return y + 1;
}

// A default may be the current stream: no proof.
at::Tensor
scale_defaulted(const at::Tensor &x,
                c10::cuda::CUDAStream s = c10::cuda::getDefaultCUDAStream()) {
  at::Tensor y = x * 2;
  c10::cuda::CUDAStreamGuard g(s);
  return y + 1;
}

// copy_() returns its object (lib/lower/Regions.h): row 0 of out.
at::Tensor copy_result_overlaps(const at::Tensor &x) {
  auto s1 = c10::cuda::getStreamFromPool();
  auto s2 = c10::cuda::getStreamFromPool();
  at::Tensor out = at::empty({2, 64}, x.options());
  at::Tensor top = out.select(0, 0).copy_(x);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard g(s1);
    top.mul_(2);
  }
  {
    c10::cuda::CUDAStreamGuard g(s2);
    out.select(0, 0).zero_();
  }
  at::cuda::CUDAEvent done1, done2;
  done1.record(s1);
  done2.record(s2);
  done1.block(c10::cuda::getCurrentCUDAStream());
  done2.block(c10::cuda::getCurrentCUDAStream());
  return out;
}

// Two tensors at one call are two findings (lib/report/ShownFindings.h).
static void add_on(at::Tensor &p, at::Tensor &q, c10::cuda::CUDAStream s) {
  c10::cuda::CUDAStreamGuard g(s);
  p.add_(1);
  q.add_(1);
}

void two_at_the_call(const at::Tensor &x) {
  auto s = c10::cuda::getStreamFromPool();
  at::Tensor a = x * 2;
  at::Tensor b = x * 3;
  add_on(a, b, s);
}

// Placement (lib/lower/Placement.h): a pin flag the analysis cannot read
// asks for pinned memory on some path, the case that can race.
float read_back(const at::Tensor &x, bool pin) {
  at::Tensor host = at::empty({64}, at::TensorOptions().pinned_memory(pin));
  host.copy_(x, /*non_blocking=*/true);
  return host[0].item<float>();
}

// Pinned memory asked for with false is pageable: the copy is synchronous.
float read_back_pageable(const at::Tensor &x) {
  at::Tensor host = at::empty({64}, at::TensorOptions().pinned_memory(false));
  host.copy_(x, /*non_blocking=*/true);
  return host[0].item<float>();
}

// A forwarding setter may leave the stream it is given set
// (lib/lower/LeavesStreamSet.h): its caller chose it and is judged.
static void use_stream(c10::cuda::CUDAStream s) {
  c10::cuda::setCurrentCUDAStream(s);
}

void forwards_and_forgets() {
  auto s = c10::cuda::getStreamFromPool();
  use_stream(s);
}

// A section (lib/lower/StreamSections.h): begin() leaves its stream set
// for end(); a caller that does not close it is judged.
struct Section {
  c10::cuda::CUDAStream saved = c10::cuda::getCurrentCUDAStream();
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  void begin() {
    saved = c10::cuda::getCurrentCUDAStream();
    c10::cuda::setCurrentCUDAStream(side);
  }
  void end() { c10::cuda::setCurrentCUDAStream(saved); }
};

void opens_and_closes() {
  Section sec;
  sec.begin();
  sec.end();
}

void opens_only() {
  Section sec;
  sec.begin();
}
