# RUN: %check_streamsafe_py %s -- --checks=-*,streamsafe-unsynchronized-access

# Which findings are shown is one policy for both front ends
# (lib/report/ShownFindings.h; the C++ twin is
# test/checkers/unsynchronized-access-one-place.cpp): one per place, check
# and wording, so two tensors racing at one place are two findings; a race
# wholly inside a helper run in place is shown once, by the helper's own
# analysis.
import torch


# Wrong: both operands are written on the current stream and read on s.
def both_operands(x: torch.Tensor):
    s = torch.cuda.Stream()
    a = x * 2
    b = x * 3
    with torch.cuda.stream(s):
        return torch.cat([a, b])


# Wrong, twice at one place: the helper's accesses race with the caller's
# writes, and each race is reported at the call, where the wait belongs.
def add_on(p: torch.Tensor, q: torch.Tensor, s: torch.cuda.Stream):
    with torch.cuda.stream(s):
        p.add_(1)
        q.add_(1)


def two_at_the_call(x: torch.Tensor):
    s = torch.cuda.Stream()
    a = x * 2
    b = x * 3
    add_on(a, b, s)


# Wrong, once: the helper races on its own, whoever calls it.
def helper(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x * 2
    with torch.cuda.stream(s):
        return y + 1


def first_caller(x: torch.Tensor):
    return helper(x)


def second_caller(x: torch.Tensor):
    return helper(x * 4)

# The findings, in order (lines above are not shifted by these):
# CHECK-NOTES: :18:26: warning: tensor 'a' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :17:10: note: the current stream is set to pool stream 's' here
# CHECK-NOTES: :15:9: note: 'a' is written on the caller's current stream here
# CHECK-NOTES: :18:26: warning: tensor 'b' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :17:10: note: the current stream is set to pool stream 's' here
# CHECK-NOTES: :16:9: note: 'b' is written on the caller's current stream here
# CHECK-NOTES: :33:5: warning: tensor 'p' (a view of 'a') is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :25:9: note: 'p' is written on pool stream 's' here, in 'add_on'
# CHECK-NOTES: :24:10: note: the current stream is set to pool stream 's' here
# CHECK-NOTES: :31:9: note: 'a' is written on the caller's current stream here
# CHECK-NOTES: :33:5: warning: tensor 'q' (a view of 'b') is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :26:9: note: 'q' is written on pool stream 's' here, in 'add_on'
# CHECK-NOTES: :24:10: note: the current stream is set to pool stream 's' here
# CHECK-NOTES: :32:9: note: 'b' is written on the caller's current stream here
# CHECK-NOTES: :41:16: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :40:10: note: the current stream is set to pool stream 's' here
# CHECK-NOTES: :39:9: note: 'y' is written on the caller's current stream here
