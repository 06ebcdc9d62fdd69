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
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'Y' is read on the caller's current stream while its write on stream member 'copy_stream_' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    // CHECK-NOTES: :[[@LINE-6]]:11: note: 'Y' is written on stream member 'copy_stream_' here
    // CHECK-NOTES: :[[@LINE-8]]:34: note: the current stream was set to stream member 'copy_stream_' here
    // CHECK-NOTES: :[[@LINE-16]]:35: note: 'copy_stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
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
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'Buf' is written on stream member 'comm_stream_' while its write on the caller's current stream may still be pending; nothing makes stream member 'comm_stream_' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-4]]:32: note: the current stream is set to stream member 'comm_stream_' here
    // CHECK-NOTES: :[[@LINE-6]]:5: note: 'Buf' is written on the caller's current stream here
    // CHECK-NOTES: :[[@LINE-25]]:20: note: 'comm_stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }

private:
  cudaStream_t comm_stream_;
};

// An internal global initialised with a pool stream and never assigned
// again: another stream than the caller's current one in every function.
namespace {
c10::cuda::CUDAStream SideStream = at::cuda::getStreamFromPool();
} // namespace

at::Tensor on_global(const at::Tensor &X) {
  at::Tensor Y;
  {
    c10::cuda::CUDAStreamGuard guard(SideStream);
    Y = X * 2;
  }
  return Y + 1;
  // CHECK-NOTES: :[[@LINE-3]]:9: warning: tensor 'X' is read on global stream 'SideStream', but it is only known to be ready on the caller's current stream; nothing makes global stream 'SideStream' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:32: note: the current stream is set to global stream 'SideStream' here
  // CHECK-NOTES: :[[@LINE-9]]:40: note: 'X' is assumed ready on the caller's current stream at function entry
  // CHECK-NOTES: :[[@LINE-13]]:36: note: 'SideStream' is given a fresh stream here and never another stream, so it is not the caller's current stream
  // CHECK-NOTES: :[[@LINE-5]]:10: warning: tensor 'Y' is read on the caller's current stream while its write on global stream 'SideStream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-9]]:9: note: 'Y' is written on global stream 'SideStream' here
  // CHECK-NOTES: :[[@LINE-11]]:32: note: the current stream was set to global stream 'SideStream' here
  // CHECK-NOTES: :[[@LINE-18]]:36: note: 'SideStream' is given a fresh stream here and never another stream, so it is not the caller's current stream
}

// An aggregate of this file whose stream member has an in-class pool
// stream, and no brace initialiser anywhere gives it another: another
// stream than the caller's current one.
struct Prefetcher {
  c10::cuda::CUDAStream side = at::cuda::getStreamFromPool();

  at::Tensor prefetch(const at::Tensor &X) {
    at::Tensor Y;
    {
      c10::cuda::CUDAStreamGuard guard(side);
      Y = X * 2;
      // CHECK-NOTES: :[[@LINE-1]]:11: warning: tensor 'X' is read on stream member 'side', but it is only known to be ready on the caller's current stream; nothing makes stream member 'side' wait for it [streamsafe-unsynchronized-access]
      // CHECK-NOTES: :[[@LINE-3]]:34: note: the current stream is set to stream member 'side' here
      // CHECK-NOTES: :[[@LINE-7]]:41: note: 'X' is assumed ready on the caller's current stream at function entry
      // CHECK-NOTES: :[[@LINE-10]]:32: note: 'side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
    }
    return Y + 1;
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'Y' is read on the caller's current stream while its write on stream member 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    // CHECK-NOTES: :[[@LINE-9]]:11: note: 'Y' is written on stream member 'side' here
    // CHECK-NOTES: :[[@LINE-11]]:34: note: the current stream was set to stream member 'side' here
    // CHECK-NOTES: :[[@LINE-17]]:32: note: 'side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }
};

// The braces give the member a fresh stream too: still followed.
Prefetcher make_prefetcher() {
  return Prefetcher{at::cuda::getStreamFromPool()};
}

// The same aggregate shape, once built by braces from a parameter: its
// member may be the caller's current stream, and nothing is reported.
struct SharedPrefetcher {
  c10::cuda::CUDAStream side = at::cuda::getStreamFromPool();

  at::Tensor prefetch(const at::Tensor &X) {
    at::Tensor Y;
    {
      c10::cuda::CUDAStreamGuard guard(side);
      Y = X * 2;
    }
    return Y + 1;
  }
};

SharedPrefetcher share(c10::cuda::CUDAStream S) { return SharedPrefetcher{S}; }
