# RUN: %check_streamsafe_py %s

# Where memory lives (the C++ twin is
# test/checkers/host-read-before-sync-pinned.cpp): device='cpu',
# torch.device('cpu') or no device at all give host memory, which has no
# allocation stream; pin_memory=True and .pin_memory() give pinned host
# memory, which non_blocking copies and the host race on; .cpu() and
# .to('cpu') give host memory (pinned when non_blocking). The host side of
# a pinned buffer is .numpy(), .item(), .tolist() and in-place ops run by
# the host; its device side is the non_blocking copies.
import torch


# Right: a pinned buffer filled on a side stream that waited for the input,
# read after that stream is synchronised.
def pinned_round_trip(d: torch.Tensor):
    s = torch.cuda.Stream()
    h = torch.empty(d.shape, device='cpu', pin_memory=True)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.copy_(d, non_blocking=True)
    s.synchronize()
    return h.numpy()


# Wrong: the stream synchronised is not the one that copies.
def sync_of_the_wrong_stream(d: torch.Tensor):
    s = torch.cuda.Stream()
    cur = torch.cuda.current_stream()
    s.wait_stream(cur)
    h = torch.empty(16, pin_memory=True)
    with torch.cuda.stream(s):
        h.copy_(d, non_blocking=True)
    cur.synchronize()
    return h.tolist()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on pool stream 's' may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-4]]:9: note: the non_blocking copy is enqueued on pool stream 's' here


# Right: pageable host memory: the copy is complete when copy_ returns,
# whatever non_blocking says.
def pageable_copy(d: torch.Tensor):
    h = torch.empty(16, device=torch.device('cpu'))
    h.copy_(d, non_blocking=True)
    return h.item()


# Wrong: .pin_memory() gives pinned memory; the element is read before the
# copy into it is known to be complete.
def pinned_method(d: torch.Tensor):
    h = torch.zeros(16).pin_memory()
    h.copy_(d, non_blocking=True)
    return h[3].item()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: the same after synchronising the current stream.
def pinned_method_synchronized(d: torch.Tensor):
    h = torch.zeros(16).pin_memory()
    h.copy_(d, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    return h[3].item()


# Wrong: a non_blocking copy to the host lands in pinned memory.
def to_host_async(d: torch.Tensor):
    h = d.to('cpu', non_blocking=True)
    return h.numpy()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:9: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: a blocking .cpu() waits for the copy.
def to_host_blocking(d: torch.Tensor):
    h = d.cpu()
    return h.numpy()


# Wrong: the staging buffer is refilled by the host, in a loop, while the
# previous iteration's non_blocking copy may still read it.
def refill_staging_in_loop(dev: torch.Tensor, batches):
    staging = torch.empty(16, pin_memory=True)
    for b in batches:
        staging[:] = b
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
        # CHECK-NOTES: :[[@LINE+1]]:19: note: the non_blocking copy is enqueued on the caller's current stream here
        dev.copy_(staging, non_blocking=True)


# Wrong: host writes right after the copy from the buffer was enqueued.
def write_after_async_copy(dev: torch.Tensor):
    staging = torch.empty(16, pin_memory=True)
    dev.copy_(staging, non_blocking=True)
    staging.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:15: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: the copying stream is synchronised before each refill.
def refill_staging_synchronized(dev: torch.Tensor, batches):
    staging = torch.empty(16, pin_memory=True)
    for b in batches:
        torch.cuda.current_stream().synchronize()
        staging[:] = b
        staging.add_(1)
        dev.copy_(staging, non_blocking=True)


# Not followed: where `b` lives is not known; a CUDA source is copied in
# stream order after the previous copy, so this stays silent.
def refill_from_unknown_source(dev: torch.Tensor, batches):
    staging = torch.empty(16, pin_memory=True)
    for b in batches:
        staging.copy_(b)
        dev.copy_(staging, non_blocking=True)


# Right: a factory with no device makes a CPU tensor, and .cpu() a host
# copy: using them on a side stream has no allocation to wait for (and
# none to record).
def host_tensors_on_side_stream(d: torch.Tensor, out: torch.Tensor):
    s = torch.cuda.Stream()
    table = torch.zeros(16)
    h = d.cpu()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        out.copy_(table, non_blocking=True)
        out.add_(h.to('cuda', non_blocking=True))
    torch.cuda.current_stream().wait_stream(s)
    return out


# Wrong: a tensor made on the device (device='cuda') is allocated on the
# current stream; the side stream uses it with no wait.
def device_tensor_on_side_stream():
    s = torch.cuda.Stream()
    table = torch.zeros(16, device='cuda')
    with torch.cuda.stream(s):
        y = table * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'table' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:13: note: 'table' is written on the caller's current stream here
    torch.cuda.current_stream().wait_stream(s)
    return y
