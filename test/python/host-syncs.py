# RUN: %check_streamsafe_py %s

# Host waits that are not stream or event synchronize calls (each blocks
# the host until the current stream drains; measured on the H200): a
# blocking copy between host and device, of a tensor followed or not, and
# a tensor's truth (`if t:`, `assert t`, `bool(t)`), which is read on the
# host as t.item() is. A wait of a receiver the analysis does not follow
# (`stats.cpu()`) may not happen (it may be a host tensor): it ends what a
# wait would end, and is never reported as a wait itself.
import torch


# Wrong, the baseline: nothing waits for the copy before the host reads.
def pinned_read_unsynchronized(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    return h.tolist()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: a blocking .cpu() of a value not followed (an argument without an
# annotation) waits for the current stream.
def blocking_copy_of_unknown(d: torch.Tensor, stats):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    counts = stats.cpu()
    return h.tolist(), counts


# Right: .item() and .to("cpu") of values not followed, likewise.
def item_and_to_of_unknown(d: torch.Tensor, loss, mask):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    total = loss.item()
    m = mask.to("cpu")
    return h.tolist(), total, m


# Wrong: a non_blocking copy of a value not followed does not wait.
def non_blocking_copy_of_unknown(d: torch.Tensor, stats):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    counts = stats.to("cpu", non_blocking=True)
    return h.tolist(), counts
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Wrong: to(dtype) of a value not followed copies nothing between host and
# device.
def dtype_conversion_of_unknown(d: torch.Tensor, stats):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    counts = stats.to(torch.float16)
    return h.tolist(), counts
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: a blocking copy from the host to the device waits for the current
# stream too (a followed host tensor).
def blocking_upload(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    idx = torch.arange(4).cuda()
    return h.tolist(), idx


# Right: `if t:` of a device tensor reads it on the host, after the
# current stream drains.
def truth_of_a_device_tensor(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    if (d > 0).any():
        return h.tolist()
    return None


# Right: assert and bool() likewise.
def assert_and_bool(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    assert torch.isfinite(d).all()
    ok = bool(d.sum())
    return h.tolist(), ok


# Right: a wait that may not happen is not reported inside a graph
# capture (the receiver may be a host tensor).
def unknown_copy_while_capturing(g: torch.cuda.CUDAGraph, x: torch.Tensor,
                                 stats):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.graph(g, stream=s):
        y = x * 2
        n = stats.cpu()
    torch.cuda.current_stream().wait_stream(s)
    return y, n


# torch.tensor of data written out in the call copies host data to the
# device as a blocking to() does: it waits for the current stream.
def tensor_from_a_list_syncs(x: torch.Tensor):
    h = torch.empty(4, pin_memory=True)
    h.copy_(x, non_blocking=True)
    idx = torch.tensor([0, 1], device="cuda")
    return h.sum()


# Of a name, the data may be a CUDA tensor (a copy on the device): no wait.
def tensor_from_a_name(x: torch.Tensor, data):
    h = torch.empty(4, pin_memory=True)
    h.copy_(x, non_blocking=True)
    idx = torch.tensor(data, device="cuda")
    return h.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# A local bound only to data written out is host data as the literal is.
def tensor_from_a_local_literal(x: torch.Tensor, n):
    h = torch.empty(4, pin_memory=True)
    h.copy_(x, non_blocking=True)
    blocks = (0, 2, 0)
    if n:
        blocks = [1, 2]
    idx = torch.tensor(blocks, device="cuda")
    return h.sum()


# One binding of the name is not host data (a CUDA tensor may be copied
# on the device), nor is a parameter's default: no wait.
def tensor_from_a_local_maybe_cuda(x: torch.Tensor, n, given=(0, 1)):
    h = torch.empty(4, pin_memory=True)
    h.copy_(x, non_blocking=True)
    blocks = (0, 2, 0)
    if n:
        blocks = x[:2]
    idx = torch.tensor(blocks, device="cuda")
    jdx = torch.tensor(given, device="cuda")
    return h.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-8]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# After torch.cuda.synchronize(), with nothing enqueued on the current
# stream since, no earlier user of the block empty() hands out can still
# run: the side stream's write races with nothing.
def allocation_after_a_synchronize(n: int):
    side = torch.cuda.Stream()
    torch.cuda.synchronize()
    mem = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        mem.fill_(0)
    side.synchronize()


# Work enqueued on the current stream after the synchronize (x * 2) may
# still run, and may have freed the block: the allocation is pending.
def allocation_after_work_after_a_synchronize(x: torch.Tensor, n: int):
    side = torch.cuda.Stream()
    torch.cuda.synchronize()
    y = x * 2
    mem = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        mem.fill_(0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'mem' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'mem' is allocated on the caller's current stream here
    side.synchronize()
    return y


# Right: torch.equal of device tensors reads its answer on the host, after
# the current stream (as item() does); so do torch.allclose and
# torch.is_nonzero.
def read_after_equal(d: torch.Tensor, e: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    same = torch.equal(d, e)
    return h.tolist(), same


# Wrong: torch.equal of host tensors waits for no stream.
def read_after_host_equal(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    a = torch.zeros(4)
    same = torch.equal(a, torch.ones(4))
    return h.tolist(), same
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-5]]:5: note: the non_blocking copy is enqueued on the caller's current stream here
