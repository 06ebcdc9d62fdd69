# A wait placed just before the allocation: nothing is queued on the current
# stream between them, so the block's earlier users (the caller's late -1
# fill) were all queued before the wait, and s waits for them.
import torch

import harness


def fill_on_side(v):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    A = torch.empty(harness.N, device="cuda")
    with torch.cuda.stream(s):
        A.fill_(v)
        A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return A


def body(v):
    torch.cuda._sleep(harness.spin())  # the caller's earlier work, still queued
    prev = torch.full((harness.N,), -1.0, device="cuda")
    del prev  # same stream: its block is free at once
    return harness.differs(fill_on_side(v), v)


harness.run("wait_before_alloc", "fixed", body)
