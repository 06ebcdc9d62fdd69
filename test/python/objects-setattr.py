# RUN: %check_streamsafe_py %s

# `setattr` with a name not written out (docs/python.md, "Streams kept in
# objects, globals and parameters"): on a method's own object, any
# attribute of its class may hold anything afterwards, so its stream
# attributes are not proven fresh; on an object a def holds in a parameter
# or a local (a module a helper walks), it names no attribute of the
# file's classes.
import torch


class Gatherer:
    def __init__(self):
        self.side = torch.cuda.Stream()

    # Wrong: the caller's tensor is used on the side stream, which never
    # waited for the caller's current stream.
    def gather(self, x: torch.Tensor):
        with torch.cuda.stream(self.side):
            x.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is written on attribute 'self.side', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.side' here
            # CHECK-NOTES: :[[@LINE-5]]:22: note: 'x' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-10]]:9: note: 'self.side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


def cast_buffers(module, buffers):
    for key, buf in buffers.items():
        setattr(module, key, buf)


class Patched:
    def __init__(self, names):
        self.side = torch.cuda.Stream()
        for n in names:
            setattr(self, n, None)

    # Silent: any attribute of a Patched may be anything after __init__.
    def gather(self, x: torch.Tensor):
        with torch.cuda.stream(self.side):
            x.mul_(2)


# The same for what an attribute holds: a pinned buffer the class makes is
# read on the host while the copy into it may run (reported); with a
# setattr of a computed name on its own object it may be any value there
# (silent).
class Stager:
    def __init__(self, n):
        self.host = torch.empty(n, pin_memory=True)

    def fetch(self, x: torch.Tensor):
        self.host.copy_(x, non_blocking=True)
        return self.host.sum().item()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: the host reads tensor 'self.host' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
        # CHECK-NOTES: :[[@LINE-3]]:9: note: the non_blocking copy is enqueued on the caller's current stream here


class PatchedStager:
    def __init__(self, n, extra):
        self.host = torch.empty(n, pin_memory=True)
        for k in extra:
            setattr(self, k, extra[k])

    def fetch(self, x: torch.Tensor):
        self.host.copy_(x, non_blocking=True)
        return self.host.sum().item()
