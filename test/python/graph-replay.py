# RUN: %check_streamsafe_py %s

# Work captured in a `with torch.cuda.graph(g):` block is recorded, not run:
# each `g.replay()` runs it on the current stream (docs/checks/graph-capture.md).
# The twin of test/checkers/unsynchronized-access-graph-replay.cpp.

import torch


# The decode step of a server: fill the static input, replay, read the static
# output, all on the current stream.
def decode_step(g: torch.cuda.CUDAGraph, inp: torch.Tensor, out: torch.Tensor,
                x: torch.Tensor):
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    inp.copy_(x)
    g.replay()
    return out.sum()


# The replay on a stream that does not wait for the fill.
def replay_unordered(g: torch.cuda.CUDAGraph, inp: torch.Tensor,
                     out: torch.Tensor, x: torch.Tensor):
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    inp.copy_(x)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        g.replay()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the replay of CUDA graph 'g' reads tensor 'inp' on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:19: note: 'inp' is read here, in the capture of 'g': the work is recorded, and each replay runs it on the replay's stream
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'inp' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-9]]:27: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope


# The replay waits for the fill; the output is read before the current stream
# waits for the replay.
def read_before_wait(g: torch.cuda.CUDAGraph, inp: torch.Tensor,
                     out: torch.Tensor, x: torch.Tensor):
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    inp.copy_(x)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        g.replay()
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:19: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'out' is written on pool stream 'side' here, by the replay of CUDA graph 'g'
    # CHECK-NOTES: :[[@LINE-10]]:9: note: 'out' is written here, in the capture of 'g': the work is recorded, and each replay runs it on the replay's stream
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 'side' here


# Both waits: silent.
def replay_on_side_ordered(g: torch.cuda.CUDAGraph, inp: torch.Tensor,
                           out: torch.Tensor, x: torch.Tensor):
    with torch.cuda.graph(g):
        out.copy_(inp * 2)
    inp.copy_(x)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        g.replay()
    torch.cuda.current_stream().wait_stream(side)
    return out.sum()


# A graph captured elsewhere: its replay on another stream is not reported.
def replay_unknown(g: torch.cuda.CUDAGraph, inp: torch.Tensor, x: torch.Tensor):
    inp.copy_(x)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        g.replay()


# A runner keeps the graph and its static buffers in attributes; one method
# captures, another fills and replays.
class Runner:
    def __init__(self):
        self.graph = torch.cuda.CUDAGraph()
        self.inp = torch.zeros(8, device="cuda")
        self.out = torch.zeros(8, device="cuda")
        self.side = torch.cuda.Stream()

    def capture(self):
        with torch.cuda.graph(self.graph):
            self.out.copy_(self.inp * 2)

    def step(self, x):
        self.capture()
        self.inp.copy_(x)
        self.graph.replay()
        return self.out.clone()
