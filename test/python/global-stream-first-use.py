# RUN: %check_streamsafe_py %s

# A module global made on first use: `None` at the top level, a fresh
# stream in the def that declares it global. Every assignment is a fresh
# stream or None, so it is one stream of its own for every def, not the
# caller's current stream (docs/python.md, "Streams kept in objects,
# globals and parameters").

import torch

_SIDE = None


def side_stream():
    global _SIDE
    if _SIDE is None:
        _SIDE = torch.cuda.Stream()
    return _SIDE


def offload(t: torch.Tensor):
    with torch.cuda.stream(side_stream()):
        cpu = t.to("cpu", non_blocking=True)
    # CHECK-NOTES: :[[@LINE-1]]:15: warning: tensor 't' is read on global stream '_SIDE', but it is only known to be ready on the caller's current stream; nothing makes global stream '_SIDE' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to global stream '_SIDE' here
    # CHECK-NOTES: :[[@LINE-5]]:13: note: 't' is assumed ready on the caller's current stream at function entry
    # CHECK-NOTES: :17:17: note: '_SIDE' is given a fresh stream here and never another stream, so it is not the caller's current stream
    return cpu


def offload_after_wait(t: torch.Tensor):
    side = side_stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        cpu = t.to("cpu", non_blocking=True)
    return cpu


# Silent: a global some def gives the current stream may be the caller's.
_MAYBE = None


def maybe_stream():
    global _MAYBE
    if _MAYBE is None:
        _MAYBE = torch.cuda.current_stream()
    return _MAYBE


def offload_maybe(t: torch.Tensor):
    with torch.cuda.stream(maybe_stream()):
        cpu = t.to("cpu", non_blocking=True)
    return cpu


# Silent: a global that is also rebound by a tuple target.
_PAIR = None


def make_pair():
    global _PAIR
    _PAIR, other = torch.cuda.Stream(), 1
    return other


def offload_pair(t: torch.Tensor):
    make_pair()
    with torch.cuda.stream(_PAIR):
        cpu = t.to("cpu", non_blocking=True)
    return cpu
