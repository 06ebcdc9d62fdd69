# A graph captured in torch.cuda.graph(g) reads the static input inp; the
# caller fills inp on its stream, then replays the graph on a side stream
# that does not wait for the fill: the replay reads inp before the fill lands.
import torch

import harness


def step(v, inp: torch.Tensor, out: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    torch.cuda._sleep(harness.spin())  # the current stream is busy
    inp.fill_(v)  # the new input, on the current stream
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        g.replay()  # EXPECT: streamsafe-unsynchronized-access
    return harness.differs(out, 2 * v)


INP = torch.zeros(harness.N, device="cuda")
OUT = torch.zeros(harness.N, device="cuda")
harness.run("graph_replay_unordered", "bug", lambda v: step(v, INP, OUT))
