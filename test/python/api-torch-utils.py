# RUN: %check_streamsafe_py %s

# torch._utils._flatten_dense_tensors, what optimizers and reducers flatten
# their buckets with, makes a new tensor on the current stream (a cat of
# its inputs' views); _unflatten_dense_tensors gives views of the flat one.
import torch
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def reduce_unordered(grads: list, side: torch.cuda.Stream):
    flat = _flatten_dense_tensors(grads)
    flat.div_(2)
    with torch.cuda.stream(side):
        flat.mul_(3)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'flat' is written on stream parameter 'side' while its write on the caller's current stream may still be pending; nothing makes stream parameter 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:5: note: 'flat' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
        # CHECK-NOTES: :[[@LINE-5]]:9: warning: tensor 'flat' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-10]]:12: note: 'flat' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-8]]:21: note: the last reference to 'flat' dies here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-10]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream


# The fix: the side stream waits, and the block is recorded on it.
def reduce_ordered(grads: list, side: torch.cuda.Stream):
    flat = _flatten_dense_tensors(grads)
    flat.div_(2)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        flat.mul_(3)
    flat.record_stream(side)
    for g, v in zip(grads, _unflatten_dense_tensors(flat, grads)):
        g.copy_(v)
