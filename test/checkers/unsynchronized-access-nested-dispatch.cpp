// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Lambdas run in place inside lambdas run in place, many of them (a
// dispatch macro over types around a project's dispatch macro over
// reductions, as in pytorch_scatter's scatter_cuda): the solver keeps a
// reference to a body's block order while the bodies it runs add theirs.
// It crashed here once (docs/realworld.md); the code is correct: silent.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

#define CASE(N, ...)                                                           \
  case N: {                                                                    \
    static constexpr int R = N;                                                \
    return __VA_ARGS__();                                                      \
  }
#define DISPATCH8(v, ...)                                                      \
  [&] {                                                                        \
    switch (v) {                                                               \
      CASE(0, __VA_ARGS__)                                                     \
      CASE(1, __VA_ARGS__)                                                     \
      CASE(2, __VA_ARGS__)                                                     \
      CASE(3, __VA_ARGS__)                                                     \
      CASE(4, __VA_ARGS__)                                                     \
      CASE(5, __VA_ARGS__)                                                     \
      CASE(6, __VA_ARGS__)                                                     \
      CASE(7, __VA_ARGS__)                                                     \
    }                                                                          \
  }()

void scatter(at::Tensor out, int type, int reduce, int layout) {
  DISPATCH8(type, [&] {
    at::Tensor tmp = out.clone();
    DISPATCH8(reduce, [&] {
      DISPATCH8(layout, [&] {
        if (R == 1 || R == 2)
          out.fill_(R);
        if (R == 3)
          tmp.mul_(2);
      });
    });
    out.add_(tmp);
  });
}
