// RUN: %check_streamsafe %s streamsafe-unrecorded-event-wait %t

// A wait on the stream that every record of the event is made on orders
// nothing, whether the event was recorded or not: stream order already puts
// the work before the record ahead of the work after the wait. A missing
// record on some path changes nothing, so the wait is not reported (the
// Python twin is test/python/events-same-stream.py).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>

void work();

// Right: a timing loop records `start` on one iteration; the wait after the
// loop is on the same (current) stream as that record.
float timed(int iters, int warmup) {
  at::cuda::CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
  for (int n = 0; n < iters; ++n) {
    if (n == warmup)
      start.record();
    work();
  }
  end.record();
  start.block(at::cuda::getCurrentCUDAStream());
  end.synchronize();
  return start.elapsed_time(end);
}

// Right: recorded on a side stream on some paths, waited on by that stream.
void side_stream_waits_on_itself(bool flag) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent e;
  if (flag)
    e.record(s);
  e.block(s);
}

// Right: the wait comes before the only record, on the same stream.
void wait_before_record_same_stream() {
  auto cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent e;
  e.block(cur);
  work();
  e.record(cur);
}

// Wrong: recorded on the current stream on some paths, waited on by a side
// stream: on the paths with the record the wait orders the side stream.
void other_stream_waits(bool flag) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent e;
  if (flag)
    e.record();
  e.block(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-5]]:23: note: 'e' is declared here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'e' is recorded here on some paths only
}

// Wrong: one record is on the waiting stream, another on a side stream.
void records_on_two_streams(bool flag, bool other) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent e;
  if (flag)
    e.record();
  else if (other)
    e.record(s);
  e.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-7]]:23: note: 'e' is declared here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'e' is recorded here on some paths only
}

// Wrong: never recorded anywhere: there is no stream the wait could be on
// the same as.
void never_recorded() {
  at::cuda::CUDAEvent e;
  e.block(at::cuda::getCurrentCUDAStream());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'e', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'e' is declared here
}

// Not followed: a record on a stream the model cannot name may be on any
// stream: the wait is reported.
void record_on_unknown_stream(bool flag, cudaStream_t raw) {
  cudaEvent_t e;
  cudaEventCreate(&e);
  if (flag)
    cudaEventRecord(e, raw);
  cudaStreamWaitEvent(at::cuda::getCurrentCUDAStream().stream(), e, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
  // CHECK-NOTES: :[[@LINE-6]]:15: note: 'e' is declared here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'e' is recorded here on some paths only
}
