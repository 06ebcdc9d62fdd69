# The fix: wait on the caller's current stream, the one A is written on.
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


def caller(v):
    p = torch.cuda.Stream()
    with torch.cuda.stream(p):
        B = sum_on_side(v)
    torch.cuda.current_stream().wait_stream(p)
    return B


harness.run("wait_default_in_helper", "fixed",
            lambda v: harness.differs_value(caller(v).item(), v * harness.N))
