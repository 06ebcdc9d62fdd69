# Seed §1.2's subtle case as written: s waits for the current stream before
# writing the fresh allocation.
import torch

import harness


def fill_on_side(v):
    s = torch.cuda.Stream()
    A = torch.empty(harness.N, device="cuda")
    s.wait_stream(torch.cuda.current_stream())  # still needed
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


harness.run("fresh_alloc_side_write", "fixed", body)
