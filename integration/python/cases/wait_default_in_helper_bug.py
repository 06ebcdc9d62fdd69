# Seed §1.2's wait_stream, misused: the seed waits on default_stream(), which
# is right in a module body but not in a function its caller runs on another
# stream. A is written on the caller's current stream (a pool stream here);
# s waits on the idle default stream and reads A before it is written.
import torch

import harness


def sum_on_side(v):
    s = torch.cuda.Stream()
    torch.cuda._sleep(harness.spin())  # the current stream is busy with earlier work
    A = torch.empty(harness.N, device="cuda").fill_(v)
    s.wait_stream(torch.cuda.default_stream())  # not the stream A is written on
    with torch.cuda.stream(s):
        B = torch.sum(A)  # EXPECT: streamsafe-unsynchronized-access
    A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return B


def caller(v):
    p = torch.cuda.Stream()
    with torch.cuda.stream(p):
        B = sum_on_side(v)
    torch.cuda.current_stream().wait_stream(p)
    return B


harness.run("wait_default_in_helper", "bug",
            lambda v: harness.differs_value(caller(v).item(), v * harness.N))
