# RUN: %check_streamsafe_py %s

# Blocks freed while another stream uses them (docs/checks/
# missing-record-stream.md, "When a free is judged"). The caller's tensors
# are taken to be allocated on its current stream, where they are ready, so
# freeing one's storage after a side stream read it owes a record_stream.
# A free is judged at the next allocation on the block's stream, or at the
# exit: a wait of that stream before then orders the side stream's uses
# first. Lists of tuples are followed item by item, and a closure run in
# place loops over its def's list and parameters (torchrec's stash,
# reduced).
from typing import List, Optional

import torch


# Wrong (torchrec memory_stashing.py:251, reduced): the weights the caller
# hands in are copied to the host on the D2H stream, then their storage is
# freed with no record_stream on that stream.
def stash(tensors: List[torch.Tensor], streams, delay: bool):
    stash_data = []

    def execute_stash(_grad: Optional[torch.Tensor] = None) -> None:
        d2h = streams.d2h_stream()
        d2h.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(d2h):
            for tensor in tensors:
                cpu = torch.empty(tensor.shape, device="cpu", pin_memory=True)
                cpu.copy_(tensor, non_blocking=True)
                # CHECK-NOTES: :[[@LINE-1]]:27: warning: tensor 'tensor' is used on stream 'd2h' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream 'd2h' is still using it [streamsafe-missing-record-stream]
                # CHECK-NOTES: :[[@LINE-5]]:14: note: the current stream is set to stream 'd2h' here
                # CHECK-NOTES: :[[@LINE-5]]:17: note: 'tensor' is handed in here by the caller, taken to be allocated on the caller's current stream, where it is ready
                # CHECK-NOTES: :[[@LINE+6]]:17: note: the memory of 'tensor' is given back to the caching allocator here, with no record_stream on stream 'd2h' and no synchronization with the caller's current stream
                # CHECK-NOTES: :[[@LINE-9]]:9: note: 'd2h', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
                # CHECK-NOTES: :[[@LINE+7]]:9: note: in 'execute_stash', called here from 'stash'
                # CHECK-NOTES: :[[@LINE+5]]:12: note: on the path reported, 'delay' is false
                stash_data.append((tensor, cpu, tensor.numel()))
            for tensor, _, _ in stash_data:
                tensor.untyped_storage().resize_(0)

    if not delay:
        execute_stash()
    return execute_stash


# Right (the fix): recorded on the D2H stream after the copy.
def stash_recorded(tensors: List[torch.Tensor], streams, delay: bool):
    stash_data = []

    def execute_stash(_grad: Optional[torch.Tensor] = None) -> None:
        d2h = streams.d2h_stream()
        d2h.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(d2h):
            for tensor in tensors:
                cpu = torch.empty(tensor.shape, device="cpu", pin_memory=True)
                cpu.copy_(tensor, non_blocking=True)
                tensor.record_stream(d2h)
                stash_data.append((tensor, cpu, tensor.numel()))
            for tensor, _, _ in stash_data:
                tensor.untyped_storage().resize_(0)

    if not delay:
        execute_stash()
    return execute_stash


# Right (ColossalAI's sharded model, reduced): the old storage of the
# caller's gradient is freed while the comm stream may still read it, but
# nothing is allocated on the current stream before it waits for the comm
# stream.
def reduce_scatter(grad: torch.Tensor, comm: torch.cuda.Stream):
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        grad.data = grad.data.to(torch.float32)
        grad.data.div_(2)
        parts = grad.chunk(2)
        parts[0].add_(1)
    torch.cuda.current_stream().wait_stream(comm)


# Wrong: the same, but the current stream allocates before it waits: that
# allocation may be given the freed block while the comm stream reads it.
def reduce_scatter_allocates(grad: torch.Tensor, comm: torch.cuda.Stream):
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        grad.data = grad.data.to(torch.float32)
        # CHECK-NOTES: :[[@LINE-1]]:21: warning: tensor 'grad' is used on stream parameter 'comm' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'comm' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'comm' here
        # CHECK-NOTES: :[[@LINE-6]]:30: note: 'grad' is handed in here by the caller, taken to be allocated on the caller's current stream, where it is ready
        # CHECK-NOTES: :[[@LINE-4]]:9: note: the memory of 'grad' is given back to the caching allocator here, with no record_stream on stream parameter 'comm' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'comm' is used as a side stream here, so it is taken to differ from the caller's current stream
    out = torch.empty(16, device="cuda")
    torch.cuda.current_stream().wait_stream(comm)
    return out


# Right: the pairs are only named, never freed here (the list dies with the
# def, but the caller still holds its tensors).
def pairs_kept(tensors: List[torch.Tensor], side: torch.cuda.Stream):
    pairs = []
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for t in tensors:
            pairs.append((t, t.sum()))
    torch.cuda.current_stream().wait_stream(side)
    for t, s in pairs:
        t.add_(s)


# Wrong: a block made here, kept in a list of tuples, read on the side
# stream and let go with the list at the end of the loop over it.
def pairs_dropped(x: torch.Tensor, side: torch.cuda.Stream):
    pairs = [(x * 2, 0)]
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for buf, k in pairs:
            buf.mul_(k)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'pairs' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to stream parameter 'side' here
            # CHECK-NOTES: :[[@LINE-7]]:15: note: 'pairs' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE+3]]:5: note: the last reference to 'pairs' dies here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-8]]:5: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    pairs = []
    return torch.empty(4, device="cuda")


# Right: the event recorded on the side stream before the free is waited
# for by the current stream before its next allocation.
def freed_after_record(x: torch.Tensor, side: torch.cuda.Stream):
    buf = x * 2
    done = torch.cuda.Event()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.mul_(2)
        done.record()
    del buf
    torch.cuda.current_stream().wait_event(done)
    return torch.empty(4, device="cuda")


# Wrong: a plain list appended in a loop holds the caller's tensors after
# it (the slots of a list are bound on every path), and they are freed.
def list_appended_in_loop(tensors: List[torch.Tensor], side: torch.cuda.Stream):
    kept = []
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for t in tensors:
            t.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 't' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to stream parameter 'side' here
            # CHECK-NOTES: :[[@LINE-4]]:13: note: 't' is handed in here by the caller, taken to be allocated on the caller's current stream, where it is ready
            # CHECK-NOTES: :[[@LINE+4]]:13: note: the memory of 't' is given back to the caching allocator here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-8]]:5: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
            kept.append(t)
        for t in kept:
            t.untyped_storage().resize_(0)
