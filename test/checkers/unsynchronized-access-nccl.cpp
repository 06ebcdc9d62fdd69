// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Raw NCCL calls (nccl.h): each reads its send buffer and writes its receive
// buffer on its stream argument when the stream gets to it. A buffer written
// on the current stream and handed to a collective on a communication stream
// that does not wait for it is read before it is ready; a receive buffer is
// not ready on the current stream until it waits for the communication
// stream. Inside ncclGroupStart/ncclGroupEnd the calls reach the stream only
// at ncclGroupEnd: a record after it covers them.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <nccl.h>

// Wrong: the gradient is scaled on the current stream, then all-reduced on
// the communication stream with no wait.
void allReduceNoWait(at::Tensor grad, ncclComm_t comm) {
  at::cuda::CUDAStream commStream = at::cuda::getStreamFromPool();
  grad.mul_(0.5);
  ncclAllReduce(grad.data_ptr(), grad.data_ptr(), grad.numel(), ncclFloat,
                ncclSum, comm, commStream);
  // CHECK-NOTES: :[[@LINE-2]]:17: warning: tensor 'grad' is read on pool stream 'commStream' while its write on the caller's current stream may still be pending; nothing makes pool stream 'commStream' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'grad' is written on the caller's current stream here
}

// Right: the communication stream waits for the scale first.
void allReduceAfterWait(at::Tensor grad, ncclComm_t comm) {
  at::cuda::CUDAStream commStream = at::cuda::getStreamFromPool();
  grad.mul_(0.5);
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(commStream);
  ncclAllReduce(grad.data_ptr(), grad.data_ptr(), grad.numel(), ncclFloat,
                ncclSum, comm, commStream);
  at::cuda::CUDAEvent done;
  done.record(commStream);
  done.block(at::cuda::getCurrentCUDAStream());
  grad.div_(2);
}

// Wrong: the received values are read on the current stream while the
// receive may still be running on the communication stream.
at::Tensor readBeforeReceiveDone(ncclComm_t comm, int peer) {
  at::cuda::CUDAStream commStream = at::cuda::getStreamFromPool();
  at::Tensor buf = at::empty({1024}, at::TensorOptions().device(at::kCUDA));
  at::cuda::CUDAEvent allocated;
  allocated.record(at::cuda::getCurrentCUDAStream());
  allocated.block(commStream);
  ncclGroupStart();
  ncclRecv(buf.data_ptr(), 1024, ncclFloat, peer, comm, commStream);
  ncclGroupEnd();
  return buf.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'buf' is read on the caller's current stream while its write on pool stream 'commStream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'buf' is written on pool stream 'commStream' here
}

// Right: the current stream waits for an event recorded after the group.
at::Tensor readAfterReceiveDone(ncclComm_t comm, int peer) {
  at::cuda::CUDAStream commStream = at::cuda::getStreamFromPool();
  at::Tensor buf = at::empty({1024}, at::TensorOptions().device(at::kCUDA));
  at::cuda::CUDAEvent allocated;
  allocated.record(at::cuda::getCurrentCUDAStream());
  allocated.block(commStream);
  ncclGroupStart();
  ncclRecv(buf.data_ptr(), 1024, ncclFloat, peer, comm, commStream);
  ncclGroupEnd();
  at::cuda::CUDAEvent done;
  done.record(commStream);
  done.block(at::cuda::getCurrentCUDAStream());
  return buf.sum();
}

// A send on the current stream itself is ordered with everything on it.
void sendOnCurrent(at::Tensor t, ncclComm_t comm, int peer) {
  t.add_(1);
  ncclSend(t.data_ptr(), t.numel(), ncclFloat, peer, comm,
           at::cuda::getCurrentCUDAStream());
  t.zero_();
}
