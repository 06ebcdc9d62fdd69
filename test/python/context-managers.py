# RUN: %check_streamsafe_py %s

# A class of the file with __enter__ and __exit__ used as `with Cls(...):`
# runs in place: __init__ and __enter__ at the with, __exit__ at every exit
# of its body. Its stream and event attributes are followed on that object,
# so a class that saves the current stream, sets another and sets the saved
# one back is a guard. __enter__ and __exit__ are not judged on their own
# by unrestored-current-stream: leaving the stream set is their job.
# A @contextlib.contextmanager generator of the file with one yield (in its
# body, in a try directly in it, or in a `with torch.cuda.stream(s)`
# directly in it) runs the same way: its code before the yield at the with,
# the code after it (and the finally block, or the restore of the stream)
# at every exit.
import contextlib
from contextlib import contextmanager

import torch


# apex's CuDNNManager, reduced: both directions ordered.
class OnSide:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def __enter__(self):
        self.prev = torch.cuda.current_stream()
        self.side.wait_stream(self.prev)
        torch.cuda.set_stream(self.side)
        return self

    def __exit__(self, *exc):
        self.prev.wait_stream(self.side)
        torch.cuda.set_stream(self.prev)


# The same without the join in __exit__.
class OnSideNoJoin:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def __enter__(self):
        self.prev = torch.cuda.current_stream()
        self.side.wait_stream(self.prev)
        torch.cuda.set_stream(self.side)

    def __exit__(self, *exc):
        torch.cuda.set_stream(self.prev)


# Sets the stream it is given and never restores it.
class NoRestore:
    def __init__(self, s):
        self.s = s

    def __enter__(self):
        torch.cuda.set_stream(self.s)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'left_set'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE+28]]:5: note: 'left_set' can return here with the stream still set

    def __exit__(self, *exc):
        pass


def guarded(x: torch.Tensor):
    with OnSide():
        y = x * 2
    y.add_(1)
    return y


def not_joined(x: torch.Tensor):
    with OnSideNoJoin():
        y = x * 2
    y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 'OnSideNoJoin().side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-29]]:9: note: the current stream is set to the caller's current stream here
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on pool stream 'OnSideNoJoin().side' here
    # CHECK-NOTES: :[[@LINE-34]]:9: note: the current stream was set to pool stream 'OnSideNoJoin().side' here
    return y


def left_set(x: torch.Tensor):
    side = torch.cuda.Stream()
    with NoRestore(side):
        y = x * 2
    return y


# __exit__ runs on a return from inside the body, and on an exception.
def early_exits(x: torch.Tensor):
    with OnSide():
        if x.dim() > 1:
            return x.sum()
        if x.dim() == 0:
            raise ValueError("scalar")
        y = x + 1
    return y


# `with Cls() as x`, __enter__ returning self: x is the object, and its
# methods run in place on it.
class Stage:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def __enter__(self):
        self.prev = torch.cuda.current_stream()
        self.side.wait_stream(self.prev)
        torch.cuda.set_stream(self.side)
        return self

    def __exit__(self, *exc):
        torch.cuda.set_stream(self.prev)

    def join(self):
        self.prev.wait_stream(self.side)


def staged_and_joined(x: torch.Tensor):
    with Stage() as st:
        y = x * 2
        st.join()
    y.add_(1)
    return y


def staged_not_joined(x: torch.Tensor):
    with Stage() as st:
        y = x * 2
    y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 'Stage().side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-19]]:9: note: the current stream is set to the caller's current stream here
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on pool stream 'Stage().side' here
    # CHECK-NOTES: :[[@LINE-25]]:9: note: the current stream was set to pool stream 'Stage().side' here
    return y


# A class with a base (its methods may be the base's) is not run: unknown.
class Derived(OnSide):
    pass


def derived(x: torch.Tensor):
    with Derived():
        y = x * 2
    y.add_(1)
    return y


# The same guard as a generator.
@contextlib.contextmanager
def on_stream(s):
    prev = torch.cuda.current_stream()
    s.wait_stream(prev)
    torch.cuda.set_stream(s)
    try:
        yield
    finally:
        prev.wait_stream(s)
        torch.cuda.set_stream(prev)


@contextmanager
def no_restore(s):
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'generator_left_set'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+21]]:5: note: 'generator_left_set' can return here with the stream still set
    yield


def generator_guard(x: torch.Tensor):
    side = torch.cuda.Stream()
    with on_stream(side):
        y = x * 2
        if y.dim() > 1:
            return y.sum()
    y.add_(1)
    return y


def generator_left_set(x: torch.Tensor):
    side = torch.cuda.Stream()
    with no_restore(side):
        y = x * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-21]]:5: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:24: note: 'x' is assumed ready on the caller's current stream at function entry
    return y


# The yield inside `with torch.cuda.stream(side)`: the caller's with body
# runs on side, and the stream is set back after it.
@contextmanager
def on_side_only(side):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        yield


@contextmanager
def on_side_joined(side):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        yield
    torch.cuda.current_stream().wait_stream(side)


# Wrong: nothing joins side back before y is read on the caller's stream.
def generator_stream_block_unjoined(x: torch.Tensor):
    side = torch.cuda.Stream()
    with on_side_only(side):
        y = x * 2
    return y.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-18]]:14: note: the current stream is set to the caller's current stream here
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-21]]:10: note: the current stream was set to pool stream 'side' here


# Right: the generator joins side back after the block (and y, made on
# side, is recorded for the caller's stream).
def generator_stream_block_joined(x: torch.Tensor):
    side = torch.cuda.Stream()
    with on_side_joined(side):
        y = x * 2
    y.record_stream(torch.cuda.current_stream())
    return y.sum()
