# RUN: %check_streamsafe_py %s

# A CUDA-graph runner kept in an object, as decode-step runners of LLM
# servers write it: the graph, its static input and output and its replay
# stream are attributes of the object. A function of the file that makes
# the runner and calls its methods runs them in place, with the object's
# attributes as variables of their own (tensors assigned only tensors are
# followed like the streams and events), so the work one method captures
# is what another's replay runs.
import torch


class Runner:
    def __init__(self, n: int):
        self.graph = torch.cuda.CUDAGraph()
        self.static_in = torch.zeros(n, device="cuda")
        self.static_out = torch.zeros(n, device="cuda")
        self.side = torch.cuda.Stream()

    def capture(self):
        with torch.cuda.graph(self.graph):
            self.static_out.copy_(self.static_in * 2)

    # Wrong: the input is filled on the caller's stream and the graph
    # replayed on the runner's side stream with no wait either way.
    def step_on_side(self, x: torch.Tensor):
        self.static_in.copy_(x)
        with torch.cuda.stream(self.side):
            self.graph.replay()
        return self.static_out.sum()
        # CHECK-NOTES: :[[@LINE-2]]:13: warning: the replay of CUDA graph 'self.graph' reads tensor 'r.static_in' on pool stream 'r.side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'r.side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-10]]:35: note: 'r.static_in' is read here, in the capture of 'self.graph': the work is recorded, and each replay runs it on the replay's stream
        # CHECK-NOTES: :[[@LINE-5]]:14: note: the current stream is set to pool stream 'r.side' here
        # CHECK-NOTES: :[[@LINE-7]]:9: note: 'r.static_in' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-13]]:54: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE+28]]:12: note: in 'step_on_side', called here from 'serve_unordered'
        # CHECK-NOTES: :[[@LINE-7]]:16: warning: tensor 'r.static_out' is read on the caller's current stream while its write on pool stream 'r.side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-9]]:32: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-10]]:13: note: 'r.static_out' is written on pool stream 'r.side' here, by the replay of CUDA graph 'self.graph'
        # CHECK-NOTES: :[[@LINE-18]]:13: note: 'r.static_out' is written here, in the capture of 'self.graph': the work is recorded, and each replay runs it on the replay's stream
        # CHECK-NOTES: :[[@LINE-13]]:14: note: the current stream was set to pool stream 'r.side' here
        # CHECK-NOTES: :[[@LINE+22]]:12: note: in 'step_on_side', called here from 'serve_unordered'

    # Right: the side stream waits for the fill, the caller's stream for the
    # replay.
    def step_on_side_ordered(self, x: torch.Tensor):
        self.static_in.copy_(x)
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            self.graph.replay()
        torch.cuda.current_stream().wait_stream(self.side)
        return self.static_out.sum()

    # Right: the decode step on the caller's stream.
    def step(self, x: torch.Tensor):
        self.static_in.copy_(x)
        self.graph.replay()
        return self.static_out.clone()


def serve_unordered(n: int, x: torch.Tensor):
    r = Runner(n)
    r.capture()
    return r.step_on_side(x)


def serve_ordered(n: int, x: torch.Tensor):
    r = Runner(n)
    r.capture()
    return r.step_on_side_ordered(x)


def serve(n: int, x: torch.Tensor):
    r = Runner(n)
    r.capture()
    return r.step(x)
