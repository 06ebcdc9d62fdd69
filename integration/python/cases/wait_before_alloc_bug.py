# A wait placed before more work on the current stream, then the
# allocation: the block may be the one that work (a late -1 fill) still
# uses, and s does not wait for it.
import torch

import harness


def fill_on_side(v):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    torch.cuda._sleep(harness.spin())  # queued after the wait
    prev = torch.full((harness.N,), -1.0, device="cuda")
    del prev  # same stream: its block is free at once
    A = torch.empty(harness.N, device="cuda")
    with torch.cuda.stream(s):
        A.fill_(v)  # EXPECT: streamsafe-unsynchronized-access
        A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return A


def body(v):
    return harness.differs(fill_on_side(v), v)


harness.run("wait_before_alloc", "bug", body)
