# The fix of graph_replay_unordered_bug: the graph is replayed on the stream
# that filled inp, after the fill.
import torch

import harness


def step(v, inp: torch.Tensor, out: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    torch.cuda._sleep(harness.spin())  # the current stream is busy
    inp.fill_(v)  # the new input, on the current stream
    g.replay()  # after the fill, on the same stream
    return harness.differs(out, 2 * v)


INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_replay_unordered", "fixed", lambda v: step(v, INP, OUT))
