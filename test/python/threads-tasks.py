# RUN: %check_streamsafe_py %s
#
# Tasks as real code submits them (issue 45): to an executor the object
# keeps (`self.pool`, made in __init__ or on first use; `cls._executor`),
# from a comprehension, and tasks whose work is a callable the analysis
# does not read (a module, a torch function): that callable computes with
# what it is handed on the worker's (default) stream. The twins: an
# attribute also given something else, a task submitted with no stream
# set, a task that installs the stream it is handed.
from concurrent.futures import ThreadPoolExecutor
from typing import List, Optional

import torch


def bump(y):
    return y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is written on the default stream while its write on attribute 'self.side' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+34]]:19: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+32]]:17: note: 'y' is written on attribute 'self.side' here
    # CHECK-NOTES: :[[@LINE+30]]:14: note: the current stream was set to attribute 'self.side' here
    # CHECK-NOTES: :[[@LINE+26]]:9: note: 'self.side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
    # CHECK-NOTES: :[[@LINE-6]]:12: warning: this work runs on the default stream, not on attribute 'self.side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+29]]:19: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+26]]:14: note: the spawning thread's current stream is set to attribute 'self.side' here


def bump_each(y):
    return y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' (a view of 'ys') is written on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+79]]:21: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+77]]:19: note: 'ys' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+75]]:14: note: the current stream was set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:12: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+75]]:21: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+72]]:14: note: the spawning thread's current stream is set to pool stream 's' here


def bump_on(y, s):
    with torch.cuda.stream(s):
        return y.add_(1)


class Stager:
    def __init__(self, model: torch.nn.Module):
        self.model = model
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.side = torch.cuda.Stream()

    def kept_executor(self):
        with torch.cuda.stream(self.side):
            y = torch.ones(4, device="cuda")
            fut = self.pool.submit(bump, y)
        return fut.result()

    def module_task(self):
        with torch.cuda.stream(self.side):
            y = torch.ones(4, device="cuda")
            fut = self.pool.submit(self.model, y)
            # CHECK-NOTES: :[[@LINE-1]]:48: warning: tensor 'y' is read on the default stream while its write on attribute 'self.side' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-2]]:19: note: the current stream is thread-local: the thread started here runs on the default stream
            # CHECK-NOTES: :[[@LINE-4]]:17: note: 'y' is written on attribute 'self.side' here
            # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self.side' here
            # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self.side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-6]]:48: warning: this work runs on the default stream, not on attribute 'self.side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
            # CHECK-NOTES: :[[@LINE-7]]:19: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
            # CHECK-NOTES: :[[@LINE-10]]:14: note: the spawning thread's current stream is set to attribute 'self.side' here
        return fut.result()

    # The twin: no stream is set where it is submitted.
    def module_task_no_stream(self):
        y = torch.ones(4, device="cuda")
        return self.pool.submit(self.model, y).result()


class Lazy:
    _executor: Optional[ThreadPoolExecutor] = None

    @classmethod
    def run(cls, s: torch.cuda.Stream):
        if cls._executor is None:
            cls._executor = ThreadPoolExecutor(max_workers=1)
        with torch.cuda.stream(s):
            y = torch.ones(4, device="cuda")
            return cls._executor.submit(torch.relu, y)
            # CHECK-NOTES: :[[@LINE-1]]:53: warning: this work runs on the default stream, not on stream parameter 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
            # CHECK-NOTES: :[[@LINE-2]]:20: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
            # CHECK-NOTES: :[[@LINE-5]]:14: note: the spawning thread's current stream is set to stream parameter 's' here


# The twin: the attribute is also given an executor from elsewhere, which
# may run its tasks anyhow.
class Given:
    def __init__(self, pool):
        self.pool = pool if pool is not None else ThreadPoolExecutor()
        self.side = torch.cuda.Stream()

    def submit(self):
        with torch.cuda.stream(self.side):
            y = torch.ones(4, device="cuda")
            return self.pool.submit(bump, y)


def comprehension(xs: List[torch.Tensor]):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with ThreadPoolExecutor(max_workers=2) as ex:
        with torch.cuda.stream(s):
            ys = [x.mul(2) for x in xs]
            futs = [ex.submit(bump_each, y) for y in ys]
        return [f.result() for f in futs]


# The twin: each task installs the stream it is handed.
def comprehension_own_stream(xs: List[torch.Tensor]):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with ThreadPoolExecutor(max_workers=2) as ex:
        with torch.cuda.stream(s):
            ys = [x.mul(2) for x in xs]
            futs = [ex.submit(bump_on, y, s) for y in ys]
        return [f.result() for f in futs]


# The twin: a list of ints says nothing of tensors.
def comprehension_of_ints(xs: List[int]):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=2) as ex:
        with torch.cuda.stream(s):
            ys = [x * 2 for x in xs]
            futs = [ex.submit(bump, y) for y in ys]
        return [f.result() for f in futs]
