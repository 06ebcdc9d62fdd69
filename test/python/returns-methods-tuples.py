# RUN: %check_streamsafe_py %s

# What a def or a method of the object's own class returns says what the
# name it is bound to holds: `out = self._forward(x)`, `a, b = f(x)`,
# `losses, output = self._mlp_forward(batch)` of a method annotated
# `-> Tuple[torch.Tensor, Out]` whose body returns a module call's result
# through `typing.cast` (torchrec's semi-sync pipeline before its fix).
from typing import Tuple, cast

import torch


# The backward reads the losses on a stream that never waited for the
# forward's (train_pipelines.py:587 before the fix).
class Pipeline:
    def __init__(self, model):
        self._model = model
        self._overarch_stream = torch.cuda.Stream(priority=-1)
        self._bwd_sync_stream = torch.cuda.Stream()

    def progress(self, batch):
        losses, output = self._mlp_forward(batch)
        with torch.cuda.stream(self._bwd_sync_stream):
            torch.sum(losses, dim=0).backward()
            # CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'losses' is read on attribute 'self._bwd_sync_stream' while its write on attribute 'self._overarch_stream' may still be pending; nothing makes attribute 'self._bwd_sync_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._bwd_sync_stream' here
            # CHECK-NOTES: :[[@LINE+9]]:54: note: 'losses' is written on attribute 'self._overarch_stream' here
            # CHECK-NOTES: :[[@LINE-6]]:26: note: in '_mlp_forward', called here
            # CHECK-NOTES: :[[@LINE+6]]:14: note: the current stream was set to attribute 'self._overarch_stream' here
            # CHECK-NOTES: :[[@LINE-11]]:9: note: 'self._bwd_sync_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-13]]:9: note: 'self._overarch_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        return output

    def _mlp_forward(self, batch) -> Tuple[torch.Tensor, object]:
        with torch.cuda.stream(self._overarch_stream):
            return cast(Tuple[torch.Tensor, object], self._model(batch))


# The fix runs the backward on the forward's stream: silent.
class PipelineFixed:
    def __init__(self, model):
        self._model = model
        self._overarch_stream = torch.cuda.Stream(priority=-1)

    def progress(self, batch):
        losses, output = self._mlp_forward(batch)
        with torch.cuda.stream(self._overarch_stream):
            torch.sum(losses, dim=0).backward()
        return output

    def _mlp_forward(self, batch) -> Tuple[torch.Tensor, object]:
        with torch.cuda.stream(self._overarch_stream):
            return cast(Tuple[torch.Tensor, object], self._model(batch))


# A method's one tensor, written under another stream with no wait (the
# method alone hands back a tensor allocated on its side stream: reported
# where it returns it).
class Single:
    def __init__(self):
        self.a = torch.cuda.Stream()
        self.b = torch.cuda.Stream()

    def step(self, x):
        y = self._make(x)
        with torch.cuda.stream(self.b):
            y.add_(1)
        self.b.synchronize()

    def _make(self, x):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            out = torch.relu(x)
        s.synchronize()
        return out

    def step_unsynced(self, x):
        y = self._make_unsynced(x)
        with torch.cuda.stream(self.b):
            y.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' (a view of 'out') is written on attribute 'self.b' while its write on attribute 'self.a' may still be pending; nothing makes attribute 'self.b' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.b' here
            # CHECK-NOTES: :[[@LINE+24]]:19: note: 'out' is written on attribute 'self.a' here
            # CHECK-NOTES: :[[@LINE-6]]:13: note: in '_make_unsynced', called here
            # CHECK-NOTES: :[[@LINE+21]]:14: note: the current stream was set to attribute 'self.a' here
            # CHECK-NOTES: :[[@LINE-24]]:9: note: 'self.b' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-26]]:9: note: 'self.a' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        self.b.synchronize()

    # A second call whose value is dropped says nothing against the first.
    def step_twice(self, x):
        y = self._make_unsynced(x)
        self._make_unsynced(x)
        with torch.cuda.stream(self.b):
            z = y * 2
            # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'y' (a view of 'out') is read on attribute 'self.b' while its write on attribute 'self.a' may still be pending; nothing makes attribute 'self.b' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.b' here
            # CHECK-NOTES: :[[@LINE+9]]:19: note: 'out' is written on attribute 'self.a' here
            # CHECK-NOTES: :[[@LINE-6]]:9: note: in '_make_unsynced', called here
            # CHECK-NOTES: :[[@LINE+6]]:14: note: the current stream was set to attribute 'self.a' here
            # CHECK-NOTES: :[[@LINE-39]]:9: note: 'self.b' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-41]]:9: note: 'self.a' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        self.b.synchronize()

    def _make_unsynced(self, x):
        with torch.cuda.stream(self.a):
            out = torch.relu(x)
        return out
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'out' was allocated on attribute 'self.a' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.a' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:19: note: 'out' is allocated on attribute 'self.a' here
        # CHECK-NOTES: :[[@LINE-50]]:9: note: 'self.a' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# A tuple a def of the module returns, unpacked.
def produce(x):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = torch.relu(x)
    return y, x.shape[0]


def consume(x):
    b = torch.cuda.Stream()
    y, n = produce(x)
    with torch.cuda.stream(b):
        return y * n
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'y' is read on pool stream 'b' while its write on pool stream 's' may still be pending; nothing makes pool stream 'b' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'b' here
        # CHECK-NOTES: :[[@LINE-11]]:13: note: 'y' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:12: note: in 'produce', called here
        # CHECK-NOTES: :[[@LINE-14]]:10: note: the current stream was set to pool stream 's' here


def consume_waited(x):
    b = torch.cuda.Stream()
    y, n = produce(x)
    torch.cuda.synchronize()
    with torch.cuda.stream(b):
        return y * n


# A method annotated `-> torch.Tensor` that is not run in place (it names no
# stream and is handed no tensor): its result is a tensor made on the
# current stream where it is called (FBGEMM's timer test).
class Timed:
    def work(self, n: int) -> torch.Tensor:
        t = torch.rand((64, 64), device="cuda")
        for _ in range(n):
            t = torch.matmul(t, t)
        return t

    def run(self):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            t = self.work(1)
        return t.tolist()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 't' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-12]]:13: note: 't' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:17: note: in 'work', called here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to pool stream 's' here

    def run_synced(self):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            t = self.work(1)
        s.synchronize()
        return t.tolist()
