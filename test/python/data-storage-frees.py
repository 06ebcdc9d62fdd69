# RUN: %check_streamsafe_py %s

# Frees the caching allocator sees while the tensor is still named: a
# storage resized to nothing (FSDP and ZeRO free the parameters they
# gathered so), and `t.data = other`, which swaps the storage under every
# reference to t. Used on another stream with no record_stream, the block
# can be handed to new work on its own stream while that stream still uses
# it.
import torch


def gather_then_free(shard: torch.Tensor, side: torch.cuda.Stream):
    full = torch.empty(shard.numel() * 2, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        full.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'full' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:12: note: 'full' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+2]]:5: note: the memory of 'full' is given back to the caching allocator here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    full.untyped_storage().resize_(0)
    return full  # kept, with no memory, to be gathered again


def swap_then_free(n: int, side: torch.cuda.Stream):
    buf = torch.ones(n, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'buf' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:11: note: 'buf' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+2]]:5: note: the memory of 'buf' is given back to the caching allocator here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    buf.data = torch.empty(0, device="cuda")
    return buf


# Twins: recorded on the side stream first, or the caller's stream waits
# for the side stream before the free: silent.
def gather_record_free(shard: torch.Tensor, side: torch.cuda.Stream):
    full = torch.empty(shard.numel() * 2, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        full.add_(1)
    full.record_stream(side)
    full.untyped_storage().resize_(0)
    return full


def swap_after_wait(n: int, side: torch.cuda.Stream):
    buf = torch.ones(n, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    buf.data = torch.empty(0, device="cuda")
    return buf


# A storage resized to another size is not freed; a resize of something
# that is not a tensor's storage frees nothing.
def resize_other(n: int, side: torch.cuda.Stream, arr):
    buf = torch.ones(n, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    buf.untyped_storage().resize_(n * 4)
    arr.storage().resize_(0)
    return buf
