# RUN: %check_streamsafe_py %s

# A stream a def gets from code the analysis cannot read (a manager's
# getter, a field of an object handed in) is any stream, the caller's
# current one too. A def that itself makes it wait for the current stream
# and enters it says it is another stream: it is taken to differ from the
# caller's current stream, as a stream parameter so used is
# (side-stream-parameters.py).
from typing import Optional

import torch


class Streams:
    _h2d: Optional[torch.cuda.Stream] = None

    @classmethod
    def h2d_stream(cls) -> torch.cuda.Stream:
        assert cls._h2d is not None
        return cls._h2d

    @classmethod
    def set_streams(cls, h2d=None):
        cls._h2d = h2d

    @classmethod
    def upload(cls, host: torch.Tensor):
        h2d = cls.h2d_stream()
        dev = torch.empty(host.shape, device="cuda")
        h2d.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(h2d):
            dev.copy_(host, non_blocking=True)
            dev.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'dev' is used on stream 'h2d' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream 'h2d' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to stream 'h2d' here
            # CHECK-NOTES: :[[@LINE-7]]:15: note: 'dev' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE+8]]:9: note: the last reference to 'dev' dies here, with no record_stream on stream 'h2d' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'h2d', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
        total = dev.sum()
        # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'dev' is read on the caller's current stream while its write on stream 'h2d' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-8]]:24: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-9]]:13: note: 'dev' is written on stream 'h2d' here
        # CHECK-NOTES: :[[@LINE-12]]:14: note: the current stream was set to stream 'h2d' here
        # CHECK-NOTES: :[[@LINE-14]]:9: note: 'h2d', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
        return total


def send(grad: torch.Tensor, state):
    comm = state.comm_stream
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        out = grad * 2
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on stream 'comm' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:23: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:15: note: 'out' is written on stream 'comm' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to stream 'comm' here
    # CHECK-NOTES: :[[@LINE-8]]:5: note: 'comm', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream


# Twins: the caller's stream waits before the read; a getter of the file
# that may give the current stream; a name bound twice; a local only
# synchronized (no sign it is another stream): silent.
class Twins:
    _h2d: Optional[torch.cuda.Stream] = None

    @classmethod
    def h2d_stream(cls) -> torch.cuda.Stream:
        assert cls._h2d is not None
        return cls._h2d

    @classmethod
    def maybe_stream(cls) -> torch.cuda.Stream:
        if cls._h2d is None:
            return torch.cuda.current_stream()
        return cls._h2d

    @classmethod
    def upload_waited(cls, host: torch.Tensor):
        h2d = cls.h2d_stream()
        dev = torch.empty(host.shape, device="cuda")
        h2d.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(h2d):
            dev.copy_(host, non_blocking=True)
            dev.mul_(2)
        torch.cuda.current_stream().wait_stream(h2d)
        return dev.sum()

    @classmethod
    def upload_maybe_current(cls, host: torch.Tensor):
        h2d = cls.maybe_stream()
        dev = torch.empty(host.shape, device="cuda")
        h2d.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(h2d):
            dev.copy_(host, non_blocking=True)
            dev.mul_(2)
        return dev.sum()


def send_rebound(grad: torch.Tensor, state, flag: bool):
    comm = state.comm_stream
    if flag:
        comm = state.other_stream
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        out = grad * 2
    return out.sum()


def send_synced(grad: torch.Tensor, state):
    comm = state.comm_stream
    comm.synchronize()
    out = grad * 2
    return out.sum()
