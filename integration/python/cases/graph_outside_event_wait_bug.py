# A side stream fills inp; the capture then makes its stream wait for the
# side stream (wait_stream records an event on it), to order the captured
# read after the fill. The record is not part of the capture: a graph cannot
# depend on work outside it, so the runtime refuses the wait in every mode
# (cudaErrorStreamCaptureIsolation) and PyTorch raises.
import torch

import harness


def step(v, inp, out):
    torch.cuda.synchronize()
    with torch.cuda.stream(SIDE):
        inp.fill_(v)
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g, stream=CAP, capture_error_mode="relaxed"):
            CAP.wait_stream(SIDE)  # EXPECT: streamsafe-graph-capture
            out.copy_(inp * 2)
    except RuntimeError:
        return True
    g.replay()
    return harness.differs(out, 2 * v)


CAP = torch.cuda.Stream()
SIDE = torch.cuda.Stream()
INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_outside_event_wait", "bug", lambda v: step(v, INP, OUT))
