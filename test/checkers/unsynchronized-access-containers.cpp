// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Local containers of tensors are followed element by element: a
// std::vector filled with push_back/emplace_back or a braced list, a
// std::array, a std::pair or std::tuple (std::get, .first/.second,
// structured bindings). An element with a constant index is followed on its
// own; a range-for over the container, a non-constant index, or the
// container handed to at::stack/at::cat touches every element. A container
// the analysis cannot follow (passed by non-const reference) stays silent.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <array>
#include <tuple>
#include <utility>
#include <vector>

// The side streams wait for the current stream's work before they start.
#define FORK(s)                                                                \
  at::cuda::CUDAEvent Ready;                                                   \
  Ready.record(at::cuda::getCurrentCUDAStream());                              \
  Ready.block(s)
// The current stream waits for the side stream's work.
#define JOIN(s)                                                                \
  at::cuda::CUDAEvent Done;                                                    \
  Done.record(s);                                                              \
  Done.block(at::cuda::getCurrentCUDAStream())

// Wrong: the chunks are scaled on a side stream into a vector, then stacked
// on the current stream with no join.
at::Tensor pushed_without_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  auto parts = x.chunk(2);
  std::vector<at::Tensor> outs;
  FORK(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    outs.push_back(parts[0].mul(2));
    outs.emplace_back(parts[1].mul(2));
  }
  return at::stack(outs);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'outs[0]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'outs[0]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream was set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:20: warning: tensor 'outs[1]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-9]]:23: note: 'outs[1]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-12]]:31: note: the current stream was set to pool stream 's' here
}

// Right: the same, joined before the stack.
at::Tensor pushed_after_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  auto parts = x.chunk(2);
  std::vector<at::Tensor> outs;
  FORK(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    outs.push_back(parts[0].mul(2));
    outs.emplace_back(parts[1].mul(2));
  }
  JOIN(s);
  return at::stack(outs);
}

// Wrong: a range-for scales every element of a braced vector on the side
// stream; the second element is read on the current stream.
at::Tensor range_for_without_join(const at::Tensor &a, const at::Tensor &b) {
  auto s = at::cuda::getStreamFromPool();
  std::vector<at::Tensor> v{a.mul(2), b.mul(2)};
  FORK(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    for (auto &t : v)
      t.add_(1);
  }
  return v[1].sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'v[1]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'v[1]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream was set to pool stream 's' here
}

// Right: the same, joined.
at::Tensor range_for_after_join(const at::Tensor &a, const at::Tensor &b) {
  auto s = at::cuda::getStreamFromPool();
  std::vector<at::Tensor> v = {a.mul(2), b.mul(2)};
  FORK(s);
  {
    at::cuda::CUDAStreamGuard g(s);
    for (auto &t : v)
      t.add_(1);
  }
  JOIN(s);
  return v[1].sum();
}

// Right: different elements of an array on two streams.
void elements_apart(const at::Tensor &a, const at::Tensor &b) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  std::array<at::Tensor, 2> v = {a.mul(2), b.mul(2)};
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s1);
  ready.block(s2);
  {
    at::cuda::CUDAStreamGuard g(s1);
    v[0].add_(1);
  }
  {
    at::cuda::CUDAStreamGuard g(s2);
    v[1].add_(1);
  }
}

// Wrong: an index that is not a constant may name the element s1 writes.
void element_unknown_index(const at::Tensor &a, const at::Tensor &b, int i) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  std::array<at::Tensor, 2> v = {a.mul(2), b.mul(2)};
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s1);
  ready.block(s2);
  {
    at::cuda::CUDAStreamGuard g(s1);
    v[0].add_(1);
  }
  {
    at::cuda::CUDAStreamGuard g(s2);
    v[i].add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'v[0]' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's2' here
    // CHECK-NOTES: :[[@LINE-7]]:5: note: 'v[0]' is written on pool stream 's1' here
    // CHECK-NOTES: :[[@LINE-9]]:31: note: the current stream was set to pool stream 's1' here
  }
}

// Right: two chunks of one tensor pushed into a vector are still disjoint
// pieces of its storage.
void pushed_pieces_apart(const at::Tensor &x) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty({4, 64}, x.options());
  auto halves = out.chunk(2);
  std::vector<at::Tensor> v;
  v.push_back(halves[0]);
  v.push_back(halves[1]);
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s1);
  ready.block(s2);
  {
    at::cuda::CUDAStreamGuard g(s1);
    v[0].zero_();
  }
  {
    at::cuda::CUDAStreamGuard g(s2);
    v[1].zero_();
  }
}

// Wrong: the pair's first element is made on the side stream and read on
// the current stream with no join.
at::Tensor pair_without_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::pair<at::Tensor, at::Tensor> p;
  {
    at::cuda::CUDAStreamGuard g(s);
    p.first = x.mul(2);
  }
  p.second = x.add(1);
  return p.second.add(p.first);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'p.first' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-6]]:15: note: 'p.first' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream was set to pool stream 's' here
}

// Right: the same, joined.
at::Tensor pair_after_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::pair<at::Tensor, at::Tensor> p;
  {
    at::cuda::CUDAStreamGuard g(s);
    p.first = x.mul(2);
  }
  p.second = x.add(1);
  JOIN(s);
  return p.second.add(p.first);
}

// Wrong: a tuple made of a side-stream result, read through std::get and a
// structured binding.
at::Tensor tuple_without_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  at::Tensor a = x.add(1);
  at::Tensor b;
  {
    at::cuda::CUDAStreamGuard g(s);
    b = x.mul(2);
  }
  auto t = std::make_tuple(a, b);
  auto [u, w] = t;
  at::Tensor first = std::get<0>(t).sum();
  return w.sum() + first + u;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'w' (a view of 'b') is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:9: note: 'b' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-10]]:31: note: the current stream was set to pool stream 's' here
}

// Right: the same, joined; std::get<0> is the current stream's own result.
at::Tensor tuple_after_join(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  at::Tensor a = x.add(1);
  at::Tensor b;
  {
    at::cuda::CUDAStreamGuard g(s);
    b = x.mul(2);
  }
  auto t = std::make_tuple(a, b);
  at::Tensor first = std::get<0>(t).sum();
  JOIN(s);
  auto [u, w] = t;
  return w.sum() + first + u;
}

// Wrong: pushed in a loop, the elements are read together by at::cat. A
// constant index names no known element (silent).
at::Tensor loop_pushed_without_join(const at::Tensor &x, int n) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::vector<at::Tensor> outs;
  {
    at::cuda::CUDAStreamGuard g(s);
    for (int i = 0; i < n; ++i)
      outs.push_back(x.mul(i));
  }
  at::Tensor head = outs[0].sum();
  return at::cat(outs) + head;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'outs[...]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-6]]:22: note: 'outs[...]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-9]]:31: note: the current stream was set to pool stream 's' here
}

// Right: the same, joined.
at::Tensor loop_pushed_after_join(const at::Tensor &x, int n) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::vector<at::Tensor> outs;
  {
    at::cuda::CUDAStreamGuard g(s);
    for (int i = 0; i < n; ++i)
      outs.push_back(x.mul(i));
  }
  JOIN(s);
  return at::cat(outs);
}

void fill(std::vector<at::Tensor> &v);

// Silent: once passed by non-const reference, the vector may hold anything.
at::Tensor unknown_container(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::vector<at::Tensor> outs;
  {
    at::cuda::CUDAStreamGuard g(s);
    outs.push_back(x.mul(2));
  }
  fill(outs);
  return outs[0].sum();
}

// Wrong: clear() and a new push_back: the element read is the new one, made
// on the side stream.
at::Tensor cleared_and_refilled(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::vector<at::Tensor> outs{x.add(1)};
  outs.clear();
  {
    at::cuda::CUDAStreamGuard g(s);
    outs.push_back(x.mul(2));
  }
  return outs[0].sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'outs[0]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 'outs[0]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-7]]:31: note: the current stream was set to pool stream 's' here
}

// Right: after erase(begin()), outs[0] is the current stream's element.
at::Tensor erased_front(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  FORK(s);
  std::vector<at::Tensor> outs;
  {
    at::cuda::CUDAStreamGuard g(s);
    outs.push_back(x.mul(2));
  }
  outs.push_back(x.add(1));
  outs.erase(outs.begin());
  return outs[0].sum();
}
