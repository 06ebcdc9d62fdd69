// Code that does not compile (here, a class has a member of a type whose
// header is missing) is never analysed silently or
// crashed on: each function whose body uses what the compiler rejected is
// named on stderr as skipped, and the functions that compiled are analysed
// ('record' uses only the valid member).
// A function that calls a helper that did not compile analyses the call as
// doing nothing it follows ('calls_broken').
// (A destructor of such a class once crashed clang's CFG builder; a helper
// that did not compile, run in place, once crashed the solver.)
//
// RUN: not %streamsafe --checks='-*,streamsafe-unsynchronized-access' %s -- \
// RUN:   %libtorch_cxx_flags 2>&1 | FileCheck %s
// RUN: not %streamsafe --checks='-*,streamsafe-unsynchronized-access' %s -- \
// RUN:   %libtorch_cxx_flags 2>&1 | FileCheck %s --check-prefix=CALLER
// CALLER-NOT: warning: tensor 'A'

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

static void add_on(at::Tensor &P, c10::cuda::CUDAStream S) {
  c10::cuda::CUDAStreamGuard G(S);
  P.add_(undeclared_amount);
}

void calls_broken(const at::Tensor &X) {
  auto S = at::cuda::getStreamFromPool();
  at::Tensor A = X * 2;
  add_on(A, S);
  at::Tensor B = A.exp();
}

void fine(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
}

// CHECK-DAG: streamsafe: skipped 'State::~State': its body has compile errors
// CHECK-DAG: streamsafe: skipped 'broken': its body has compile errors
// CHECK-DAG: streamsafe: skipped 'add_on': its body has compile errors
// CHECK-DAG: warning: tensor 'Y' is read on pool stream 's'
// CHECK-DAG: error: use of undeclared identifier 'missing'
