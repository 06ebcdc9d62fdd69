# RUN: %check_streamsafe_py %s

# Paths chosen by values that never change while a def runs (docs/python.md,
# "Paths chosen by flags"): a branch on a parameter the def never rebinds,
# a local bound once, or an attribute only __init__ sets keeps the paths
# apart, so the race on the path where the flag is set is reported, and a
# path that tests the flag both ways does not exist.
import torch
import torch.distributed as dist


class Reducer:
    def __init__(self, overlap):
        self._overlap = overlap
        if self._overlap:
            self._comm_stream = torch.cuda.Stream()

    # Wrong: with overlap, flat is written on the caller's stream and
    # reduced on the communication stream, which never waited for it.
    def reduce(self, flat: torch.Tensor):
        flat /= 2
        if self._overlap:
            stream = self._comm_stream
        else:
            stream = torch.cuda.current_stream()
        with torch.cuda.stream(stream):
            dist.all_reduce(flat)
            # CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'flat' is read on attribute 'self._comm_stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._comm_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._comm_stream' here
            # CHECK-NOTES: :[[@LINE-9]]:9: note: 'flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-15]]:13: note: 'self._comm_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-10]]:12: note: on the path reported, 'self._overlap' is true

    # Right: the same test again makes the communication stream wait; the
    # path that chose it and skips the wait does not exist.
    def reduce_ordered(self, flat: torch.Tensor):
        flat /= 2
        if self._overlap:
            stream = self._comm_stream
        else:
            stream = torch.cuda.current_stream()
        if self._overlap:
            stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            dist.all_reduce(flat)

    # Wrong: a conditional expression on the flag binds one stream per path.
    def reduce_choice(self, flat: torch.Tensor):
        flat /= 2
        stream = self._comm_stream if self._overlap else torch.cuda.current_stream()
        with torch.cuda.stream(stream):
            dist.all_reduce(flat)
            # CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'flat' is read on attribute 'self._comm_stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._comm_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._comm_stream' here
            # CHECK-NOTES: :[[@LINE-6]]:9: note: 'flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-40]]:13: note: 'self._comm_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-7]]:39: note: on the path reported, 'self._overlap' is true


# Wrong: a parameter tested twice; the side stream is used on one path.
def fill(x: torch.Tensor, use_side):
    side = torch.cuda.Stream()
    x.mul_(2)
    s = side if use_side else torch.cuda.current_stream()
    with torch.cuda.stream(s):
        x.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'x' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:5: note: 'x' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-6]]:17: note: on the path reported, 'use_side' is true


# Right: the parameter tested twice, the wait on the path that needs it.
def fill_ordered(x: torch.Tensor, use_side):
    side = torch.cuda.Stream()
    x.mul_(2)
    s = side if use_side else torch.cuda.current_stream()
    if use_side:
        side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        x.add_(1)
    if use_side:
        torch.cuda.current_stream().wait_stream(side)


# Right: `s is not None` tested twice.
def maybe_side(x: torch.Tensor, s: torch.cuda.Stream = None):
    x.mul_(2)
    if s is not None:
        s.wait_stream(torch.cuda.current_stream())
    if s is not None:
        with torch.cuda.stream(s):
            x.add_(1)


# Wrong: a number compared with a constant, tested twice (apex's halo
# exchange: streams made under `if group_size > 1:` and used under a second
# one): the two tests take the same branch.
def fill_grouped(x: torch.Tensor, group_size: int):
    x.mul_(2)
    if group_size > 1:
        side = torch.cuda.Stream()
    else:
        side = torch.cuda.current_stream()
    if group_size > 1:
        with torch.cuda.stream(side):
            x.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-10]]:5: note: 'x' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-10]]:8: note: on the path reported, 'group_size > 1' is true


# Right: the wait made under the same comparison covers that path.
def fill_grouped_ordered(x: torch.Tensor, group_size: int):
    x.mul_(2)
    if group_size > 1:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
    else:
        side = torch.cuda.current_stream()
    if group_size > 1:
        with torch.cuda.stream(side):
            x.add_(1)
        torch.cuda.current_stream().wait_stream(side)


class Toggled:
    def __init__(self):
        self._overlap = True
        self._comm_stream = torch.cuda.Stream()

    def toggle(self):
        self._overlap = not self._overlap

    # Not tracked: another method changes the flag, so the two tests may
    # disagree; the stream is one of two, and nothing is claimed about it.
    def reduce(self, flat: torch.Tensor):
        flat /= 2
        if self._overlap:
            stream = self._comm_stream
        else:
            stream = torch.cuda.current_stream()
        if self._overlap:
            stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            dist.all_reduce(flat)


# A condition whose value is known on a CUDA machine takes one path only:
# DeepSpeed's accelerator answers resolves_data_dependency() and
# is_synchronized_device() with False on CUDA (lib/model/Accelerators.h).
from deepspeed.accelerator import get_accelerator


# Right: on CUDA the wait is always made.
def average_waits(flat: torch.Tensor, reduction_stream: torch.cuda.Stream):
    flat.mul_(2)
    if not get_accelerator().resolves_data_dependency():
        reduction_stream.wait_stream(get_accelerator().current_stream())
    with get_accelerator().stream(reduction_stream):
        dist.all_reduce(flat)


# Wrong: on CUDA the wait is never made.
def average_never_waits(flat: torch.Tensor):
    side = get_accelerator().Stream()
    flat.mul_(2)
    if get_accelerator().is_synchronized_device():
        side.wait_stream(get_accelerator().current_stream())
    with get_accelerator().stream(side):
        dist.all_reduce(flat)
        # CHECK-NOTES: :[[@LINE-1]]:25: warning: tensor 'flat' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'flat' is written on the caller's current stream here


# A helper run in place that chooses its stream by a flag the caller has
# not tested: the caller's paths are split on the flag before the call, so
# what the helper leaves on each stream stays apart (a case split on a
# value that never changes while the def runs).
class Averager:
    def __init__(self, overlap):
        self.overlap = overlap
        self.red = torch.cuda.Stream()
        self.buf = torch.empty(4, device="cuda")

    def average(self):
        if self.overlap:
            stream = self.red
            stream.wait_stream(torch.cuda.current_stream())
        else:
            stream = torch.cuda.current_stream()
        with torch.cuda.stream(stream):
            self.buf.div_(2)

    def reduce(self):
        self.average()

    # Wrong: with overlap, the division on the reduction stream may still
    # run when the caller's stream overwrites the buffer.
    def hook(self, g: torch.Tensor):
        self.reduce()
        self.buf.copy_(g)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'self.buf' is written on the caller's current stream while its write on attribute 'self.red' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-11]]:29: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-12]]:13: note: 'self.buf' is written on attribute 'self.red' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: in 'reduce', called here
        # CHECK-NOTES: :[[@LINE-15]]:14: note: the current stream was set to attribute 'self.red' here
        # CHECK-NOTES: :[[@LINE-25]]:9: note: 'self.red' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        # CHECK-NOTES: :[[@LINE-22]]:12: note: on the path reported, 'self.overlap' is true

    # Right: the wait under the same flag covers exactly that path.
    def hook_ordered(self, g: torch.Tensor):
        self.reduce()
        if self.overlap:
            torch.cuda.current_stream().wait_stream(self.red)
        self.buf.copy_(g)
