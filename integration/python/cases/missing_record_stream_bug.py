# Seed §1.2's second problem: x is allocated on the current stream, read on a
# busy side stream, and dies without record_stream. Its block goes back to
# the current stream's pool at once; the next allocation there overwrites it
# before the side stream has read it.
import torch

import harness


def double_on_side(v):
    s = torch.cuda.Stream()
    x = torch.full((harness.N,), v, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        out = x * 2  # EXPECT: streamsafe-missing-record-stream
    del x
    nxt = torch.full((harness.N,), -1.0, device="cuda")  # reuses x's block
    s.synchronize()
    return out


harness.run("missing_record_stream", "bug", lambda v: harness.differs(double_on_side(v), 2 * v))
