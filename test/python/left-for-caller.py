# RUN: %check_streamsafe_py %s

# Writes left in flight for the caller (docs/checks/unsynchronized-access.md,
# "Writes the caller cannot wait for"). A def that writes a tensor its
# caller holds (a parameter, an element of its object's dict or list) on a
# stream the caller cannot wait for, and returns with the write in flight,
# lets the caller's next use on its current stream run before the write.
# The caller cannot wait for a stream the def made, nor for an object's
# stream that no code of the file waits for. A wait before the return, an
# event recorded on the stream (handed on), a stream the caller passed in,
# and a class that offers a wait keep it silent (pytorch/ao's CPU offload
# optimizer, reduced).
import torch


# Wrong: the caller's 'dst' is written on a stream made here, and nothing
# makes the caller's stream wait for it.
def upload(dst, src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'dst' is written on pool stream 's', which may still run when 'upload' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-3]]:42: note: 'upload' returns here; 'dst' outlives the call, and its next use on the caller's current stream may run before the write


# Right: the caller's stream waits before the return.
def upload_joined(dst, src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)
    torch.cuda.current_stream().wait_stream(s)


# Right: the event recorded after the write is handed to the caller.
def upload_event(dst, src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)
    return s.record_event()


# Right: the caller gave the stream; it waits for it as it chooses.
def upload_on(dst, src, s):
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)


# Right: a tensor made here and not handed out dies here (its block is
# judged by missing-record-stream, not left for the caller).
def scratch(src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    tmp = torch.empty_like(src)
    with torch.cuda.stream(s):
        tmp.copy_(src, non_blocking=True)
        tmp.record_stream(s)


class Offload:
    def __init__(self, params):
        self.stream = torch.cuda.Stream()
        self.host = dict()
        self.optim = dict()
        self.queue = dict()
        for p in params:
            self.host[p] = torch.empty_like(p, device="cpu", pin_memory=True)
            p.register_post_accumulate_grad_hook(self.hook)

    def hook(self, p):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.host[p].copy_(p.grad, non_blocking=True)
        self.queue[p] = self.stream.record_event()

    # Wrong (ao cpu_offload.py:108): each parameter is copied back on the
    # object's stream, which no code of the file ever waits for; the next
    # forward reads it on the current stream. The events synchronized here
    # were recorded before the copies.
    def step(self):
        for p, ev in self.queue.items():
            ev.synchronize()
            self.optim[p].step()
            h = self.host[p]
            with torch.cuda.stream(self.stream):
                p.copy_(h, non_blocking=True)
                # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'p' is written on attribute 'self.stream', which may still run when 'step' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-3]]:18: note: the current stream is set to attribute 'self.stream' here
                # CHECK-NOTES: :[[@LINE+3]]:27: note: 'step' returns here; 'p' outlives the call, and its next use on the caller's current stream may run before the write
                # CHECK-NOTES: :[[@LINE-28]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
                # CHECK-NOTES: :[[@LINE-29]]:9: note: no code of the file makes another stream or the host wait for 'self.stream' (a wait_stream, a synchronize, an event waited): its users cannot wait for its work
        self.queue.clear()


class Prefetch:
    def __init__(self, bufs):
        self.side = torch.cuda.Stream()
        self.bufs = bufs

    # Right: the class offers its users a wait for its stream.
    def load(self, src):
        self.side.wait_stream(torch.cuda.current_stream())
        for b in self.bufs:
            with torch.cuda.stream(self.side):
                b.copy_(src, non_blocking=True)

    def wait(self):
        torch.cuda.current_stream().wait_stream(self.side)


class Marked:
    def __init__(self, bufs):
        self.copier = torch.cuda.Stream()
        self.bufs = bufs
        self.done = None

    # Right: an event attribute recorded on the stream is a handle its
    # users wait on.
    def load(self, src):
        self.copier.wait_stream(torch.cuda.current_stream())
        for b in self.bufs:
            with torch.cuda.stream(self.copier):
                b.copy_(src, non_blocking=True)

    def mark(self):
        self.done = self.copier.record_event()

    def wait(self):
        self.done.wait()


class Lookup:
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()
        self.host = dict()
        self.optim = dict()

    # Right: `self.optim[p]` hashes p, and reads none of its memory while
    # the copy into it runs.
    def step(self):
        for p, h in self.host.items():
            with torch.cuda.stream(self.copy_stream):
                p.copy_(h, non_blocking=True)
            self.optim[p].zero_grad()
        torch.cuda.current_stream().wait_stream(self.copy_stream)
