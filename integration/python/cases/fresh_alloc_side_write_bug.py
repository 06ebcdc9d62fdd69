# Seed §1.2's subtle case without the wait: a fresh torch.empty may reuse a
# block whose previous owner still has work queued on the current stream;
# writing it on a side stream without waiting lets that late work overwrite it.
import torch

import harness


def fill_on_side(v):
    s = torch.cuda.Stream()
    A = torch.empty(harness.N, device="cuda")
    with torch.cuda.stream(s):
        A.fill_(v)  # EXPECT: streamsafe-unsynchronized-access
        A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return A


def body(v):
    torch.cuda._sleep(harness.spin())  # the caller's earlier work, still queued
    prev = torch.full((harness.N,), -1.0, device="cuda")
    del prev  # same stream: its block is free at once
    return harness.differs(fill_on_side(v), v)


harness.run("fresh_alloc_side_write", "bug", body)
