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
