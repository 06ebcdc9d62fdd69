# RUN: %check_streamsafe_py %s

# Where paths meet with a host tensor on one and a device tensor on the
# other (the C++ twin is test/checkers/host-read-before-sync-joins.cpp):
# the joined tensor is host memory, and what may still be in flight on it
# is only what the host path left there. A pending copy comes only from a
# real non_blocking copy into host memory; the device path's work never
# races with host code.
import torch


# Right: a device tensor moved to the host on one path; nothing is copied
# with non_blocking=True anywhere.
def to_host_if_cuda(m: torch.Tensor):
    if m.is_cuda:
        m = m.cpu()
    return m.numpy()


# Right: rows appended to a CPU tensor in a loop; the loop head joins the
# empty CPU tensor with torch.cat's result.
def cat_rows(q: torch.Tensor, n):
    w = torch.empty((0, 4))
    for i in range(n):
        w = torch.cat((w, q[i:i + 1]))
    return w.tolist()


# Right: a CPU tensor on one path, an op's result on the other.
def zeros_or_op(q: torch.Tensor, flag):
    if flag:
        h = torch.zeros(3)
    else:
        h = q * 2
    return h.item()


# Wrong: one path copies to the host with non_blocking=True; on that path
# the copy may still be running when the host reads.
def async_copy_on_one_path(d: torch.Tensor, flag):
    if flag:
        h = d.to('cpu', non_blocking=True)
    else:
        h = d * 2
    return h.numpy()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-5]]:13: note: the non_blocking copy is enqueued on the caller's current stream here
    # CHECK-NOTES: :[[@LINE-7]]:8: note: on the path reported, 'flag' is true


# Wrong: the same on the host path of a loop: the pinned copy made in an
# earlier iteration may still be running when the host reads it.
def async_copy_in_loop(d: torch.Tensor, n):
    h = d * 2
    for i in range(n):
        h.numpy()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
        # CHECK-NOTES: :[[@LINE+1]]:13: note: the non_blocking copy is enqueued on the caller's current stream here
        h = d.to('cpu', non_blocking=True)


# Right: the same loop, synchronised before each read.
def async_copy_in_loop_synchronized(d: torch.Tensor, n):
    h = d * 2
    for i in range(n):
        torch.cuda.current_stream().synchronize()
        h.numpy()
        h = d.to('cpu', non_blocking=True)
