# RUN: %check_streamsafe_py %s

# A wait made while the waiting stream is already current waits for itself:
# `s.wait_stream(torch.cuda.current_stream())` inside `with
# torch.cuda.stream(s)` orders nothing (FBGEMM's enrichment_query_id, fixed
# by moving the wait above the `with`). The race it leaves says so.
import torch


# Wrong: the wait is inside the with block.
def wait_inside(ids: torch.Tensor):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        s.wait_stream(torch.cuda.current_stream())
        return ids.sort()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'ids' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-7]]:17: note: 'ids' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-5]]:9: note: pool stream 's' waits here for the current stream, which is pool stream 's' itself: the wait orders nothing (make it wait before it is made current)


# Right: the wait comes before the stream is made current.
def wait_before(ids: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        return ids.sort()
