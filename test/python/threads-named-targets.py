# RUN: %check_streamsafe_py %s

# A thread's body may be a def of the file or a method, handed its tensors
# through args= and kwargs= (or submit's and to_thread's arguments): its
# parameters are bound to them, as a helper's are, and it runs on the
# thread's default stream.
import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
import threading
import torch


def copy_to_device_one(t):
    t2 = t.to(device="cuda:1")
    # CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+14]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+11]]:13: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+9]]:10: note: the current stream was set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:10: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+10]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+6]]:10: note: the spawning thread's current stream is set to pool stream 's' here


# The seed's cross-thread example as a new user writes it.
def named_target_under_a_side_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        th = threading.Thread(target=copy_to_device_one, args=(t,))
        th.start()
    th.join()


def copy_on(t, stream):
    with torch.cuda.stream(stream):
        t2 = t.to(device="cuda:1")


# The fix: the thread is handed the stream and sets it.
def named_target_sets_the_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        th = threading.Thread(target=copy_on, kwargs={"t": t, "stream": s})
        th.start()
    th.join()


# Made on the spawner's default stream: the thread's default stream is the
# same stream.
def named_target_on_the_default_stream():
    t = torch.randn(100, device="cuda:0")
    th = threading.Thread(target=copy_to_device_one, args=(t,))
    th.start()
    th.join()


def copy_in_task(t):
    t2 = t.to(device="cuda:1")
    # CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+13]]:19: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+11]]:17: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+9]]:14: note: the current stream was set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:10: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+9]]:19: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+6]]:14: note: the spawning thread's current stream is set to pool stream 's' here


def submitted_named_task():
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            t = torch.randn(100, device="cuda:0")
            fut = ex.submit(copy_in_task, t)
        fut.result()


def copy_in_coroutine_thread(t):
    t2 = t.to(device="cuda:1")
    # CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+12]]:15: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+10]]:13: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+8]]:10: note: the current stream was set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:10: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+8]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+5]]:10: note: the spawning thread's current stream is set to pool stream 's' here


async def to_thread_under_a_side_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        await asyncio.to_thread(copy_in_coroutine_thread, t)


class Stager:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def _stage(self, t):
        t.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 't' is written on the default stream while its write on attribute 'self.stream' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+14]]:13: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE+11]]:17: note: 't' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE+9]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-8]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        # CHECK-NOTES: :[[@LINE-6]]:9: warning: this work runs on the default stream, not on attribute 'self.stream' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+9]]:13: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE+5]]:14: note: the spawning thread's current stream is set to attribute 'self.stream' here

    # A method as the target, started under the object's own stream.
    def stage_in_background(self, x: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            t = x * 2
            worker = threading.Thread(target=self._stage, args=(t,))
            worker.start()
        worker.join()

    # The twin: the thread sets the object's stream itself.
    def _stage_on_own_stream(self, t):
        with torch.cuda.stream(self.stream):
            t *= 2

    def stage_on_own_stream(self, x: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            t = x * 2
            worker = threading.Thread(target=self._stage_on_own_stream, args=(t,))
            worker.start()
        worker.join()


# A thread's body may set its own stream for good: the current stream is
# thread-local, so no caller sees it.
def drain_on_own_stream(queue):
    torch.cuda.set_stream(torch.cuda.Stream())
    while True:
        item = queue.get()
        item.mul_(2)


def start_drain(queue):
    th = threading.Thread(target=drain_on_own_stream, args=(queue,), daemon=True)
    th.start()


# The same set in a def called in place leaks into its caller.
def set_for_good():
    torch.cuda.set_stream(torch.cuda.Stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'set_for_good'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+1]]:37: note: 'set_for_good' can return here with the stream still set
    x = torch.ones(3, device="cuda")


# A target decorated with an autograd mode runs as written.
@torch.no_grad()
def scaled_copy(t):
    return t * 2
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+13]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+10]]:13: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+8]]:10: note: the current stream was set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:12: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+9]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+5]]:10: note: the spawning thread's current stream is set to pool stream 's' here


def decorated_target_under_a_side_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        th = threading.Thread(target=scaled_copy, args=(t,))
        th.start()
    th.join()


# Any other decorator may change what runs: the body is not followed, and
# the target is a callable the analysis does not read, which computes with
# what it is handed on the thread's (default) stream.
@functools.lru_cache(maxsize=None)
def cached_copy(t):
    return t * 2


def other_decorator_under_a_side_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        th = threading.Thread(target=cached_copy, args=(t,))
        # CHECK-NOTES: :[[@LINE-1]]:57: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+6]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 't' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:57: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+2]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE-9]]:10: note: the spawning thread's current stream is set to pool stream 's' here
        th.start()
    th.join()
