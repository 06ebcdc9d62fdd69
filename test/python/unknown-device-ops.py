# RUN: %check_streamsafe_py %s

# Code the analysis does not see reads the host memory it is handed now, on
# the host (flashinfer's plan() of indptr copied to the CPU with
# non_blocking=True). Program code named as a CUDA op (`set_cuda`, as
# PyTorch names its kernels and extensions) enqueues its work on the current
# stream instead: it reads pinned memory in stream order, after the copy
# before it on that stream (FBGEMM's SSD store, called directly or handed to
# a profiling wrapper with its arguments).
import torch


def to_pinned_cpu(t: torch.Tensor) -> torch.Tensor:
    t_cpu = torch.empty(t.shape, pin_memory=True, dtype=t.dtype)
    t_cpu.copy_(t, non_blocking=True)
    return t_cpu


def plan(module, indptr: torch.Tensor):
    indptr_host = indptr.to("cpu", non_blocking=True)
    return module.plan(indptr_host)
    # CHECK-NOTES: :[[@LINE-1]]:24: warning: the host reads tensor 'indptr_host' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:19: note: the non_blocking copy is enqueued on the caller's current stream here


def evict(db, rows: torch.Tensor, stream: torch.cuda.Stream):
    with torch.cuda.stream(stream):
        rows_cpu = to_pinned_cpu(rows)
        db.set_cuda(rows_cpu)


def evict_profiled(self, rows: torch.Tensor):
    rows_cpu = to_pinned_cpu(rows)
    self.profile("## ssd_set ##", self.ssd_db.set_cuda, rows_cpu)


# In stream order, but on another stream than the copy, with no wait.
def evict_other_stream(db, rows: torch.Tensor, stream: torch.cuda.Stream):
    with torch.cuda.stream(stream):
        rows_cpu = to_pinned_cpu(rows)
    db.set_cuda(rows_cpu)
    # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'rows_cpu' (a view of 't_cpu') is read on the caller's current stream while its write on stream parameter 'stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:39: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-29]]:5: note: 't_cpu' is written on stream parameter 'stream' here
    # CHECK-NOTES: :[[@LINE-5]]:20: note: in 'to_pinned_cpu', called here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to stream parameter 'stream' here
    # CHECK-NOTES: :[[@LINE-8]]:10: note: 'stream' is used as a side stream here, so it is taken to differ from the caller's current stream
