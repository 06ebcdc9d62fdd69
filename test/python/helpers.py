# RUN: %check_streamsafe_py %s

# Defs and methods of the same file run in place at their calls, in the
# caller's state, with their parameters bound to the arguments (tensors,
# streams; an event parameter is the caller's event), as the C++ front end
# runs same-file helpers. A race between the caller's code and the helper's
# is reported at the call, with a note at the helper's access.
import torch


# A forwarding setter: it sets the stream it is given, so restoring it is
# its caller's job. Silent on its own; its callers are judged.
def set_stream(s):
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'leaves_side_set'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+7]]:21: note: 'leaves_side_set' can return here with the stream still set
    # CHECK-NOTES: :[[@LINE-3]]:5: warning: the current stream set here is not restored on every path out of 'sets_own_through_the_wrapper'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+15]]:36: note: 'sets_own_through_the_wrapper' can return here with the stream still set


def leaves_side_set():
    side = torch.cuda.Stream()
    set_stream(side)


# A wrapper of the forwarding setter, given the stream: a setter too.
def use_stream(s):
    set_stream(s)


# Through the wrapper, a stream of its own: reported, at the set.
def sets_own_through_the_wrapper():
    set_stream(torch.cuda.Stream())


# The twin: the caller sets its own stream back.
def sets_and_restores():
    side = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    set_stream(side)
    set_stream(prev)


# A setter of a stream of its own is no forwarding setter: reported.
def sets_its_own():
    s = torch.cuda.Stream()
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'sets_its_own'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE-2]]:29: note: 'sets_its_own' can return here with the stream still set


# Its caller leaves the same set in place: the helper's fix is the one fix,
# so the set is reported once, in the helper (not again in each caller).
def calls_a_setter_of_its_own():
    sets_its_own()
    return None


# Helpers that wait, record and record_stream do so at the call.
def wait_for(s, e):
    s.wait_event(e)


def record_on(e, s):
    e.record(s)


def keep_for(t, s):
    t.record_stream(s)


def waits_in_a_helper(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = x * 2
    done = torch.cuda.Event()
    record_on(done, torch.cuda.current_stream())
    wait_for(side, done)
    with torch.cuda.stream(side):
        z = y + 1
    keep_for(y, side)


# The twin without the helpers: the read races the write, and y dies in use.
def no_helper_waits(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = x * 2
    with torch.cuda.stream(side):
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:13: warning: tensor 'y' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-8]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-7]]:18: note: the last reference to 'y' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream


# The helper writes t on the stream it is given; the caller's write is not
# waited for: reported at the call.
def scale_on(t, s):
    with torch.cuda.stream(s):
        t.mul_(2)


def race_at_the_call(x: torch.Tensor):
    side = torch.cuda.Stream()
    t = x.clone()
    scale_on(t, side)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-8]]:9: note: 't' is written on pool stream 'side' here, in 'scale_on'
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream is set to pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-5]]:9: note: 't' is written on the caller's current stream here
    return t


def ordered_around_the_call(x: torch.Tensor):
    side = torch.cuda.Stream()
    t = x.clone()
    side.wait_stream(torch.cuda.current_stream())
    scale_on(t, side)
    torch.cuda.current_stream().wait_stream(side)
    return t


# A race within one helper stays in the helper (reported once). Its
# parameter is rebound (`t += 1`), so the helper alone does not know it is
# a tensor; run from its caller it is.
def races_inside(t):
    side = torch.cuda.Stream()
    t += 1
    with torch.cuda.stream(side):
        t *= 2
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 't' (a view of 'x') is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:5: note: 'x' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+4]]:5: note: in 'races_inside', called here from 'calls_a_racy_helper'


def calls_a_racy_helper(x: torch.Tensor):
    races_inside(x)


# Its parameter annotated, the helper reports the race on its own: its
# callers do not repeat it.
def races_inside_typed(t: torch.Tensor):
    side = torch.cuda.Stream()
    t.add_(1)
    with torch.cuda.stream(side):
        t.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:5: note: 't' is written on the caller's current stream here


def calls_a_typed_racy_helper(x: torch.Tensor):
    races_inside_typed(x)


# Recursion is cut off and stays silent on correct code.
def recurse(t, s, n):
    with torch.cuda.stream(s):
        t.add_(1)
    if n:
        recurse(t, s, n - 1)


def calls_recursion(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    recurse(x, side, 3)
    torch.cuda.current_stream().wait_stream(side)
    return x.sum()


# What a helper returns is the call's value.
def make_on(s):
    with torch.cuda.stream(s):
        return torch.ones(4, device="cuda")


def returned_while_pending(x: torch.Tensor):
    side = torch.cuda.Stream()
    return make_on(side) + x
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'make_on()' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-7]]:44: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-8]]:16: note: 'make_on()' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 'side' here


# Through a variable: the def's returns say it gives a tensor.
def kept_while_pending(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = make_on(side)
    return y + x
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-18]]:44: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-19]]:16: note: 'y' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-5]]:9: note: in 'make_on', called here
    # CHECK-NOTES: :[[@LINE-22]]:10: note: the current stream was set to pool stream 'side' here


def returned_after_a_wait(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = make_on(side)
    torch.cuda.current_stream().wait_stream(side)
    return y + x


# A method called on self runs in place on the same object.
class Worker:
    def fork(self, s):
        s.wait_stream(torch.cuda.current_stream())

    def run(self, x: torch.Tensor):
        side = torch.cuda.Stream()
        y = x * 2
        self.fork(side)
        with torch.cuda.stream(side):
            z = y + 1
        y.record_stream(side)

    def run_without_fork(self, x: torch.Tensor):
        side = torch.cuda.Stream()
        y = x * 2
        with torch.cuda.stream(side):
            z = y + 1
            # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-5]]:13: note: 'y' is written on the caller's current stream here
        y.record_stream(side)


# An object of a class of the file: Cls(...) runs __init__ in place, and
# the methods called on the variable that names it run in place on it; its
# stream attributes are followed.
class Side:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def fork(self):
        self.stream.wait_stream(torch.cuda.current_stream())

    def join(self):
        torch.cuda.current_stream().wait_stream(self.stream)


def object_not_joined(x: torch.Tensor):
    side = Side()
    side.fork()
    with torch.cuda.stream(side.stream):
        y = x * 2
    return y + 1
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on the caller's current stream while its write on pool stream 'side.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on pool stream 'side.stream' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side.stream' here


def object_forked_and_joined(x: torch.Tensor):
    side = Side()
    side.fork()
    with torch.cuda.stream(side.stream):
        y = x * 2
    side.join()
    z = y + 1
    y.record_stream(torch.cuda.current_stream())
    return z


# A variable bound twice names no one object: its methods are unknown
# code, its attributes are not followed (silent).
def object_rebound(x: torch.Tensor, other):
    side = Side()
    if x.dim():
        side = other
    with torch.cuda.stream(side.stream):
        y = x * 2
    return y + 1


# Unknown callees are not run: a method of an object not followed, a
# decorated def (the decorator may wrap it). The wait they may make is not
# seen, so the read is reported as before.
def decorate(f):
    return f


@decorate
def decorated_fork(s):
    s.wait_stream(torch.cuda.current_stream())


def unknown_callees(x: torch.Tensor, other):
    side = torch.cuda.Stream()
    y = x * 2
    other.fork(side)
    decorated_fork(side)
    with torch.cuda.stream(side):
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-7]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(side)


# A block allocated by a helper run in place (here a static method called
# through its class) and handed back with no record_stream: the finding
# says where the helper was called.
class Prefetcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    @staticmethod
    def stage(cpu: torch.Tensor):
        return cpu.to("cuda", non_blocking=True)

    def next(self, cpu: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            gpu = Prefetcher.stage(cpu)
        torch.cuda.current_stream().wait_stream(self.stream)
        return gpu
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'gpu' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-9]]:16: note: 'gpu' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-5]]:19: note: in 'stage', called here
        # CHECK-NOTES: :[[@LINE-15]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Fixed: recorded on the caller's stream before it leaves.
class RecordedPrefetcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    @staticmethod
    def stage(cpu: torch.Tensor):
        return cpu.to("cuda", non_blocking=True)

    def next(self, cpu: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            gpu = RecordedPrefetcher.stage(cpu)
        torch.cuda.current_stream().wait_stream(self.stream)
        gpu.record_stream(torch.cuda.current_stream())
        return gpu
