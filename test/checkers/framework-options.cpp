// RUN: %check_streamsafe %s 'streamsafe-*' %t -- -config="{CheckOptions: { \
// RUN:   EventClasses: 'dtorch::CudaEvent', \
// RUN:   EventRecordMethods: 'Record', EventWaitMethods: 'StreamWaitEvent', \
// RUN:   EventSyncMethods: 'Synchronize', \
// RUN:   StreamGuardClasses: 'dtorch::TorchCudaStreamGuarantee', \
// RUN:   ExecutorLaunchFunctions: 'dtorch::CudaKernelStream::LaunchKernel', \
// RUN:   StreamBindingInitializers: 'dtorch::CudaKernelStream::InitInAsyncThread'}}"

// A small framework like the one in docs/configuration.md, written from
// scratch: a kernel stream owns a worker thread that binds a pool stream
// once (InitInAsyncThread) and runs queued kernels under a guard that keeps
// the stream; an event wrapper records and waits with the CUDA runtime.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
#include <condition_variable>
#include <cuda_runtime_api.h>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <mutex>
#include <thread>

namespace dtorch {

class CudaEvent {
public:
  void Create() { cudaEventCreateWithFlags(&Event, cudaEventDisableTiming); }
  void Record(at::cuda::CUDAStream S) { cudaEventRecord(Event, S.stream()); }
  void StreamWaitEvent(at::cuda::CUDAStream S) {
    cudaStreamWaitEvent(S.stream(), Event, 0);
  }
  void Synchronize() { cudaEventSynchronize(Event); }

private:
  cudaEvent_t Event = nullptr;
};

// Makes sure the stream is not switched while a kernel runs.
class TorchCudaStreamGuarantee {
public:
  explicit TorchCudaStreamGuarantee(at::cuda::CUDAStream S)
      : Saved(at::cuda::getCurrentCUDAStream()) {
    at::cuda::setCurrentCUDAStream(S);
  }
  ~TorchCudaStreamGuarantee() { at::cuda::setCurrentCUDAStream(Saved); }

private:
  at::cuda::CUDAStream Saved;
};

class CudaKernelStream {
public:
  CudaKernelStream() : Stream(at::cuda::getStreamFromPool()) {
    Worker = std::thread([this] {
      InitInAsyncThread();
      Loop();
    });
  }
  ~CudaKernelStream() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Stopping = true;
    }
    Ready.notify_one();
    Worker.join();
  }
  void LaunchKernel(std::function<void()> Kernel) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Queue.push_back(std::move(Kernel));
    }
    Ready.notify_one();
  }

private:
  void InitInAsyncThread() { at::cuda::setCurrentCUDAStream(Stream); }
  void Loop() {
    for (;;) {
      std::function<void()> Kernel;
      {
        std::unique_lock<std::mutex> Lock(Mutex);
        Ready.wait(Lock, [this] { return Stopping || !Queue.empty(); });
        if (Queue.empty())
          return;
        Kernel = std::move(Queue.front());
        Queue.pop_front();
      }
      TorchCudaStreamGuarantee Guarantee(Stream);
      Kernel();
    }
  }

  at::cuda::CUDAStream Stream;
  std::thread Worker;
  std::mutex Mutex;
  std::condition_variable Ready;
  std::deque<std::function<void()>> Queue;
  bool Stopping = false;
};

} // namespace dtorch

// A kernel on one kernel stream consumes what another produced, no wait.
void pipeline_without_wait(dtorch::CudaKernelStream &Producer,
                           dtorch::CudaKernelStream &Consumer) {
  at::Tensor B, C;
  Producer.LaunchKernel([&] {
    at::Tensor A = at::randn({64, 64}, at::kCUDA);
    B = A.mm(A);
  });
  Consumer.LaunchKernel([&] { C = B.relu(); });
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: tensor 'B' is read on the stream of executor 'Consumer' while its write on the stream of executor 'Producer' may still be pending; nothing makes the stream of executor 'Consumer' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Consumer'
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'B' is written on the stream of executor 'Producer' here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Producer'
}

// The same with the wrapper's Record + StreamWaitEvent: silent.
void pipeline_with_event(dtorch::CudaKernelStream &Producer,
                         dtorch::CudaKernelStream &Consumer) {
  at::Tensor B, C;
  dtorch::CudaEvent Produced;
  Produced.Create();
  Producer.LaunchKernel([&] {
    at::Tensor A = at::randn({64, 64}, at::kCUDA);
    B = A.mm(A);
    Produced.Record(at::cuda::getCurrentCUDAStream());
  });
  Consumer.LaunchKernel([&] {
    Produced.StreamWaitEvent(at::cuda::getCurrentCUDAStream());
    C = B.relu();
  });
}

// A wait on the wrapper before anything recorded it.
void wait_before_record(dtorch::CudaKernelStream &Consumer) {
  dtorch::CudaEvent Produced;
  Produced.Create();
  Consumer.LaunchKernel(
      [&] { Produced.StreamWaitEvent(at::cuda::getCurrentCUDAStream()); });
      // CHECK-NOTES: :[[@LINE-1]]:13: warning: wait on event 'Produced', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
      // CHECK-NOTES: :[[@LINE-5]]:21: note: 'Produced' is declared here
}

// Kernels on one kernel stream run in order: silent.
void same_kernel_stream(dtorch::CudaKernelStream &Only) {
  at::Tensor B, C;
  Only.LaunchKernel([&] {
    at::Tensor A = at::randn({64, 64}, at::kCUDA);
    B = A.mm(A);
  });
  Only.LaunchKernel([&] { C = B.relu(); });
}

// The framework's guard sets a stream for a scope.
void guarded_side_work(const at::Tensor &X) {
  auto S = at::cuda::getStreamFromPool();
  at::Tensor Y;
  {
    dtorch::TorchCudaStreamGuarantee Guarantee(S);
    Y = X.exp();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'X' is read on pool stream 'S', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'S' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:38: note: the current stream is set to pool stream 'S' here
    // CHECK-NOTES: :[[@LINE-8]]:42: note: 'X' is assumed ready on the caller's current stream at function entry
  }
  at::Tensor Z = Y.clone();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on the caller's current stream while its write on pool stream 'S' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:9: note: 'Y' is written on pool stream 'S' here
  // CHECK-NOTES: :[[@LINE-10]]:38: note: the current stream was set to pool stream 'S' here
}

// Inputs the framework hands to its kernel streams (its own events, queue
// order) are not reported.
void task_on_parameter(dtorch::CudaKernelStream &Ks, at::Tensor &Out) {
  Ks.LaunchKernel([&] { Out.add_(1); });
}

// The DTorch shape: kernels capture their tensors through a shared_ptr and
// write `*p` on one kernel stream, read it on another with no wait.
void shared_pointer_pipeline(dtorch::CudaKernelStream &Producer,
                             dtorch::CudaKernelStream &Consumer) {
  auto Buf = std::make_shared<at::Tensor>();
  auto Out = std::make_shared<at::Tensor>();
  Producer.LaunchKernel([Buf] { *Buf = at::randn({64, 64}, at::kCUDA); });
  Consumer.LaunchKernel([Buf, Out] { *Out = Buf->relu(); });
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: tensor 'Buf' is read on the stream of executor 'Consumer' while its write on the stream of executor 'Producer' may still be pending; nothing makes the stream of executor 'Consumer' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Consumer'
  // CHECK-NOTES: :[[@LINE-4]]:40: note: 'Buf' is written on the stream of executor 'Producer' here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Producer'
}

// The fixed twin: the consumer waits on the producer's event.
void shared_pointer_pipeline_with_event(dtorch::CudaKernelStream &Producer,
                                        dtorch::CudaKernelStream &Consumer) {
  auto Buf = std::make_shared<at::Tensor>();
  auto Out = std::make_shared<at::Tensor>();
  auto Produced = std::make_shared<dtorch::CudaEvent>();
  Produced->Create();
  Producer.LaunchKernel([Buf, Produced] {
    *Buf = at::randn({64, 64}, at::kCUDA);
    Produced->Record(at::cuda::getCurrentCUDAStream());
  });
  Consumer.LaunchKernel([Buf, Out, Produced] {
    Produced->StreamWaitEvent(at::cuda::getCurrentCUDAStream());
    *Out = Buf->relu();
  });
}

// Through an optional and a raw pointer: the same race.
void optional_and_pointer(dtorch::CudaKernelStream &Producer,
                          dtorch::CudaKernelStream &Consumer) {
  std::optional<at::Tensor> Maybe;
  at::Tensor Held;
  at::Tensor *Ptr = &Held;
  Producer.LaunchKernel([&] {
    Maybe = at::ones({8}, at::kCUDA);
    *Ptr = at::zeros({8}, at::kCUDA);
  });
  Consumer.LaunchKernel([&] { at::Tensor S = Maybe.value() + *Ptr; });
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: tensor 'Maybe' is read on the stream of executor 'Consumer' while its write on the stream of executor 'Producer' may still be pending; nothing makes the stream of executor 'Consumer' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Consumer'
  // CHECK-NOTES: :[[@LINE-6]]:13: note: 'Maybe' is written on the stream of executor 'Producer' here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Producer'
  // CHECK-NOTES: :[[@LINE-5]]:62: warning: tensor 'Ptr' is read on the stream of executor 'Consumer' while its write on the stream of executor 'Producer' may still be pending; nothing makes the stream of executor 'Consumer' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Consumer'
  // CHECK-NOTES: :[[@LINE-9]]:12: note: 'Ptr' is written on the stream of executor 'Producer' here
  // CHECK-NOTES: :[[@LINE-12]]:3: note: the current stream is thread-local: the thread started here runs on the stream of executor 'Producer'
}

