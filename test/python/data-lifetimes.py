# RUN: %check_streamsafe_py %s

# Lifetimes in loops (the C++ twin is
# test/checkers/missing-record-stream-lifetimes.cpp): a name bound again
# lets go of its previous value, so in a loop the previous iteration's
# tensor dies at the assignment; `del` and the end of the function let go
# too. A block made on one stream and used on another is handed out again
# as soon as it dies, unless the allocator was told (record_stream).
import torch


# Wrong: each iteration's staging tensor is read on the side stream, and
# dies at the next iteration's assignment (the last one at the end).
def loop_reassign(batches, acc: torch.Tensor):
    side = torch.cuda.Stream()
    for b in batches:
        staging = torch.mul(b, 2)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            acc.add_(staging)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'acc' is written on pool stream 'side', which may still run when 'loop_reassign' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-3]]:30: note: 'loop_reassign' returns here; 'acc' outlives the call, and its next use on the caller's current stream may run before the write
            # CHECK-NOTES: :[[@LINE-4]]:22: warning: tensor 'staging' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-9]]:19: note: 'staging' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-10]]:9: note: the last reference to 'staging' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream


# Right: the same, with the allocator told.
def loop_reassign_recorded(batches, acc: torch.Tensor):
    side = torch.cuda.Stream()
    for b in batches:
        staging = torch.mul(b, 2)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            acc.add_(staging)
        staging.record_stream(side)
    torch.cuda.current_stream().wait_stream(side)


# Right: the current stream joins the side stream before the next
# iteration drops the previous value.
def loop_reassign_joined(batches, acc: torch.Tensor):
    side = torch.cuda.Stream()
    for b in batches:
        staging = torch.mul(b, 2)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            acc.add_(staging)
        torch.cuda.current_stream().wait_stream(side)


# Wrong: made on the side stream, read on the current stream, dropped.
def consume_and_drop(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        r = x.mul(2)
    torch.cuda.current_stream().wait_stream(side)
    y = r.add(1)
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'r' is used on the caller's current stream but was allocated on pool stream 'side'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:21: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-5]]:13: note: 'r' is allocated on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE+1]]:9: note: the last reference to 'r' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 'side'
    del r
    return y


# Right: the same, recorded on the current stream before it is dropped.
def consume_record_and_drop(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        r = x.mul(2)
    torch.cuda.current_stream().wait_stream(side)
    y = r.add(1)
    r.record_stream(torch.cuda.current_stream())
    del r
    return y


# A view and its base bound in each branch stay one storage after the
# branches meet: returning the base keeps the view's memory alive (the
# caller owns it), so nothing is missing a record_stream.
def view_bound_in_branches(y: torch.Tensor, split: bool):
    side = torch.cuda.Stream()
    if split:
        ypad = torch.empty((y.shape[0] + 2, y.shape[1]), device="cuda")
        ymid = ypad[1:-1, :]
    else:
        ypad = torch.empty((y.shape[0], y.shape[1] + 2), device="cuda")
        ymid = ypad[:, 1:-1]
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        ymid.copy_(y)
    return ypad


# Wrong: the same, but nothing keeps the memory once the function returns
# (the storage is named after its base).
def view_bound_in_branches_dropped(y: torch.Tensor, split: bool):
    side = torch.cuda.Stream()
    if split:
        ypad = torch.empty((y.shape[0] + 2, y.shape[1]), device="cuda")
        ymid = ypad[1:-1, :]
    else:
        ypad = torch.empty((y.shape[0], y.shape[1] + 2), device="cuda")
        ymid = ypad[:, 1:-1]
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        ymid.copy_(y)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'ypad' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-10]]:16: note: 'ypad' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'ypad' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-13]]:8: note: on the path reported, 'split' is true
    return None
