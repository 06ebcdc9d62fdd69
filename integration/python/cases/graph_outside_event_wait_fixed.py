# The fix of graph_outside_event_wait_bug: the capture stream waits for the
# side stream before the capture begins; the graph holds only the read, and
# its replay on the capture stream runs after the fill.
import torch

import harness


def step(v, inp, out):
    torch.cuda.synchronize()
    with torch.cuda.stream(SIDE):
        inp.fill_(v)
    CAP.wait_stream(SIDE)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=CAP, capture_error_mode="relaxed"):
        out.copy_(inp * 2)
    with torch.cuda.stream(CAP):
        g.replay()
    return harness.differs(out, 2 * v)


CAP = torch.cuda.Stream()
SIDE = torch.cuda.Stream()
INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_outside_event_wait", "fixed", lambda v: step(v, INP, OUT))
