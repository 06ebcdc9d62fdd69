# RUN: %check_streamsafe_py %s

# `t.set_(source, ...)` makes t a view of the source's storage (a tensor,
# or a storage of one): no kernel runs, what t held loses a reference, and
# work through t is work on the source's memory (torchrec's stash restore).
import torch


def restore_into(hbm: torch.Tensor, host: torch.Tensor, h2d: torch.cuda.Stream):
    buf = torch.empty(hbm.shape, device="cuda")
    tmp = torch.tensor([], device="cuda")
    tmp.set_(buf.untyped_storage(), 0, buf.shape, buf.stride())
    h2d.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(h2d):
        tmp.copy_(host, non_blocking=True)
    torch.cuda.current_stream().wait_stream(h2d)
    return buf.sum()


def restore_unordered(hbm: torch.Tensor, host: torch.Tensor, h2d: torch.cuda.Stream):
    buf = torch.empty(hbm.shape, device="cuda")
    tmp = torch.tensor([], device="cuda")
    tmp.set_(buf)
    h2d.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(h2d):
        tmp.copy_(host, non_blocking=True)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'buf' is used on stream parameter 'h2d' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'h2d' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'h2d' here
        # CHECK-NOTES: :[[@LINE-8]]:11: note: 'buf' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'buf' dies here, with no record_stream on stream parameter 'h2d' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'h2d' is used as a side stream here, so it is taken to differ from the caller's current stream
    return buf.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'buf' is read on the caller's current stream while its write on stream parameter 'h2d' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-8]]:43: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-9]]:9: note: 'buf' is written on stream parameter 'h2d' here
    # CHECK-NOTES: :[[@LINE-11]]:10: note: the current stream was set to stream parameter 'h2d' here
    # CHECK-NOTES: :[[@LINE-13]]:5: note: 'h2d' is used as a side stream here, so it is taken to differ from the caller's current stream


# Twin: the empty tensor's own write on the current stream is no write of
# buf's memory, and the caller's stream waits before the read: silent.
def restore_waited(hbm: torch.Tensor, host: torch.Tensor, h2d: torch.cuda.Stream):
    buf = torch.empty(hbm.shape, device="cuda")
    h2d.wait_stream(torch.cuda.current_stream())
    tmp = torch.tensor([], device="cuda")
    tmp.set_(buf.untyped_storage())
    with torch.cuda.stream(h2d):
        tmp.copy_(host, non_blocking=True)
    torch.cuda.current_stream().wait_stream(h2d)
    return buf.sum()
