// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Streams kept in members. A member that every assignment of its class
// gives a fresh stream (getStreamFromPool(), cudaStreamCreate) is another
// stream than the caller's current one in every method; a member that is
// ever given anything else (the current stream, a parameter) may be the
// current stream, and nothing is reported about it.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// An offload handler: a pool stream made in the constructor's initializer
// list, and an event member.
class OffloadHandler {
public:
  OffloadHandler() : copy_stream_(at::cuda::getStreamFromPool()) {}

  at::Tensor offload(const at::Tensor &X) {
    ready_.record();
    ready_.block(copy_stream_);
    at::Tensor Y;
    {
      c10::cuda::CUDAStreamGuard guard(copy_stream_);
      Y = X * 2;
    }
    // The current stream reads Y with no wait for the copy stream.
    return Y + 1;
  }

  // The correct twin: the current stream waits for the copy stream.
  at::Tensor offload_waited(const at::Tensor &X) {
    ready_.record();
    ready_.block(copy_stream_);
    at::Tensor Y;
    {
      c10::cuda::CUDAStreamGuard guard(copy_stream_);
      Y = X * 2;
    }
    done_.record(copy_stream_);
    done_.block(at::cuda::getCurrentCUDAStream());
    return Y + 1;
  }

private:
  c10::cuda::CUDAStream copy_stream_;
  at::cuda::CUDAEvent ready_;
  at::cuda::CUDAEvent done_;
};

// A communicator (DeepEP's shape): the constructor's body gives the raw
// member a pool stream; a method allocates on the compute stream, makes the
// communication stream wait, and works on it.
class Communicator {
public:
  Communicator() { comm_stream_ = at::cuda::getStreamFromPool(); }

  void dispatch_ordered(const at::Tensor &X) {
    at::Tensor Buf = at::empty_like(X);
    Buf.copy_(X);
    cudaEvent_t Ready;
    cudaEventCreate(&Ready);
    cudaEventRecord(Ready, at::cuda::getCurrentCUDAStream());
    cudaStreamWaitEvent(comm_stream_, Ready, 0);
    c10::cuda::CUDAStreamGuard guard(
        c10::cuda::getStreamFromExternal(comm_stream_, X.device().index()));
    Buf.mul_(2);
  }

  // The same with the wait left out: the communication stream may run
  // before the copy into Buf.
  void dispatch_unordered(const at::Tensor &X) {
    at::Tensor Buf = at::empty_like(X);
    Buf.copy_(X);
    c10::cuda::CUDAStreamGuard guard(
        c10::cuda::getStreamFromExternal(comm_stream_, X.device().index()));
    Buf.mul_(2);
  }

private:
  cudaStream_t comm_stream_;
};
