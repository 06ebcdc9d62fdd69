# RUN: %check_streamsafe_py %s

# Ops that return a tuple of new tensors (torch.return_types: sort, topk,
# max(dim), unique(return_inverse=True), ...): each name the tuple is
# unpacked into is a new tensor made on the current stream, where its input
# lives (lib/model/TensorMethods.cpp, returnsTensorTuple).
import torch


# The positions are made on the side stream and handed to the caller with
# no record_stream (dgl's neighbor sampler shape).
class Sampler:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def sample(self, seeds: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            _, positions = seeds.sort()
        return positions
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:16: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Its twin records them on the caller's stream first: silent.
class RecordedSampler:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def sample(self, seeds: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            _, positions = seeds.sort()
        torch.cuda.current_stream().wait_stream(self.stream)
        positions.record_stream(torch.cuda.current_stream())
        return positions


# The values and indices of torch.topk, made on the caller's stream, used
# on a side stream that never waited for them.
def topk_unordered(scores: torch.Tensor, side: torch.cuda.Stream):
    values, indices = torch.topk(scores, 4)
    with torch.cuda.stream(side):
        indices.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'indices' is written on stream parameter 'side' while its write on the caller's current stream may still be pending; nothing makes stream parameter 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:13: note: 'indices' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    side.synchronize()
    indices.record_stream(side)


# Two names, two tensors: a write to one on a side stream is no write to
# the other.
def two_tensors(scores: torch.Tensor, side: torch.cuda.Stream):
    values, indices = scores.max(0)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        values.add_(1)
    values.record_stream(side)
    return indices.sum()


# `index, positions = index.sort()` of a value whose type is not written: a
# list's sort() returns None, which no unpacking takes, so index is a
# tensor and the positions are new (lib/model/UseEvidence.h).
class UntypedSampler:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def sample(self, batch):
        with torch.cuda.stream(self.stream):
            index = batch.seeds
            index, positions = index.sort()
        batch.positions = positions
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:20: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Its twin records them first; and `a, b = x.max()` says nothing of x (an
# array's max() of a pair unpacks too): silent.
class UntypedRecordedSampler:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def sample(self, batch):
        with torch.cuda.stream(self.stream):
            index = batch.seeds
            index, positions = index.sort()
            low, high = batch.bounds.max()
        torch.cuda.current_stream().wait_stream(self.stream)
        positions.record_stream(torch.cuda.current_stream())
        batch.positions = positions
        batch.low = low
