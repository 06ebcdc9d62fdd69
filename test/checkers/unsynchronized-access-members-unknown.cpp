// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Members that may be the caller's current stream: each class below forks
// to its member and reads the result on the current stream with no wait,
// as OffloadHandler::offload does in unsynchronized-access-members.cpp,
// but some code of the class gives the member something other than a fresh
// stream (or could), so nothing is reported.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#define FORK_AND_READ(STREAM)                                                  \
  at::Tensor Y;                                                                \
  {                                                                            \
    c10::cuda::CUDAStreamGuard guard(STREAM);                                  \
    Y = X * 2;                                                                 \
  }                                                                            \
  return Y + 1;

// A pool stream, but one method assigns the current stream.
class SometimesCurrent {
public:
  SometimesCurrent() : side_(at::cuda::getStreamFromPool()) {}
  void use_current() { side_ = at::cuda::getCurrentCUDAStream(); }
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// A pool stream, but another constructor takes the caller's stream.
class GivenByCaller {
public:
  GivenByCaller() : side_(at::cuda::getStreamFromPool()) {}
  explicit GivenByCaller(c10::cuda::CUDAStream s) : side_(s) {}
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// The stream comes from a setter.
class FromSetter {
public:
  FromSetter() : side_(at::cuda::getStreamFromPool()) {}
  void set_stream(c10::cuda::CUDAStream s) { side_ = s; }
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// The current stream saved at construction: in later methods it may or
// may not be the current stream (unknown, silent).
class SavedCurrent {
public:
  SavedCurrent() : side_(at::cuda::getCurrentCUDAStream()) {}
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// A non-const reference to the member is handed out: anyone may assign it.
class HandsOutReference {
public:
  HandsOutReference() : side_(at::cuda::getStreamFromPool()) {}
  c10::cuda::CUDAStream &stream() { return side_; }
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// Another object's member: a copy of whatever it holds.
class CopiesAnother {
public:
  explicit CopiesAnother(const SometimesCurrent &Other, c10::cuda::CUDAStream s)
      : side_(s) {
    (void)Other;
  }
  at::Tensor run(const at::Tensor &X) { FORK_AND_READ(side_) }

private:
  c10::cuda::CUDAStream side_;
};

// A raw member created lazily, with a null placeholder: before the first
// call it is the legacy default stream, which may be the current one.
class LazyRaw {
public:
  void ensure() {
    if (!side_)
      cudaStreamCreate(&side_);
  }
  at::Tensor run(const at::Tensor &X) {
    FORK_AND_READ(c10::cuda::getStreamFromExternal(side_, X.device().index()))
  }

private:
  cudaStream_t side_ = nullptr;
};

// An aggregate: its member is set by braces, from anywhere.
struct Holder {
  c10::cuda::CUDAStream side;
};
at::Tensor run_holder(const Holder &H, const at::Tensor &X){
    FORK_AND_READ(H.side)} Holder make_holder() {
  return Holder{at::cuda::getCurrentCUDAStream()};
}

// The address of the member is handed to unknown code.
void fill_stream(cudaStream_t *Out);
class AddressTaken {
public:
  AddressTaken() {
    cudaStreamCreate(&side_);
    fill_stream(&side_);
  }
  at::Tensor run(const at::Tensor &X) {
    FORK_AND_READ(c10::cuda::getStreamFromExternal(side_, X.device().index()))
  }

private:
  cudaStream_t side_;
};
