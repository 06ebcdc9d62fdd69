# RUN: %check_streamsafe_py %s

# A method analysed on its own: `self` is an object of its class. An
# attribute every assignment of the class gives a fresh stream (or None)
# is a stream of its own, not the caller's current stream, in every method.
import dataclasses

import torch


# An offload handler: __init__ makes the copy stream and an event.
class Offloader:
    def __init__(self):
        self.d2h_stream = torch.cuda.Stream()
        self.done = torch.cuda.Event()

    # Forks to the copy stream without making it wait for x's producer.
    def offload(self, x: torch.Tensor):
        with torch.cuda.stream(self.d2h_stream):
            y = x.to("cpu", non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'x' is read on attribute 'self.d2h_stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.d2h_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.d2h_stream' here
            # CHECK-NOTES: :[[@LINE-5]]:23: note: 'x' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-10]]:9: note: 'self.d2h_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        return y

    # The correct twin: the copy stream waits for the current stream first.
    def offload_after_wait(self, x: torch.Tensor):
        self.d2h_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h_stream):
            y = x.to("cpu", non_blocking=True)
        return y

    # Joins without making the current stream wait: records only.
    def wait(self):
        self.done.record(self.d2h_stream)

    def wait_and_join(self):
        self.done.record(self.d2h_stream)
        torch.cuda.current_stream().wait_event(self.done)

    # The fork is right; the join it calls (run in place on the same
    # attributes) does not make the current stream wait before y is read.
    def scale_then_wait(self, x: torch.Tensor):
        self.d2h_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h_stream):
            y = x * 2
        self.wait()
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on the caller's current stream while its write on attribute 'self.d2h_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:22: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-5]]:17: note: 'y' is written on attribute 'self.d2h_stream' here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.d2h_stream' here
        # CHECK-NOTES: :[[@LINE-40]]:9: note: 'self.d2h_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        y.record_stream(torch.cuda.current_stream())
        return z

    def scale_then_join(self, x: torch.Tensor):
        self.d2h_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.d2h_stream):
            y = x * 2
        self.wait_and_join()
        z = y + 1
        y.record_stream(torch.cuda.current_stream())
        return z


# A communicator: the stream is made in __init__ (None until a device is
# known), used by an allreduce-like method.
class Communicator:
    comm_stream: torch.cuda.Stream  # an annotation: no assignment

    def __init__(self, enabled):
        self.comm_stream = torch.cuda.Stream(priority=-1) if enabled else None

    def allreduce(self, grad: torch.Tensor):
        grad.mul_(0.5)
        with torch.cuda.stream(self.comm_stream):
            grad.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'grad' is written on attribute 'self.comm_stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.comm_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.comm_stream' here
            # CHECK-NOTES: :[[@LINE-5]]:9: note: 'grad' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.comm_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        torch.cuda.current_stream().wait_stream(self.comm_stream)
        grad.record_stream(self.comm_stream)
        return grad

    def allreduce_ordered(self, grad: torch.Tensor):
        grad.mul_(0.5)
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            grad.add_(1)
        torch.cuda.current_stream().wait_stream(self.comm_stream)
        grad.record_stream(self.comm_stream)
        return grad

    def reset(self):
        self.comm_stream = None


# Negatives: an attribute some assignment gives the current stream, or a
# parameter, or what an unknown call returns, may be the caller's current
# stream: not followed (silent).
class SavesCurrent:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.main = torch.cuda.current_stream()

    def use_main(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.main):
            z = y + 1
        return z

    def reset(self):
        self.side = torch.cuda.current_stream()

    def use_side(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.side):
            z = y + 1
        return z


class GivenStream:
    def __init__(self, stream: torch.cuda.Stream):
        self.side = stream

    def set_fresh(self):
        self.side = torch.cuda.Stream()

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.side):
            z = y + 1
        return z


def make_stream():
    return torch.cuda.Stream()


class FromUnknownCall:
    def __init__(self, pool):
        self.side = pool.acquire()
        self.ext = torch.cuda.ExternalStream(0)

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.side):
            z = y + 1
        with torch.cuda.stream(self.ext):
            w = y + 1
        return z, w


# Set from outside the class, through an object: may be anything.
class SetOutside:
    def __init__(self):
        self.shared_stream = torch.cuda.Stream()

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.shared_stream):
            z = y + 1
        return z


def share(a: SetOutside):
    a.shared_stream = torch.cuda.current_stream()


# A base class of the file that gives the attribute the current stream:
# the subclass's methods see it too (silent).
class Base:
    def __init__(self):
        self.side = torch.cuda.current_stream()


class Derived(Base):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.side):
            z = y + 1
        return z


# A base that is not in the file: an attribute the class never assigns is
# unknown (silent); one it assigns only fresh streams is its own.
class FromLibrary(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.stream):
            z = y + 1
        return z


class OwnsItsStream(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stream = torch.cuda.Stream()

    def forward(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.stream):
            z = y + 1
            # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'y' is read on attribute 'self.stream' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-5]]:13: note: 'y' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        y.record_stream(self.stream)
        return z
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'z' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-8]]:17: note: 'z' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-14]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# A module global assigned once, a fresh stream.
SIDE = torch.cuda.Stream()


def uses_global(x: torch.Tensor):
    y = x * 2
    with torch.cuda.stream(SIDE):
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on global stream 'SIDE' while its write on the caller's current stream may still be pending; nothing makes global stream 'SIDE' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to global stream 'SIDE' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-10]]:8: note: 'SIDE' is given a fresh stream here and never another stream, so it is not the caller's current stream
    y.record_stream(SIDE)
    return z
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'z' was allocated on global stream 'SIDE' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on global stream 'SIDE' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-8]]:13: note: 'z' is allocated on global stream 'SIDE' here
    # CHECK-NOTES: :[[@LINE-15]]:8: note: 'SIDE' is given a fresh stream here and never another stream, so it is not the caller's current stream


def uses_global_after_wait(x: torch.Tensor):
    y = x * 2
    SIDE.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(SIDE):
        z = y + 1
    y.record_stream(SIDE)
    return z
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'z' was allocated on global stream 'SIDE' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on global stream 'SIDE' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'z' is allocated on global stream 'SIDE' here
    # CHECK-NOTES: :[[@LINE-27]]:8: note: 'SIDE' is given a fresh stream here and never another stream, so it is not the caller's current stream


# Rebound by a def: not one stream.
OTHER = torch.cuda.Stream()


def rebind():
    global OTHER
    OTHER = torch.cuda.current_stream()


def uses_rebound(x: torch.Tensor):
    y = x * 2
    with torch.cuda.stream(OTHER):
        z = y + 1
    return z


# A class of the file derived from it may give the attribute the current
# stream: the base's methods may run on such an object (silent).
class Pipeline:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.ready = torch.cuda.Event()

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.side):
            z = y + 1
        return z

    # An event attribute recorded elsewhere: waiting on it is not an
    # unrecorded wait (silent).
    def join(self):
        torch.cuda.current_stream().wait_event(self.ready)


class OnCurrent(Pipeline):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.current_stream()


# An event attribute recorded and waited on in the method is followed.
class Prefetcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.copied = torch.cuda.Event()

    def prefetch(self, x: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            y = x * 2
            self.copied.record()
        self.copied.wait()
        z = y + 1
        y.record_stream(torch.cuda.current_stream())
        return z

    def prefetch_unjoined(self, x: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            y = x * 2
            self.copied.record()
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:33: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-5]]:17: note: 'y' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-23]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        y.record_stream(torch.cuda.current_stream())
        return z


# self.m() of a method a base of the file defines runs in place on the same
# attributes (the join below makes the current stream wait, the broken one
# the other way round).
class Joiner:
    def __init__(self):
        self.join_stream = torch.cuda.Stream()

    def join(self):
        torch.cuda.current_stream().wait_stream(self.join_stream)

    def broken_join(self):
        self.join_stream.wait_stream(torch.cuda.current_stream())


class JoinedWorker(Joiner):
    def work(self, x: torch.Tensor):
        self.join_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.join_stream):
            y = x * 2
        self.join()
        z = y + 1
        y.record_stream(torch.cuda.current_stream())
        return z

    def work_broken(self, x: torch.Tensor):
        self.join_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.join_stream):
            y = x * 2
        self.broken_join()
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on the caller's current stream while its write on attribute 'self.join_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:22: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-5]]:17: note: 'y' is written on attribute 'self.join_stream' here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.join_stream' here
        # CHECK-NOTES: :[[@LINE-29]]:9: note: 'self.join_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        y.record_stream(torch.cuda.current_stream())
        return z


# A dataclass field: its generated __init__ sets it from a parameter
# (silent).
@dataclasses.dataclass
class Config:
    stream: torch.cuda.Stream

    def reset(self):
        self.stream = torch.cuda.Stream()

    def use(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.stream):
            z = y + 1
        return z


# A stream __init__ sets for the rest of the program: the caller's current
# stream later on (silent).
class Engine:
    def __init__(self):
        self.engine_stream = torch.cuda.Stream()
        torch.cuda.set_stream(self.engine_stream)

    def run(self, x: torch.Tensor):
        y = x * 2
        with torch.cuda.stream(self.engine_stream):
            z = y + 1
        return z


# A global the module sets as the program's stream: the caller's current
# stream later on (silent).
PROGRAM = torch.cuda.Stream()
torch.cuda.set_stream(PROGRAM)


def uses_program_stream(x: torch.Tensor):
    y = x * 2
    with torch.cuda.stream(PROGRAM):
        z = y + 1
    return z
