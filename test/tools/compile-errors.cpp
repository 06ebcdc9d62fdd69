// Code that does not compile (here, a class has a member of a type whose
// header is missing) is never analysed silently or
// crashed on: each function whose body uses what the compiler rejected is
// named on stderr as skipped, and the functions that compiled are analysed
// ('record' uses only the valid member).
// (A destructor of such a class once crashed clang's CFG builder.)
//
// RUN: not %streamsafe --checks='-*,streamsafe-unsynchronized-access' %s -- \
// RUN:   %libtorch_cxx_flags 2>&1 | FileCheck %s

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

struct Timeline {
  missing::spsc_queue<int> Pending;
  at::Tensor Last;
};

struct State {
  Timeline T;
  ~State() {
    at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
    T.Last.zero_();
  }
};

void record(State &S, const at::Tensor &X) { S.T.Last = X * 2; }

void broken(const at::Tensor &X) {
  at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
  at::Tensor Y = undeclared_helper(X);
}

void fine(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
}

// CHECK-DAG: streamsafe: skipped 'State::~State': its body has compile errors
// CHECK-DAG: streamsafe: skipped 'broken': its body has compile errors
// CHECK-DAG: warning: tensor 'Y' is read on pool stream 's'
// CHECK-DAG: error: use of undeclared identifier 'missing'
