# RUN: %check_streamsafe_py %s

# A wait placed before an allocation (docs/checks/unsynchronized-access.md,
# "A wait before the allocation"): `side.wait_stream(current)` orders side
# after every kernel queued on the current stream so far. A block the
# allocator hands out on the current stream next had its earlier users
# there; when nothing has been queued on the current stream since the wait,
# they were all queued before it, and side waits for them. Work queued in
# between is not waited for: its block may be the one handed out.
import torch


# Right: nothing is queued on the current stream between the wait and the
# allocation.
def fill_after_wait(n: int):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    out = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        out.fill_(1.0)
        out.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Wrong: a kernel the current stream queues after the wait (and a block it
# frees, `prev`) may still be running when side fills `out`.
def fill_after_more_work(x: torch.Tensor, n: int):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    prev = x * 2
    del prev
    out = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        out.fill_(1.0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        out.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Wrong: the wait is made on one path only; on the other nothing orders
# the allocation before side's fill.
def fill_after_wait_on_one_path(n: int, overlap: bool):
    side = torch.cuda.Stream()
    if overlap:
        side.wait_stream(torch.cuda.current_stream())
    out = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        out.fill_(1.0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-8]]:8: note: on the path reported, 'overlap' is false
        out.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Wrong: an event recorded before more work, waited on after it: the wait
# is for the work before the record only.
def fill_after_event_then_work(x: torch.Tensor, n: int):
    side = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record()
    y = x * 2
    side.wait_event(ready)
    out = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        out.fill_(1.0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        out.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    return out, y


# Right: an event recorded last, waited on before the allocation.
def fill_after_event(x: torch.Tensor, n: int):
    side = torch.cuda.Stream()
    y = x * 2
    ready = torch.cuda.Event()
    ready.record()
    side.wait_event(ready)
    out = torch.empty(n, device="cuda")
    with torch.cuda.stream(side):
        out.fill_(1.0)
        out.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)
    return out, y
