// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Events, write-after-read, branches, loops and views.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// An event recorded before the producing work covers nothing.
void event_recorded_too_early(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(s);
    done.record(s);
    Y = X.relu();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'X' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-4]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-10]]:49: note: 'X' is assumed ready on the caller's current stream at function entry
  }
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor Z = Y * 2;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-9]]:9: note: 'Y' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-12]]:31: note: the current stream was set to pool stream 's' here
}

// One event recorded on two streams, waited once: only the last record counts.
void event_rerecorded(const at::Tensor &X) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  at::Tensor A, B;
  {
    at::cuda::CUDAStreamGuard guard(s1);
    A = X.sin();
  }
  {
    at::cuda::CUDAStreamGuard guard(s2);
    B = X.cos();
  }
  at::cuda::CUDAEvent done;
  done.record(s1);
  done.record(s2);
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor C = A + B;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'A' is read on the caller's current stream while its write on pool stream 's1' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-13]]:9: note: 'A' is written on pool stream 's1' here
  // CHECK-NOTES: :[[@LINE-15]]:31: note: the current stream was set to pool stream 's1' here
}

// Two events, both waited: correct.
void two_events_waited(const at::Tensor &X) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  at::Tensor A, B;
  {
    at::cuda::CUDAStreamGuard guard(s1);
    A = X.sin();
  }
  {
    at::cuda::CUDAStreamGuard guard(s2);
    B = X.cos();
  }
  at::cuda::CUDAEvent done1, done2;
  done1.record(s1);
  done2.record(s2);
  done1.block(at::cuda::getCurrentCUDAStream());
  done2.block(at::cuda::getCurrentCUDAStream());
  at::Tensor C = A + B;
}

// Write after read: the current stream overwrites what a side stream reads.
void write_after_read(at::Tensor &buf) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor out;
  {
    at::cuda::CUDAStreamGuard guard(s);
    out = buf.exp();
  }
  buf.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'buf' is written on the caller's current stream while its read on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:11: note: 'buf' is read on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-7]]:31: note: the current stream was set to pool stream 's' here
  out.record_stream(s);
}

// Pool stream writing outputs allocated on the current stream, no waits.
void pool_writes_outputs(const at::Tensor &in) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::mul_out(out, in, in);
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'out' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-6]]:20: note: 'out' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE-4]]:22: warning: tensor 'in' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-6]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-11]]:44: note: 'in' is assumed ready on the caller's current stream at function entry
  }
  at::Tensor total = out.sum();
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-11]]:17: note: 'out' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-13]]:31: note: the current stream was set to pool stream 's' here
}

// Only one branch waits: the other path still races.
void wait_on_one_branch(const at::Tensor &X, bool fast) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  if (fast) {
    at::cuda::CUDAEvent ready;
    ready.record();
    ready.block(s);
  }
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-10]]:18: note: 'Y' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-10]]:7: note: on the path reported, 'fast' is false
  Y.record_stream(s);
}

// Both branches wait: silent.
void wait_on_both_branches(const at::Tensor &X, bool fast) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  at::cuda::CUDAEvent ready;
  if (fast)
    ready.record();
  else
    ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
  Y.record_stream(s);
}

// A loop: the second iteration reads on the current stream what the side
// stream wrote in the first.
void loop_carried(at::Tensor &acc, int n) {
  auto s = at::cuda::getStreamFromPool();
  for (int i = 0; i < n; ++i) {
    at::Tensor t = acc * 2;
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'acc' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE+3]]:5: note: 'acc' is written on pool stream 's' here
    // CHECK-NOTES: :[[@LINE+1]]:31: note: the current stream was set to pool stream 's' here
    at::cuda::CUDAStreamGuard guard(s);
    acc.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'acc' is written on pool stream 's' while its read on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-8]]:20: note: 'acc' is read on the caller's current stream here
  }
}

// Early return before the race: the remaining path still races.
at::Tensor early_return(const at::Tensor &X, bool skip) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X + 1;
  if (skip)
    return Y;
  at::cuda::CUDAStreamGuard guard(s);
  return Y.exp();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'Y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-7]]:18: note: 'Y' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-7]]:7: note: on the path reported, 'skip' is false
}

// A view shares its base's storage.
void view_of_side_result(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(s);
    Y = X.exp();
  }
  at::Tensor first_row = Y.select(0, 0);
  at::Tensor Z = first_row.clone();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'first_row' (a view of 'Y') is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-6]]:9: note: 'Y' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream was set to pool stream 's' here
}

// Host synchronisation of the producing stream orders everything after it.
void stream_synchronized(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(s);
    Y = X.exp();
  }
  s.synchronize();
  at::Tensor Z = Y.clone();
}

// A stream we cannot name (handed back by unknown code, a member given any
// stream) may be the current stream: stay silent. (A parameter entered by a
// guard is a side stream: unsynchronized-access-side-parameters.cpp.)
c10::cuda::CUDAStream stream_of_unknown_code();
void unknown_stream(const at::Tensor &X) {
  c10::cuda::CUDAStream other = stream_of_unknown_code();
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(other);
    Y = X.exp();
  }
  at::Tensor Z = Y.clone();
}

// An event we cannot follow (passed in) may order anything: stay silent.
void foreign_event(const at::Tensor &X, at::cuda::CUDAEvent &done) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(s);
    Y = X.exp();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'X' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-8]]:38: note: 'X' is assumed ready on the caller's current stream at function entry
  }
  done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor Z = Y.clone();
}

// Parameters are ready on the caller's current stream: a side stream must
// wait before reading them.
at::Tensor parameter_read_on_side_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  return X.exp();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'X' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-6]]:60: note: 'X' is assumed ready on the caller's current stream at function entry
}

// The legacy default stream and a pool stream are unordered.
void default_stream_vs_pool(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(at::cuda::getDefaultCUDAStream());
    Y = X.exp();
  }
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.sum();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on pool stream 's' while its write on the default stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-6]]:9: note: 'Y' is written on the default stream here
  // CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream was set to the default stream here
}

// setCurrentCUDAStream switches until changed.
void set_current_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  auto original = at::cuda::getCurrentCUDAStream();
  at::Tensor Y = X * 3;
  at::cuda::setCurrentCUDAStream(s);
  at::Tensor Z = Y.sum();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'Y' is written on the caller's current stream here
  at::cuda::setCurrentCUDAStream(original);
}

// A lambda called in place runs here, on the current stream as it is.
void lambda_called_in_place(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y;
  {
    at::cuda::CUDAStreamGuard guard(s);
    Y = X.exp();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'X' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-8]]:47: note: 'X' is assumed ready on the caller's current stream at function entry
  }
  auto consume = [&] { return Y.sum(); };
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: tensor 'Y' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:9: note: 'Y' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-10]]:31: note: the current stream was set to pool stream 's' here
  at::Tensor Z = consume();
}

void lambda_called_in_place_on_producer_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Y = X.exp();
  at::Tensor Z = [&] { return Y.sum(); }();
}

// A tensor read back from a vector is followed: the element was made on the
// pool stream and is read on the current stream with no join.
void through_a_container(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  std::vector<at::Tensor> parts;
  {
    at::cuda::CUDAStreamGuard guard(s);
    parts.push_back(X.exp());
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: tensor 'X' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-8]]:44: note: 'X' is assumed ready on the caller's current stream at function entry
  }
  at::Tensor Z = parts[0].clone();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'parts[0]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:21: note: 'parts[0]' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-10]]:31: note: the current stream was set to pool stream 's' here
}

// A variable reassigned on one path names either value afterwards.
void reassigned_on_one_path(const at::Tensor &X, bool c) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor Y = X * 2;
  if (c)
    Y = X * 3;
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = Y.exp();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'Y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'Y' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-7]]:7: note: on the path reported, 'c' is true
}

// ... and a loop-carried value (prev = prev.exp()).
void loop_carried_value(at::Tensor prev, int n) {
  auto s = at::cuda::getStreamFromPool();
  for (int i = 0; i < n; ++i)
    prev = prev.exp();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor Z = prev.sum();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'prev' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'prev' is written on the caller's current stream here
}

// Tensor lists: at::cat({a, b}) reads both.
void tensor_list_read(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor A = X * 2, B = X * 3;
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor C = at::cat({A, B});
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: tensor 'A' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'A' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-4]]:30: warning: tensor 'B' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-8]]:29: note: 'B' is written on the caller's current stream here
}

// A guard entered where the current stream is not known (set in a loop that
// may not run) restores an unknown stream: what follows is not reported.
// (The engine used to drop such a guard where loop paths met, and then took
// the guard's own stream to be current after its scope.)
void guard_after_loop_that_sets_the_stream(at::Tensor x, int n) {
  auto s1 = at::cuda::getStreamFromPool();
  for (int i = 0; i < n; ++i)
    at::cuda::setCurrentCUDAStream(s1);
  {
    c10::cuda::CUDAStreamGuard g(s1);
    for (int j = 0; j < n; ++j)
      x.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: tensor 'x' is written on pool stream 's1', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's1' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-4]]:32: note: the current stream is set to pool stream 's1' here
    // CHECK-NOTES: :[[@LINE-10]]:55: note: 'x' is assumed ready on the caller's current stream at function entry
  }
  x.mul_(2);
}

// Right: an event waited on at a loop's head, recorded at its end. On the
// first iteration the event was never recorded and nothing is in flight;
// on the next ones it was recorded after the side stream's write. Where the
// paths meet, the write is in flight only on the path that recorded after
// it, so the wait covers it.
void event_waited_at_loop_head(at::Tensor &buf, int n) {
  auto side = at::cuda::getStreamFromPool();
  auto cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent done, ready;
  for (int i = 0; i < n; ++i) {
    done.block(cur);
    buf.add_(1);
    ready.record(cur);
    ready.block(side);
    {
      at::cuda::CUDAStreamGuard g(side);
      buf.mul_(2);
    }
    done.record(side);
  }
}

// Wrong: the same loop with the record before the side stream's write: the
// next iteration's wait does not cover it.
void event_recorded_before_write_in_loop(at::Tensor &buf, int n) {
  auto side = at::cuda::getStreamFromPool();
  auto cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent done, ready;
  for (int i = 0; i < n; ++i) {
    done.block(cur);
    buf.add_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'buf' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    ready.record(cur);
    ready.block(side);
    done.record(side);
    {
      at::cuda::CUDAStreamGuard g(side);
      // CHECK-NOTES: :[[@LINE+2]]:7: note: 'buf' is written on pool stream 'side' here
      // CHECK-NOTES: :[[@LINE-2]]:33: note: the current stream was set to pool stream 'side' here
      buf.mul_(2);
    }
  }
}

// Wrong: each iteration records before its write, so the record covers only
// the previous iteration's write at the same line; after the loop, the last
// write is not covered by the wait.
void event_recorded_before_each_write(at::Tensor &buf, int n) {
  auto side = at::cuda::getStreamFromPool();
  auto cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent ready, done;
  ready.record(cur);
  ready.block(side);
  done.record(side);
  {
    at::cuda::CUDAStreamGuard g(side);
    for (int i = 0; i < n; ++i) {
      done.record(side);
      buf.mul_(2);
    }
  }
  done.block(cur);
  buf.add_(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'buf' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'buf' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-11]]:31: note: the current stream was set to pool stream 'side' here
}
