# RUN: %check_streamsafe_py %s

# A stream the object's maker gives (`self.stream = stream` in __init__)
# that the class enters as the current stream and calls a stream method on
# is a side stream of the object's own: a maker handing it the current
# stream would make the waits and the switch pointless. A tensor made on it
# and handed back (returned, or stored in a field of an object the caller
# holds) owes a record_stream (dgl's graphbolt samplers).
import torch


class Fetcher:
    def __init__(self, stream):
        self.stream = stream

    def fetch(self, index: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            positions = index.argsort()
        torch.cuda.current_stream().wait_stream(self.stream)
        return positions
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-4]]:25: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: 'self.stream' is used as a side stream here, so it is taken to differ from the caller's current stream

    # Handed to the caller through a field of its own object.
    def fetch_into(self, minibatch, index: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            positions = index.argsort()
        torch.cuda.current_stream().wait_stream(self.stream)
        minibatch.positions = positions
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-4]]:25: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-17]]:14: note: 'self.stream' is used as a side stream here, so it is taken to differ from the caller's current stream
        return minibatch

    # Its twin records the block on the caller's stream first: silent.
    def fetch_recorded(self, index: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            positions = index.argsort()
        torch.cuda.current_stream().wait_stream(self.stream)
        positions.record_stream(torch.cuda.current_stream())
        return positions


# The maker may give no stream (`stream=None`): a side stream only on the
# paths where the class's own test finds one.
class OptionalFetcher:
    def __init__(self, stream=None):
        self.stream = stream

    def submit(self, index: torch.Tensor):
        if self.stream is not None:
            self.stream.wait_stream(torch.cuda.current_stream())
        return self.fetch(index)
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE+6]]:25: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE+4]]:14: note: 'self.stream' is used as a side stream here, so it is taken to differ from the caller's current stream
        # CHECK-NOTES: :[[@LINE-6]]:12: note: on the path reported, 'self.stream is not None' is true

    def fetch(self, index: torch.Tensor):
        with torch.cuda.stream(self.stream):
            positions = index.argsort()
            # CHECK-NOTES: :[[@LINE-1]]:25: warning: tensor 'index' is read on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-5]]:21: note: 'index' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-5]]:14: note: 'self.stream' is used as a side stream here, so it is taken to differ from the caller's current stream
            # CHECK-NOTES: :[[@LINE-15]]:12: note: on the path reported, 'self.stream is not None' is true
        return positions
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'positions' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-8]]:25: note: 'positions' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-10]]:14: note: 'self.stream' is used as a side stream here, so it is taken to differ from the caller's current stream
        # CHECK-NOTES: :[[@LINE-20]]:12: note: on the path reported, 'self.stream is not None' is true


# No test of None in the class: the attribute may be None wherever it is
# entered (stream(None) switches nothing), so it is not taken for a side
# stream. Silent.
class UntestedFetcher:
    def __init__(self, stream=None):
        self.stream = stream

    def fetch(self, index: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            positions = index.argsort()
        return positions
