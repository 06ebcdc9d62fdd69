# RUN: %check_streamsafe_py %s

# A method that stores a tensor in its own object (`self.buf = t`) hands it
# to the object's other methods and users, which use it on their current
# stream. Allocated on the object's side stream and never recorded on the
# current stream, its block goes back to the side stream's pool when it
# dies, and new work there may overwrite it while the current stream still
# reads it (PatrickStar's Chunk.move, apex's data_prefetcher). Reported at
# the store when the class gives the evidence (lib/python/KeptTensors.cpp):
# no method records anything, one reads the attribute outside any `with`,
# and none returns it (a return is where that hand-back is reported).
import torch


# Wrong: the staged copy is allocated on the stager's stream and kept.
class Stager:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.buf = host.to("cuda", non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'self.buf' was allocated on attribute 'self.stream' and is kept here in the object for its other methods and users, which use it on the caller's current stream; when its last reference dies the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-2]]:24: note: 'self.buf' is allocated on attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def scaled(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        return self.buf * 2


# Wrong: a store the next statements replace hands nothing on; the last
# one, of the block's final tensor, does.
class Normalizing:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.batch = None

    def stage(self, host: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.batch = host.to("cuda", non_blocking=True)
            self.batch = self.batch.float()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'self.batch' was allocated on attribute 'self.stream' and is kept here in the object for its other methods and users, which use it on the caller's current stream; when its last reference dies the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-2]]:26: note: 'self.batch' is allocated on attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def mean(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        return self.batch.mean()


# Right: the class records the kept tensor on the stream that uses it.
class RecordingStager:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.buf = host.to("cuda", non_blocking=True)

    def scaled(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        self.buf.record_stream(torch.cuda.current_stream())
        return self.buf * 2


# Right: the stream waits for the current stream before it allocates, so a
# block freed by earlier users is reused only after their work.
class ForkingStager:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buf = host.to("cuda", non_blocking=True)

    def scaled(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        return self.buf * 2


# Right: a buffer the class only uses on its own stream.
class CommBuffer:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.buf = host.to("cuda", non_blocking=True)

    def reduce(self):
        with torch.cuda.stream(self.stream):
            self.buf.mul_(0.5)


# Right: allocated on the caller's current stream.
class CurrentStager:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        self.buf = host.to("cuda", non_blocking=True)

    def scaled(self):
        return self.buf * 2


# Wrong, reported at the return: a method returns the attribute; the return
# hands it on, and the store is not reported a second time.
class ReturningStager:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.buf = None

    def stage(self, host: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.buf = host.to("cuda", non_blocking=True)

    def size(self):
        return self.buf.numel()

    def take(self):
        buf = self.buf
        return buf
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'buf' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :123:24: note: 'buf' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :118:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
