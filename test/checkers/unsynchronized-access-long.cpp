// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Shapes whose cost the engine keeps down (docs/performance.md): a tensor
// read many times with no synchronisation (its pending reads are folded),
// events recorded on paths that meet (their snapshots are intersected).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Twelve reads of X on the current stream; the event is recorded before the
// last one, so the side stream's write races with that read only.
void many_reads_one_after_the_record(at::Tensor X) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  at::Tensor a0 = X.sin(), a1 = X.cos(), a2 = X.exp(), a3 = X.abs();
  at::Tensor a4 = X.neg(), a5 = X.relu(), a6 = X.sigmoid(), a7 = X.tanh();
  at::Tensor a8 = X.sqrt(), a9 = X.log(), a10 = X.floor();
  ev.record(at::cuda::getCurrentCUDAStream());
  at::Tensor late = X.ceil();
  ev.block(side);
  c10::cuda::CUDAStreamGuard guard(side);
  X.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'X' is written on pool stream 'side' while its read on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 'X' is read on the caller's current stream here
}

// The same reads, all before the record: the write is ordered after them.
void many_reads_all_before_the_record(at::Tensor X) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  at::Tensor a0 = X.sin(), a1 = X.cos(), a2 = X.exp(), a3 = X.abs();
  at::Tensor a4 = X.neg(), a5 = X.relu(), a6 = X.sigmoid(), a7 = X.tanh();
  at::Tensor a8 = X.sqrt(), a9 = X.log(), a10 = X.floor();
  at::Tensor late = X.ceil();
  ev.record(at::cuda::getCurrentCUDAStream());
  ev.block(side);
  c10::cuda::CUDAStreamGuard guard(side);
  X.zero_();
  side.synchronize();
}

// Reads after guards that set the stream elsewhere and back: folded all the
// same, and the read after the record is still the one that races.
void many_reads_between_guards(at::Tensor X) {
  auto side = at::cuda::getStreamFromPool();
  auto other = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  for (int i = 0; i < 3; ++i) {
    at::Tensor a = X.sin();
    { c10::cuda::CUDAStreamGuard g(other); at::Tensor b = at::ones({4}, at::kCUDA); }
    at::Tensor c = X.exp();
    { c10::cuda::CUDAStreamGuard g(other); at::Tensor d = at::ones({4}, at::kCUDA); }
    at::Tensor e = X.neg();
  }
  at::Tensor f = X.relu(), g = X.sigmoid(), h = X.tanh(), k = X.sqrt();
  ev.record(at::cuda::getCurrentCUDAStream());
  { c10::cuda::CUDAStreamGuard g2(other); at::Tensor m = at::ones({4}, at::kCUDA); }
  at::Tensor late = X.ceil();
  ev.block(side);
  c10::cuda::CUDAStreamGuard guard(side);
  X.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'X' is written on pool stream 'side' while its read on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 'X' is read on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-8]]:84: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope
}

// Records on both branches cover what was written before the branch; what
// one branch writes after its record is not covered.
void records_on_both_branches(const at::Tensor &X, bool fast) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  at::Tensor A = X.mul(2);
  at::Tensor B = X.add(1);
  if (fast) {
    ev.record(at::cuda::getCurrentCUDAStream());
    B.mul_(3);
  } else {
    A.add_(1);
    ev.record(at::cuda::getCurrentCUDAStream());
  }
  ev.block(side);
  c10::cuda::CUDAStreamGuard guard(side);
  at::Tensor fromA = A.sum();
  at::Tensor fromB = B.sum();
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: tensor 'B' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-11]]:5: note: 'B' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-14]]:7: note: on the path reported, 'fast' is true
}

// A long run of the same step, each recording after its work: all ordered.
void long_pipeline(const at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  at::Tensor acc = X.clone();
  for (int round = 0; round < 2; ++round) {
    at::Tensor t0 = acc.mul(2);
    ev.record(at::cuda::getCurrentCUDAStream());
    ev.block(side);
    {
      c10::cuda::CUDAStreamGuard guard(side);
      t0.add_(1);
      t0.record_stream(side);
      ev.record(side);
    }
    ev.block(at::cuda::getCurrentCUDAStream());
    acc.add_(t0);
  }
}
