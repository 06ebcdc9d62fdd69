// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// c10d's C++ API (docs/api-model.md, "Collectives"): a ProcessGroup call
// runs on the group's NCCL stream, after that stream waits for the current
// stream at the call, and returns its work; `work->wait()` makes the stream
// current at the wait wait for it. Until then the collective's outputs are
// written, and its inputs read, on the group's stream. A handle handed on
// (a list of pending works, a helper) is taken as waited there.

#define USE_C10D_NCCL
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <vector>

// Wrong: the reduced gradient is read before the work is waited.
at::Tensor readBeforeWait(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                          at::Tensor grad) {
  grad.mul_(0.5);
  std::vector<at::Tensor> tensors{grad};
  auto work = pg->allreduce(tensors);
  at::Tensor total = grad.sum();
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: 'grad' is written on the NCCL stream of process group 'pg' here
  work->wait();
  return total;
}

// Right: the wait comes first (and the collective waited for the scale).
at::Tensor readAfterWait(c10::intrusive_ptr<c10d::ProcessGroup> pg,
                         at::Tensor grad) {
  grad.mul_(0.5);
  std::vector<at::Tensor> tensors{grad};
  auto work = pg->allreduce(tensors);
  work->wait();
  return grad.sum();
}

// ProcessGroupNCCL's own methods are the same rows (they override
// ProcessGroup's); a handle assigned to a local is followed too.
at::Tensor ncclGroupAssigned(c10d::ProcessGroupNCCL &pg, at::Tensor grad) {
  std::vector<at::Tensor> tensors{grad};
  c10::intrusive_ptr<c10d::Work> work;
  work = pg.allreduce(tensors);
  at::Tensor total = grad.sum();
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'grad' is written on the NCCL stream of process group 'pg' here
  work->wait();
  return total;
}

// Wrong (ZeRO bucket): the bucket is refilled while the reduce (in place)
// may still be using it.
void refillBeforeReduceRead(c10d::ProcessGroup &pg, at::Tensor bucket,
                            const at::Tensor &next) {
  std::vector<at::Tensor> ts{bucket};
  c10::intrusive_ptr<c10d::Work> w = pg.reduce(ts);
  bucket.copy_(next);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'bucket' is written on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:48: note: 'bucket' is written on the NCCL stream of process group 'pg' here
  w->wait();
}

// Right: refilled after the wait.
void refillAfterWait(c10d::ProcessGroup &pg, at::Tensor bucket,
                     const at::Tensor &next) {
  std::vector<at::Tensor> ts{bucket};
  c10::intrusive_ptr<c10d::Work> w = pg.reduce(ts);
  w->wait();
  bucket.copy_(next);
}

// Wrong (pipeline send): the activation is overwritten before the send
// read it.
void overwriteBeforeSend(c10d::ProcessGroup &pg, at::Tensor act) {
  std::vector<at::Tensor> ts{act};
  auto w = pg.send(ts, 1, 0);
  act.zero_();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'act' is written on the caller's current stream while its read on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: 'act' is read on the NCCL stream of process group 'pg' here
  w->wait();
}

// Wrong (pipeline recv): the received activation is used before the wait.
at::Tensor useBeforeRecvWait(c10d::ProcessGroup &pg, at::Tensor act) {
  std::vector<at::Tensor> ts{act};
  auto w = pg.recv(ts, 0, 0);
  at::Tensor y = act.relu();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'act' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: 'act' is written on the NCCL stream of process group 'pg' here
  w->wait();
  return y;
}

// Wrong: the handle is dropped; nothing ever waits for the collective.
at::Tensor dropped(c10d::ProcessGroup &pg, at::Tensor grad) {
  std::vector<at::Tensor> ts{grad};
  pg.allreduce(ts);
  return grad * 2;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'grad' is written on the NCCL stream of process group 'pg' here
}

// Wrong: waited under another stream than the consumer's.
at::Tensor waitOnOtherStream(c10d::ProcessGroup &pg, at::Tensor grad) {
  std::vector<at::Tensor> ts{grad};
  auto work = pg.allreduce(ts);
  {
    c10::cuda::CUDAStreamGuard g(at::cuda::getStreamFromPool());
    work->wait();
  }
  return grad * 2;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-8]]:28: note: 'grad' is written on the NCCL stream of process group 'pg' here
}

// Wrong (MoE all-to-all): the dispatched tokens are read before the wait.
at::Tensor dispatchBeforeWait(c10d::ProcessGroup &pg, at::Tensor out,
                              at::Tensor in, std::vector<int64_t> &splits) {
  auto w = pg.alltoall_base(out, in, splits, splits);
  at::Tensor experts = out.mul(2);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'out' is read on the caller's current stream while its write on the NCCL stream of process group 'pg' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: 'out' is written on the NCCL stream of process group 'pg' here
  w->wait();
  return experts;
}

// Right: the same, waited.
at::Tensor dispatchAfterWait(c10d::ProcessGroup &pg, at::Tensor out,
                             at::Tensor in, std::vector<int64_t> &splits) {
  auto w = pg.alltoall_base(out, in, splits, splits);
  w->wait();
  return out.mul(2);
}

// Silent: handles kept in a list of pending works are waited elsewhere.
void handedOn(c10d::ProcessGroup &pg, at::Tensor grad,
              std::vector<c10::intrusive_ptr<c10d::Work>> &pending) {
  std::vector<at::Tensor> ts{grad};
  pending.push_back(pg.allreduce(ts));
  grad.sum();
}

// Silent: a followed handle handed to a helper is taken as waited there.
void finish(c10::intrusive_ptr<c10d::Work> w);
at::Tensor waitedByHelper(c10d::ProcessGroup &pg, at::Tensor grad) {
  std::vector<at::Tensor> ts{grad};
  auto w = pg.allreduce(ts);
  finish(w);
  return grad * 2;
}

// Silent: the DDP-hook shape, every bucket's work waited in a loop.
void allBuckets(c10d::ProcessGroup &pg, std::vector<at::Tensor> &buckets) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (at::Tensor &b : buckets) {
    std::vector<at::Tensor> ts{b};
    works.push_back(pg.allreduce(ts));
  }
  for (auto &w : works)
    w->wait();
  for (at::Tensor &b : buckets)
    b.div_(2);
}

// Silent: options that may make the call synchronous (asyncOp, PyTorch
// 2.8+) leave its stream unknown.
struct SyncAllreduce : c10d::AllreduceOptions {
  bool asyncOp = true;
};
at::Tensor maybeSynchronous(c10d::ProcessGroup &pg, at::Tensor grad) {
  SyncAllreduce opts;
  opts.asyncOp = false;
  std::vector<at::Tensor> ts{grad};
  auto w = pg.allreduce(ts, opts);
  at::Tensor r = grad.sum();
  w->wait();
  return r;
}
