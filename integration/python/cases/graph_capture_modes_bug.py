# In a capture in the default ("global") mode, a query of a stream outside
# the capture and a query of an event recorded outside it are refused
# (cudaErrorStreamCaptureUnsupported) and PyTorch raises; "thread_local"
# refuses them too.
import torch

import harness


def step(v, inp, out):
    inp.fill_(v)
    torch.cuda.synchronize()
    ev = torch.cuda.Event()
    ev.record(OTHER)
    refused = 0
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g, stream=CAP):
            out.copy_(inp * 2)
            OTHER.query()  # EXPECT: streamsafe-graph-capture
    except RuntimeError:
        refused += 1
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g, stream=CAP, capture_error_mode="thread_local"):
            out.copy_(inp * 2)
            ev.query()  # EXPECT: streamsafe-graph-capture
    except RuntimeError:
        refused += 1
    return refused == 2


CAP = torch.cuda.Stream()
OTHER = torch.cuda.Stream()
INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_capture_modes", "bug", lambda v: step(v, INP, OUT))
