# RUN: %check_streamsafe_py %s

# A prefetcher: the next batch comes from `next(loader)`, whose type is not
# written, and is copied to the GPU on the prefetcher's stream. What the
# code does with it says what it is (docs/python.md, "Values whose type is
# not written"): `.cuda(non_blocking=True)` is a tensor's method (a module's
# cuda() takes no non_blocking), and a non_blocking copy to the GPU reads
# pinned host memory (from the GPU itself it would be no copy). So the
# batch is a fresh block of the prefetcher stream's pool, handed to the
# caller without record_stream (NVIDIA/apex's examples/imagenet/main_amp.py).

import torch


class DataPrefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        self.stream = torch.cuda.Stream()
        self.preload()

    def preload(self):
        try:
            self.next_input, self.next_target = next(self.loader)
        except StopIteration:
            self.next_input = None
            self.next_target = None
            return
        with torch.cuda.stream(self.stream):
            self.next_input = self.next_input.cuda(non_blocking=True)
            self.next_target = self.next_target.cuda(non_blocking=True)
            self.next_input = self.next_input.float()

    def next(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        input = self.next_input
        target = self.next_target
        self.preload()
        return input, target
    # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'input' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    # CHECK-NOTES: :31:31: note: 'input' is allocated on attribute 'self.stream' here
    # CHECK-NOTES: :18:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
    # CHECK-NOTES: :[[@LINE-4]]:16: warning: tensor 'target' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    # CHECK-NOTES: :30:32: note: 'target' is allocated on attribute 'self.stream' here
    # CHECK-NOTES: :18:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Silent: the fix records the batch on the caller's stream before handing
# it over. The records are made where the batch is not None; where it is
# None (the loader ran out) there is no block to record.
class RecordingPrefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        self.stream = torch.cuda.Stream()
        self.preload()

    def preload(self):
        try:
            self.next_input, self.next_target = next(self.loader)
        except StopIteration:
            self.next_input = None
            self.next_target = None
            return
        with torch.cuda.stream(self.stream):
            self.next_input = self.next_input.cuda(non_blocking=True)
            self.next_target = self.next_target.cuda(non_blocking=True)
            self.next_input = self.next_input.float()

    def next(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        input = self.next_input
        target = self.next_target
        if input is not None:
            input.record_stream(torch.cuda.current_stream())
        if target is not None:
            target.record_stream(torch.cuda.current_stream())
        self.preload()
        return input, target


# An untyped local: the same evidence, the same finding.
class LocalPrefetcher:
    def __init__(self, loader):
        self.loader = iter(loader)
        self.stream = torch.cuda.Stream()

    def next(self):
        batch = next(self.loader)
        with torch.cuda.stream(self.stream):
            batch = batch.cuda(non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.stream)
        return batch
    # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'batch' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:21: note: 'batch' is allocated on attribute 'self.stream' here
    # CHECK-NOTES: :84:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Silent: a blocking .cuda() of a value of unknown placement may return it
# unchanged (already on the GPU), and nothing says where it lives; nor is
# the host memory a non_blocking copy reads a race with the caller's stream.
def upload(x: torch.Tensor, side: torch.cuda.Stream):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x.cuda(non_blocking=True)
        y.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    y.record_stream(torch.cuda.current_stream())
    return y


def upload_unordered(x: torch.Tensor):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        return x.cuda(non_blocking=True)


# Silent: a module's cuda() takes no non_blocking; `.cuda()` alone says
# nothing of what a value is.
class ModelHolder:
    def __init__(self, factory):
        self.stream = torch.cuda.Stream()
        self.model = factory()

    def moved(self):
        with torch.cuda.stream(self.stream):
            self.model = self.model.cuda()
        return self.model
