# RUN: %check_streamsafe_py %s

# A stream attribute __init__ chooses by a flag it keeps: a fresh stream
# when the flag is set, the current stream (or anything else) when not. A
# method that uses it starts on one path per value of the flag: the race on
# the path where the flag is set is reported, and a test of the same flag
# in the method takes the path it took.
import torch
import torch.distributed as dist


class Broadcaster:
    def __init__(self, overlap: bool, n: int):
        self._overlap = overlap
        self.fp16 = torch.zeros(n, device="cuda")
        if self._overlap:
            self._comm = torch.cuda.Stream()
        else:
            self._comm = torch.cuda.current_stream()

    # With the flag set, the comm stream never waits for the copy.
    def step(self, fp32: torch.Tensor):
        self.fp16.copy_(fp32)
        with torch.cuda.stream(self._comm):
            dist.broadcast(self.fp16, src=0)
            # CHECK-NOTES: :[[@LINE-1]]:28: warning: tensor 'self.fp16' is read on attribute 'self._comm' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._comm' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._comm' here
            # CHECK-NOTES: :[[@LINE-5]]:9: note: 'self.fp16' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-12]]:13: note: 'self._comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-14]]:12: note: on the path reported, 'self._overlap' is true

    # It waits first: silent on both paths.
    def step_waited(self, fp32: torch.Tensor):
        self.fp16.copy_(fp32)
        self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            dist.broadcast(self.fp16, src=0)

    # It waits only where the flag is set, which is where the stream is a
    # side stream: the path that skips the wait and has a side stream does
    # not exist. Silent.
    def step_waited_when_overlapping(self, fp32: torch.Tensor):
        self.fp16.copy_(fp32)
        if self._overlap:
            self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            dist.broadcast(self.fp16, src=0)


# The same choice written as a conditional expression, the fresh stream on
# the flag's false edge.
class Offloader:
    def __init__(self, sync: bool):
        self.sync = sync
        self.h2d = torch.cuda.current_stream() if self.sync else torch.cuda.Stream()

    def reload(self, host: torch.Tensor, out: torch.Tensor):
        with torch.cuda.stream(self.h2d):
            out.copy_(host, non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'out' is written on attribute 'self.h2d', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.h2d' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.h2d' here
            # CHECK-NOTES: :[[@LINE-5]]:42: note: 'out' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'self.h2d' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-9]]:51: note: on the path reported, 'self.sync' is false
            # CHECK-NOTES: :[[@LINE-6]]:23: warning: tensor 'host' is read on attribute 'self.h2d', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.h2d' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-8]]:14: note: the current stream is set to attribute 'self.h2d' here
            # CHECK-NOTES: :[[@LINE-10]]:22: note: 'host' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-13]]:9: note: 'self.h2d' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-14]]:51: note: on the path reported, 'self.sync' is false


# Chosen by a parameter of __init__ that is not kept: no path to keep
# apart, the attribute stays unknown. Silent.
class Untracked:
    def __init__(self, overlap: bool):
        if overlap:
            self._comm = torch.cuda.Stream()
        else:
            self._comm = torch.cuda.current_stream()

    def step(self, x: torch.Tensor):
        x.add_(1)
        with torch.cuda.stream(self._comm):
            x.mul_(2)


# The default, overridden under the flag, in a private method only
# __init__ calls (Megatron's hybrid optimizer): the stream is the object's
# own on the flag's path, the current stream on the other.
class HybridCopier:
    def __init__(self, overlap):
        self.overlap = overlap
        self._init_streams()

    def _init_streams(self):
        self._h2d_stream = torch.cuda.current_stream()
        if self.overlap:
            self._h2d_stream = torch.cuda.Stream()

    # Wrong: with overlap, the copy back runs on the h2d stream and the
    # caller's stream reads the parameter with no wait.
    def copy_back(self, gpu: torch.Tensor, cpu: torch.Tensor):
        self._h2d_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._h2d_stream):
            gpu.copy_(cpu, non_blocking=True)
        return gpu.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'gpu' is read on the caller's current stream while its write on attribute 'self._h2d_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:46: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 'gpu' is written on attribute 'self._h2d_stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self._h2d_stream' here
        # CHECK-NOTES: :[[@LINE-13]]:13: note: 'self._h2d_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        # CHECK-NOTES: :[[@LINE-15]]:12: note: on the path reported, 'self.overlap' is true

    # Right: the wait under the same flag.
    def copy_back_ordered(self, gpu: torch.Tensor, cpu: torch.Tensor):
        self._h2d_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._h2d_stream):
            gpu.copy_(cpu, non_blocking=True)
        if self.overlap:
            torch.cuda.current_stream().wait_stream(self._h2d_stream)
        return gpu.sum()


# Re-set by a hook that runs after construction (Megatron's state-dict
# hook): not chosen once, so not followed (silent).
class ReloadedCopier:
    def __init__(self, overlap):
        self.overlap = overlap
        self._init_streams()

        def on_load():
            self._init_streams()

        self.on_load = on_load

    def _init_streams(self):
        self._h2d_stream = torch.cuda.current_stream()
        if self.overlap:
            self._h2d_stream = torch.cuda.Stream()

    def copy_back(self, gpu: torch.Tensor, cpu: torch.Tensor):
        self._h2d_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._h2d_stream):
            gpu.copy_(cpu, non_blocking=True)
        return gpu.sum()
