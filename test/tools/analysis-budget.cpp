// A function over the analysis budget (MaxStateWork here; VisitsPerBlock is
// covered by the unit tests) is never skipped silently: the tool
// names it on stderr. With the default budgets the same function is analysed.
//
// RUN: %streamsafe --checks='-*,streamsafe-unsynchronized-access' \
// RUN:   -config="{CheckOptions: {MaxStateWork: 5}}" %s -- %libtorch_cxx_flags \
// RUN:   2>&1 | FileCheck %s --check-prefix=WORK
// RUN: %streamsafe --checks='-*,streamsafe-unsynchronized-access' %s -- \
// RUN:   %libtorch_cxx_flags 2>&1 | FileCheck %s --check-prefix=DEFAULT

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

void loops(const at::Tensor &X, int n) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      Y.add_(1);
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
}

// WORK: streamsafe: skipped 'loops': the analysis budget was exceeded ({{.*}} state entries touched)
// WORK-NOT: warning:
// DEFAULT-NOT: skipped
// DEFAULT: warning: tensor 'Y' is read on pool stream 's'
