// Host overloads of min/max for int-like types, force-included (-include)
// into the corpus's CUDA translation units. nvcc's CUDA headers give host
// code these overloads; clang's CUDA wrappers with CUDA 13 declare them for
// device code only, so extension code calling min(a, b) in a host function
// does not parse. Not a LibTorch header: the corpus's one stub of this kind
// (docs/realworld.md).
#pragma once
#if defined(__CUDA__) && !defined(__CUDA_ARCH__)
#define STREAMSAFE_HOST_MINMAX(T)                                              \
  static inline __host__ T min(T a, T b) { return a < b ? a : b; }             \
  static inline __host__ T max(T a, T b) { return a < b ? b : a; }
STREAMSAFE_HOST_MINMAX(int)
STREAMSAFE_HOST_MINMAX(unsigned int)
STREAMSAFE_HOST_MINMAX(long)
STREAMSAFE_HOST_MINMAX(unsigned long)
STREAMSAFE_HOST_MINMAX(long long)
STREAMSAFE_HOST_MINMAX(unsigned long long)
#undef STREAMSAFE_HOST_MINMAX
// Mixed signs, as nvcc's crt/math_functions.hpp declares them: the unsigned
// type wins (max(uint32_t, 256) is max(unsigned, int)).
#define STREAMSAFE_HOST_MINMAX_MIXED(S, U)                                     \
  static inline __host__ U min(S a, U b) { return min(static_cast<U>(a), b); }              \
  static inline __host__ U min(U a, S b) { return min(a, static_cast<U>(b)); }              \
  static inline __host__ U max(S a, U b) { return max(static_cast<U>(a), b); }              \
  static inline __host__ U max(U a, S b) { return max(a, static_cast<U>(b)); }
STREAMSAFE_HOST_MINMAX_MIXED(int, unsigned int)
STREAMSAFE_HOST_MINMAX_MIXED(long, unsigned long)
STREAMSAFE_HOST_MINMAX_MIXED(long long, unsigned long long)
#undef STREAMSAFE_HOST_MINMAX_MIXED
#endif
