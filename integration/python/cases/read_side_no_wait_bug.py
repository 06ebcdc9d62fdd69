# Seed §1.2, the first wrong use: A is written on the current stream and
# read (torch.sum) on the side stream s, which never waits for the write.
import torch

import harness


def sum_on_side(v):
    s = torch.cuda.Stream()
    torch.cuda._sleep(harness.spin())  # the current stream is busy with earlier work
    A = torch.empty(harness.N, device="cuda").fill_(v)
    with torch.cuda.stream(s):
        B = torch.sum(A)  # EXPECT: streamsafe-unsynchronized-access
    A.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return B


harness.run("read_side_no_wait", "bug",
            lambda v: harness.differs_value(sum_on_side(v).item(), v * harness.N))
