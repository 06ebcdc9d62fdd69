# The fix: x.record_stream(s) keeps x's block from reuse until s is done.
import torch

import harness


def double_on_side(v):
    s = torch.cuda.Stream()
    x = torch.full((harness.N,), v, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        out = x * 2
    x.record_stream(s)
    del x
    nxt = torch.full((harness.N,), -1.0, device="cuda")  # a fresh block
    s.synchronize()
    return out


harness.run("missing_record_stream", "fixed", lambda v: harness.differs(double_on_side(v), 2 * v))
