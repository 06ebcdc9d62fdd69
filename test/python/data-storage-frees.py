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


# Re-allocation: `resize_(n)` of a (freed) storage gives it a new block on
# the current stream, for every name of the tensor, values not written.
# Right (FSDP's re-gather, reduced): re-allocated and filled on the side
# stream, nothing of the old block is pending.
def regather(full: torch.Tensor, n: int, side: torch.cuda.Stream):
    with torch.cuda.stream(side):
        full.untyped_storage().resize_(n)
        full.fill_(1)
    torch.cuda.current_stream().wait_stream(side)
    return full.sum()


# Wrong: the same, read on the current stream before it waits.
def regather_then_read(full: torch.Tensor, n: int, side: torch.cuda.Stream):
    with torch.cuda.stream(side):
        full.untyped_storage().resize_(n)
        full.fill_(1)
    return full.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'full' is read on the caller's current stream while its write on stream parameter 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:22: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'full' is written on stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-8]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream


# Right: a helper handed a field of the caller's object runs in place, so
# its re-allocation is seen (FSDP's alloc_storage_, reduced).
@torch.no_grad()
def alloc_storage_(data: torch.Tensor, size: int) -> None:
    data.untyped_storage().resize_(size)


def cast_shards(params, side: torch.cuda.Stream):
    with torch.cuda.stream(side):
        for p in params:
            alloc_storage_(p.half_shard, 16)
            p.half_shard.fill_(0)
    torch.cuda.current_stream().wait_stream(side)
