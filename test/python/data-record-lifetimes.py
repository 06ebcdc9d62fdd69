# RUN: %check_streamsafe_py %s

# A local record (a dataclass of this file) or dict the def uses only
# through its members is its members: each tensor member dies when the
# def returns, as a local does, and owes a record_stream on the side
# stream that used it. The C++ twin is
# test/checkers/missing-record-stream-local-structs.cpp.
from dataclasses import dataclass

import torch


@dataclass
class Holder:
    t: torch.Tensor


def member_dies(x: torch.Tensor):
    s = torch.cuda.Stream()
    h = Holder(torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.t.copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'h.t' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:16: note: 'h.t' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:21: note: the last reference to 'h.t' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


def member_recorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    h = Holder(torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.t.copy_(x)
        h.t.record_stream(s)


def returned(x: torch.Tensor):
    s = torch.cuda.Stream()
    h = Holder(torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.t.copy_(x)
    torch.cuda.current_stream().wait_stream(s)
    return h


def handed_on(x: torch.Tensor, keep):
    s = torch.cuda.Stream()
    h = Holder(torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.t.copy_(x)
    torch.cuda.current_stream().wait_stream(s)
    keep(h)


def kept_by_a_closure(x: torch.Tensor):
    s = torch.cuda.Stream()
    h = Holder(torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        h.t.copy_(x)
    return lambda: h.t
