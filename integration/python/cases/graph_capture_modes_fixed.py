# The fix of graph_capture_modes_bug: the same captures in the "relaxed"
# mode, which allows querying streams and events outside the capture; both
# graphs replay and compute out = inp * 2.
import torch

import harness


def step(v, inp, out):
    inp.fill_(v)
    torch.cuda.synchronize()
    ev = torch.cuda.Event()
    ev.record(OTHER)
    g1 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g1, stream=CAP, capture_error_mode="relaxed"):
        out.copy_(inp * 2)
        OTHER.query()
    g2 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g2, stream=CAP, capture_error_mode="relaxed"):
        out.copy_(inp * 2)
        ev.query()
    out.zero_()
    g1.replay()
    bad = harness.differs(out, 2 * v)
    out.zero_()
    g2.replay()
    return bad or harness.differs(out, 2 * v)


CAP = torch.cuda.Stream()
OTHER = torch.cuda.Stream()
INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_capture_modes", "fixed", lambda v: step(v, INP, OUT))
