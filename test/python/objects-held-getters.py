# RUN: %check_streamsafe_py %s

# A method of an object held in an attribute that returns the object's own
# state (`return self._flat[rank][group]`) gives the same stored tensor at
# every call, whatever its arguments, unless constant arguments tell two
# calls apart (lib/python/ReturnSummaries.cpp). InternEvo's ZeRO optimizer
# writes the flat fp16 parameters it gets from its store on the current
# stream, then broadcasts what the same getter gives under a side stream
# that never waited (hybrid_zero_optim.py:673 before its fix).
import torch
import torch.distributed as dist


class Store:
    def __init__(self):
        self._flat = {}

    def add(self, rank, group, t):
        self._flat.setdefault(rank, {})[group] = t

    def get_flat(self, rank, group) -> torch.Tensor:
        return self._flat[rank][group]


class Optimizer:
    def __init__(self, world):
        self._store = Store()
        self._bcast = torch.cuda.Stream()
        self.world = world

    def step(self, fp32: torch.Tensor, rank: int):
        fp16 = self._store.get_flat(rank=rank, group=0)
        fp16.data.copy_(fp32)
        with torch.cuda.stream(self._bcast):
            self.broadcast()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'p' (a view of 'self._store.get_flat(rank=..., group=0)') is read on attribute 'self._bcast' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._bcast' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE+8]]:28: note: 'p' is read on attribute 'self._bcast' here, in 'broadcast'
            # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self._bcast' here
            # CHECK-NOTES: :[[@LINE-6]]:9: note: 'self._store.get_flat(rank=..., group=0)' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-12]]:9: note: 'self._bcast' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def broadcast(self):
        for r in range(self.world):
            p = self._store.get_flat(rank=r, group=0)
            dist.broadcast(p, src=r)


# Right: the side stream waits for the copy first.
class JoinedOptimizer:
    def __init__(self, world):
        self._store = Store()
        self._bcast = torch.cuda.Stream()
        self.world = world

    def step(self, fp32: torch.Tensor, rank: int):
        fp16 = self._store.get_flat(rank=rank, group=0)
        fp16.data.copy_(fp32)
        self._bcast.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._bcast):
            self.broadcast()

    def broadcast(self):
        for r in range(self.world):
            p = self._store.get_flat(rank=r, group=0)
            dist.broadcast(p, src=r)


# Silent: constant arguments that differ name two stored tensors.
class TwoGroups:
    def __init__(self):
        self._store = Store()
        self._bcast = torch.cuda.Stream()

    def step(self, fp32: torch.Tensor):
        self._store.get_flat(0, 0).copy_(fp32)
        with torch.cuda.stream(self._bcast):
            dist.broadcast(self._store.get_flat(0, 1), src=0)
