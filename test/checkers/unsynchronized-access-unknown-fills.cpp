// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Code the analysis does not see reads the tensors it is handed on the
// current stream, and fills what nothing has written since an allocation
// without values (at::empty): code does not read memory nobody wrote. Two
// side-stream parameters may be one stream, unless the function makes one
// wait for the other (lib/lower/UnknownCode.h; the Python twin is
// test/python/unknown-code-fills.py).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Defined in another file: it writes the halo it is given.
void halo_exchange(const at::Tensor &In, at::Tensor &Halo);

at::Tensor exchange(const at::Tensor &X, c10::cuda::CUDAStream s1,
                    c10::cuda::CUDAStream s2, bool late) {
  at::Tensor Halo = at::empty_like(X);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard guard(s1);
    halo_exchange(X, Halo);
  }
  if (late) {
    at::cuda::CUDAEvent done;
    done.record(s1);
    done.block(s2);
  }
  c10::cuda::CUDAStreamGuard guard(s2);
  return Halo * 2;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'Halo' is read on stream parameter 's2' while its write on stream parameter 's1' may still be pending; nothing makes stream parameter 's2' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to stream parameter 's2' here
  // CHECK-NOTES: :[[@LINE-11]]:22: note: 'Halo' is written on stream parameter 's1' here, by code the analysis does not read: nothing has written this part of it since it was allocated without values, so the call is taken to fill it
  // CHECK-NOTES: :[[@LINE-13]]:32: note: the current stream was set to stream parameter 's1' here
  // CHECK-NOTES: :[[@LINE-16]]:3: note: 's2' is used as a side stream here, so it is taken to differ from the caller's current stream
  // CHECK-NOTES: :[[@LINE-18]]:3: note: 's1' is used as a side stream here, so it is taken to differ from the caller's current stream
  // CHECK-NOTES: :[[@LINE-10]]:5: note: stream parameter 's2' and stream parameter 's1' are ordered one after the other here, so they are taken to be different streams
  // CHECK-NOTES: :[[@LINE-14]]:7: note: on the path reported, 'late' is false
}

// The correct twin: s2 waits for s1 on every path.
at::Tensor exchange_waits(const at::Tensor &X, c10::cuda::CUDAStream s1,
                          c10::cuda::CUDAStream s2) {
  at::Tensor Halo = at::empty_like(X);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  {
    c10::cuda::CUDAStreamGuard guard(s1);
    halo_exchange(X, Halo);
  }
  at::cuda::CUDAEvent done;
  done.record(s1);
  done.block(s2);
  c10::cuda::CUDAStreamGuard guard(s2);
  return Halo * 2;
}

// Zeros are values: the call may only read them, and two reads do not race.
at::Tensor written_first(const at::Tensor &X, c10::cuda::CUDAStream s1,
                         c10::cuda::CUDAStream s2, bool late) {
  at::Tensor Halo = at::zeros_like(X);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard guard(s1);
    halo_exchange(X, Halo);
  }
  if (late) {
    at::cuda::CUDAEvent done;
    done.record(s1);
    done.block(s2);
  }
  c10::cuda::CUDAStreamGuard guard(s2);
  return Halo * 2;
}

// Never ordered one against the other: s1 and s2 may be one stream.
at::Tensor never_ordered(const at::Tensor &X, c10::cuda::CUDAStream s1,
                         c10::cuda::CUDAStream s2) {
  at::Tensor Halo = at::empty_like(X);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard guard(s1);
    halo_exchange(X, Halo);
  }
  c10::cuda::CUDAStreamGuard guard(s2);
  return Halo * 2;
}
