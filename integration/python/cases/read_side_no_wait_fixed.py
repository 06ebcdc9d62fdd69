# Seed §1.2, the two-step fix: s waits for the current stream before reading
# A, and A.record_stream(s) tells the allocator A is used on s.
import torch

import harness


def sum_on_side(v):
    s = torch.cuda.Stream()
    torch.cuda._sleep(harness.spin())  # the current stream is busy with earlier work
    A = torch.empty(harness.N, device="cuda").fill_(v)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        B = torch.sum(A)
    A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return B


harness.run("read_side_no_wait", "fixed",
            lambda v: harness.differs_value(sum_on_side(v).item(), v * harness.N))
