# RUN: %check_streamsafe_py %s

# A method starts from what the other methods of its object's class leave
# in the object's tensor fields (lib/engine/TransferFields.cpp,
# docs/python.md "Objects across methods"): each method is analysed on its
# own, what it leaves in flight in `self.x` when it returns is carried to
# the others (and to its own next call), and a method that reads or writes
# the field on another stream with no wait is reported, with notes at the
# write and at the method that left it in flight.
import torch


# Wrong: `fill` writes the buffer on the caller's stream; `offload` copies
# it on the copy stream, which never waits for the caller's stream
# (PatrickStar's Chunk.move).
class Chunk:
    def __init__(self, n):
        self.copy_stream = torch.cuda.Stream()
        self.payload = None

    def fill(self, n):
        self.payload = torch.zeros(n, device="cuda")

    def offload(self):
        host = torch.empty(self.payload.shape, pin_memory=True)
        with torch.cuda.stream(self.copy_stream):
            host.copy_(self.payload, non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'self.payload' is read on attribute 'self.copy_stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.copy_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.copy_stream' here
            # CHECK-NOTES: :[[@LINE-8]]:24: note: 'self.payload' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-10]]:9: note: in 'fill', a method of the same object, which returns with it in flight; 'offload' may run after it
            # CHECK-NOTES: :[[@LINE-14]]:9: note: 'self.copy_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        return host


# Right: the copy stream waits for the caller's stream first.
class OrderedChunk:
    def __init__(self, n):
        self.copy_stream = torch.cuda.Stream()
        self.payload = None

    def fill(self, n):
        self.payload = torch.zeros(n, device="cuda")

    def offload(self):
        host = torch.empty(self.payload.shape, pin_memory=True)
        self.copy_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.copy_stream):
            host.copy_(self.payload, non_blocking=True)
        return host


# Wrong: `prefetch` leaves the next batch in flight on the side stream;
# `take` reads it on the caller's stream with no wait (the classic data
# prefetcher without its wait_stream).
class Prefetcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.next = None

    def prefetch(self, batch: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.next = batch.to("cuda", non_blocking=True)

    def take(self):
        return self.next * 2
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.next' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-5]]:25: note: 'self.next' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-9]]:9: note: in 'prefetch', a method of the same object, which returns with it in flight; 'take' may run after it
        # CHECK-NOTES: :[[@LINE-13]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Right: the caller's stream waits for the side stream before the read.
class WaitingPrefetcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.next = None

    def prefetch(self, batch: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.next = batch.to("cuda", non_blocking=True)

    def take(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        return self.next * 2


# Right: a field the constructor fills by a blocking copy is complete when
# the constructor returns; the side stream may read it (apex's prefetcher
# mean and std).
class Normalizer:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.mean = torch.tensor([0.485, 0.456, 0.406]).cuda().view(1, 3, 1, 1)

    def normalize(self, batch: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            out = batch.to("cuda", non_blocking=True)
            out.sub_(self.mean)
        torch.cuda.current_stream().wait_stream(self.stream)
        out.record_stream(torch.cuda.current_stream())
        return out


# `x is None` compares identities on the host: no tensor op, no wait. The
# write `fill` leaves in flight stays in flight after `size()` (run in
# place) tests the field.
class Sized:
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()
        self.payload = None

    def size(self):
        if self.payload is None:
            return 0
        return self.payload.numel()

    def fill(self, n):
        self.payload = torch.zeros(n, device="cuda")
        return self.size()

    def offload(self):
        host = torch.empty(self.payload.shape, pin_memory=True)
        with torch.cuda.stream(self.copy_stream):
            host.copy_(self.payload, non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'self.payload' is read on attribute 'self.copy_stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.copy_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.copy_stream' here
            # CHECK-NOTES: :[[@LINE-9]]:24: note: 'self.payload' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-11]]:9: note: in 'fill', a method of the same object, which returns with it in flight; 'offload' may run after it
            # CHECK-NOTES: :[[@LINE-20]]:9: note: 'self.copy_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        return host


# Right: a private helper that the class's own methods call on self leaves
# its write in flight for its caller, which joins it; the state between
# calls of the object is its caller's (apex's _pipeline_step under step()).
class Pipelined:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.params = None

    def _pipeline(self, n):
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            self.params = torch.ones(n, device="cuda")

    def step(self, n):
        self._pipeline(n)
        torch.cuda.current_stream().wait_stream(self.side)

    def norm(self):
        return self.params.norm()


# Right: a pinned host buffer that an async copy fills is handed on under
# the contract of the event recorded after the copy; what the host does with
# it in another method is not carried (Megatron's log-prob transfer).
class HostStaging:
    def __init__(self, n):
        self.copy_stream = torch.cuda.Stream()
        self.staging = torch.empty(n, device="cpu", pin_memory=True)
        self.ready = torch.cuda.Event()

    def start(self, src: torch.Tensor):
        self.copy_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.copy_stream):
            self.staging.copy_(src, non_blocking=True)
            self.ready.record()

    def overwrite(self, value: float):
        self.staging.fill_(value)


# Wrong: the batch `preload` allocates on the prefetcher's own stream is
# handed back with no record_stream on the caller's stream (apex's
# data_prefetcher): when the caller lets go of it, the allocator may give
# the block to the next preload while the caller's stream still reads it.
class HandsBack:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.next = None

    def preload(self, batch: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.next = batch.to("cuda", non_blocking=True)

    def take(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        batch = self.next
        return batch
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'batch' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-7]]:25: note: 'batch' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-14]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Right: recorded on the caller's stream before it is handed back.
class RecordsBack:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.next = None

    def preload(self, batch: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.next = batch.to("cuda", non_blocking=True)

    def take(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        batch = self.next
        batch.record_stream(torch.cuda.current_stream())
        return batch
