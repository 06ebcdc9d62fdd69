# RUN: %check_streamsafe_py %s

# What a call of a method leaves in flight in its object's fields includes
# reads (docs/python.md, "Objects across methods"): a copy out of a device
# buffer on the object's side stream, or a non_blocking copy out of a
# pinned buffer, may still read it when the next call (of this method or
# another) writes it. ZeRO-style reducers and pinned staging buffers reused
# every step are this shape.
import torch


class Offload:
    def __init__(self, n):
        self.d2h = torch.cuda.Stream()
        self.buf = torch.empty(n, device="cuda")
        self.host = torch.empty(n, pin_memory=True)

    def step(self, grad: torch.Tensor):
        self.buf.copy_(grad)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'self.buf' is written on the caller's current stream while its read on attribute 'self.d2h' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+5]]:29: note: 'self.buf' is read on attribute 'self.d2h' here
        # CHECK-NOTES: :[[@LINE-4]]:9: note: in 'step', a method of the same object, which returns with it in flight; 'step' may run after it
        # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.d2h' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        self.d2h.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h):
            self.host.copy_(self.buf, non_blocking=True)


# Twins: the caller's stream waits for the side stream, or the host for the
# copy, before the method returns: silent.
class OffloadJoined:
    def __init__(self, n):
        self.d2h = torch.cuda.Stream()
        self.buf = torch.empty(n, device="cuda")
        self.host = torch.empty(n, pin_memory=True)

    def step(self, grad: torch.Tensor):
        self.buf.copy_(grad)
        self.d2h.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h):
            self.host.copy_(self.buf, non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.d2h)


class Staging:
    def __init__(self, n):
        self.pinned = torch.empty(n, pin_memory=True)
        self.gpu = torch.empty(n, device="cuda")

    def push(self, values):
        self.pinned.fill_(0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the host writes tensor 'self.pinned' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
        # CHECK-NOTES: :[[@LINE+2]]:24: note: the non_blocking copy is enqueued on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:9: note: in 'push', a method of the same object, which returns with it in flight; 'push' may run after it
        self.gpu.copy_(self.pinned, non_blocking=True)


class StagingSynced:
    def __init__(self, n):
        self.pinned = torch.empty(n, pin_memory=True)
        self.gpu = torch.empty(n, device="cuda")

    def push(self, values):
        self.pinned.fill_(0)
        self.gpu.copy_(self.pinned, non_blocking=True)
        torch.cuda.current_stream().synchronize()


# Megatron's inference bookkeeping (reduced): fields that are views of one
# pinned buffer (`self.lengths = self.buf[...].view(...)`) name its
# storage; a subscript store into one is a host write of the buffer; the
# buffer is copied into a tensor of another object, which the analysis does
# not follow, with non_blocking=True. The next step's host writes may race
# with the previous step's copy. One finding per copy it races with.
class Bookkeeping:
    def __init__(self, n, view):
        self.buf = torch.empty(8 * n, dtype=torch.uint8, device="cpu", pin_memory=True)
        self.lengths = self.buf[0 : 4 * n].view(torch.int32)
        self.offsets = self.buf[4 * n : 8 * n].view(torch.int32)
        self.gpu_view = view

    def step(self, lengths, offsets, n: int):
        self.lengths[:n] = lengths
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the host writes tensor 'self.lengths' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
        # CHECK-NOTES: :[[@LINE+3]]:33: note: the non_blocking copy is enqueued on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:9: note: in 'step', a method of the same object, which returns with it in flight; 'step' may run after it
        self.offsets[:n] = offsets
        self.gpu_view.buf.copy_(self.buf, non_blocking=True)


# Twin: the copy blocks: silent.
class BookkeepingBlocking:
    def __init__(self, n, view):
        self.buf = torch.empty(8 * n, dtype=torch.uint8, device="cpu", pin_memory=True)
        self.lengths = self.buf[0 : 4 * n].view(torch.int32)
        self.gpu_view = view

    def step(self, lengths, n: int):
        self.lengths[:n] = lengths
        self.gpu_view.buf.copy_(self.buf)
