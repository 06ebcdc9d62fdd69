# Seed §1.3, fix 1: the current stream waits for s before the clone.
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
    torch.cuda.current_stream().wait_stream(s)
    C = B.clone()
    B.record_stream(torch.cuda.current_stream())
    return C


harness.run("clone_after_side_compute", "fixed",
            lambda v: harness.differs(compute_then_clone(v), 2 * v))
