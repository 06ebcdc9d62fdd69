# Seed §1.3: B is computed on a side stream, then cloned on the current
# stream, which does not wait for the side stream.
import torch

import harness


def compute_then_clone(v):
    s = torch.cuda.Stream()
    A = torch.full((harness.N,), v, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        B = A * 2
    A.record_stream(s)
    C = B.clone()  # EXPECT: streamsafe-unsynchronized-access
    B.record_stream(torch.cuda.current_stream())
    return C


harness.run("clone_after_side_compute", "bug",
            lambda v: harness.differs(compute_then_clone(v), 2 * v))
