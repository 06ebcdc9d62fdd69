// RUN: %check_streamsafe %s 'streamsafe-unrecorded-event-wait,streamsafe-unsynchronized-access' %t

// Event wrappers written by hand are recognised from their code, with no
// option: each object is an event of its own, and its methods record, wait
// or synchronize it on the stream they are given.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

namespace mylib {

// Over the runtime API.
class Event {
public:
  Event() { cudaEventCreateWithFlags(&Ev, cudaEventDisableTiming); }
  ~Event() { cudaEventDestroy(Ev); }
  void Record(cudaStream_t S) { cudaEventRecord(Ev, S); }
  void WaitOn(cudaStream_t S) { cudaStreamWaitEvent(S, Ev, 0); }
  void Sync() { cudaEventSynchronize(Ev); }

private:
  cudaEvent_t Ev;
};

// Over ATen's event, recording on the current stream when given none.
class Marker {
public:
  void mark() { Done.record(); }
  void markOn(c10::cuda::CUDAStream S) { Done.record(S); }
  void holdBack(c10::cuda::CUDAStream S) { Done.block(S); }

private:
  at::cuda::CUDAEvent Done;
};

// Records and waits in one method: no single effect, so not an event; its
// methods run in place like any helper.
class Handoff {
public:
  void pass(cudaStream_t From, cudaStream_t To) {
    cudaEventRecord(Ev, From);
    cudaStreamWaitEvent(To, Ev, 0);
  }

private:
  cudaEvent_t Ev;
};

} // namespace mylib

// Two wrapper objects are two events: recording one does not record the
// other.
void waits_on_the_other_object(bool Ready) {
  auto Side = at::cuda::getStreamFromPool();
  mylib::Event Copied, Computed;
  Copied.Record(Side.stream());
  if (Ready)
    Computed.Record(Side.stream());
  Computed.WaitOn(at::cuda::getCurrentCUDAStream().stream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'Computed', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-6]]:24: note: 'Computed' is declared here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'Computed' is recorded here on some paths only
}

void waits_on_a_recorded_object() {
  auto Side = at::cuda::getStreamFromPool();
  mylib::Event Computed;
  Computed.Record(Side.stream());
  Computed.WaitOn(at::cuda::getCurrentCUDAStream().stream());
}

// The side stream's result is read with no wait.
at::Tensor result_without_wait(const at::Tensor &In) {
  auto Side = at::cuda::getStreamFromPool();
  mylib::Marker Ready;
  Ready.mark();
  Ready.holdBack(Side);
  at::Tensor Out;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    Out = In * 2;
  }
  mylib::Marker Done;
  Done.markOn(Side);
  return Out + 1;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'Out' is read on the caller's current stream while its write on pool stream 'Side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-7]]:11: note: 'Out' is written on pool stream 'Side' here
  // CHECK-NOTES: :[[@LINE-9]]:31: note: the current stream was set to pool stream 'Side' here
}

// The fixed twin: the caller's stream waits on the wrapper.
at::Tensor result_with_wait(const at::Tensor &In) {
  auto Side = at::cuda::getStreamFromPool();
  mylib::Marker Ready;
  Ready.mark();
  Ready.holdBack(Side);
  at::Tensor Out;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    Out = In * 2;
  }
  mylib::Marker Done;
  Done.markOn(Side);
  Done.holdBack(at::cuda::getCurrentCUDAStream());
  at::Tensor Result = Out + 1;
  Out.record_stream(at::cuda::getCurrentCUDAStream());
  return Result;
}

// Not a wrapper: run in place, the record and the wait order the streams.
at::Tensor handed_off(const at::Tensor &In) {
  auto Side = at::cuda::getStreamFromPool();
  mylib::Handoff H;
  H.pass(at::cuda::getCurrentCUDAStream().stream(), Side.stream());
  at::Tensor Out;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    Out = In * 2;
  }
  H.pass(Side.stream(), at::cuda::getCurrentCUDAStream().stream());
  at::Tensor Result = Out + 1;
  Out.record_stream(at::cuda::getCurrentCUDAStream());
  return Result;
}
