# RUN: %check_streamsafe_py %s

# A thread runs from its start(), not from where the Thread is made:
# `Thread(...).start()` starts it at once, `t = Thread(...)` starts it at
# `t.start()` in the same body. It starts on the default stream. join()
# adds nothing: the thread's work is taken as done after its start.
# `ex.submit(f)` on a ThreadPoolExecutor made in the body runs f on a worker
# thread, from the default stream, like a Thread.
from concurrent.futures import ThreadPoolExecutor
import threading
import torch


# Made before the side stream writes x, started after: the thread's read
# on the default stream races the write.
def started_after_the_write():
    s = torch.cuda.Stream()
    x = torch.zeros(4, device="cuda")

    def reader():
        y = x + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+11]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE+9]]:9: note: 'x' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE+7]]:10: note: the current stream was set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:13: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+7]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE+4]]:10: note: the spawning thread's current stream is set to pool stream 's' here

    th = threading.Thread(target=reader)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        x.add_(1)
        th.start()
    th.join()


# The twin: the side stream's write is waited for before the start.
def started_after_a_wait():
    s = torch.cuda.Stream()
    x = torch.zeros(4, device="cuda")

    def reader():
        torch.cuda.current_stream().wait_stream(s)
        y = x + 1

    th = threading.Thread(target=reader)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        x.add_(1)
    torch.cuda.synchronize()
    th.start()
    th.join()


# Made and started at once, under a side stream.
def chained():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.zeros(4, device="cuda")
        threading.Thread(target=lambda: x.add_(1)).start()
        # CHECK-NOTES: :[[@LINE-1]]:41: warning: tensor 'x' is written on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-2]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 'x' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:41: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE-6]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE-9]]:10: note: the spawning thread's current stream is set to pool stream 's' here


# The twin: started after the side stream's work is done.
def chained_after_sync():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.zeros(4, device="cuda")
    s.synchronize()
    threading.Thread(target=lambda: x.add_(1)).start()


# A thread made here and started elsewhere (kept, returned) is taken to
# start where it is made.
def made_not_started():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.zeros(4, device="cuda")
        th = threading.Thread(target=lambda: x.add_(1))
        # CHECK-NOTES: :[[@LINE-1]]:46: warning: tensor 'x' is written on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-2]]:14: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 'x' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:46: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE-9]]:10: note: the spawning thread's current stream is set to pool stream 's' here
    return th


# A task submitted to an executor of this body, under a side stream.
def submitted_under_a_side_stream():
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=2) as ex:
        with torch.cuda.stream(s):
            x = torch.zeros(4, device="cuda")
            fut = ex.submit(lambda: x.add_(1))
            # CHECK-NOTES: :[[@LINE-1]]:37: warning: tensor 'x' is written on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-2]]:19: note: the current stream is thread-local: the thread started here runs on the default stream
            # CHECK-NOTES: :[[@LINE-4]]:17: note: 'x' is written on pool stream 's' here
            # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-5]]:37: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
            # CHECK-NOTES: :[[@LINE-6]]:19: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
            # CHECK-NOTES: :[[@LINE-9]]:14: note: the spawning thread's current stream is set to pool stream 's' here
        fut.result()


# The twin: submitted after the side stream's work is done.
def submitted_after_sync():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.zeros(4, device="cuda")
    s.synchronize()
    ex = ThreadPoolExecutor()
    fut = ex.submit(lambda: x.add_(1))


# submit() of an object not known to be an executor: unknown code.
def not_an_executor(pool):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.zeros(4, device="cuda")
        pool.submit(lambda: x.add_(1))


# Started under a stream returned by unknown code: it may be the caller's
# stream or the default stream, so the thread's work is not reported.
def started_under_an_unknown_stream():
    x = torch.zeros(4, device="cuda")

    def reader():
        y = x + 1

    with torch.cuda.stream(get_stream()):
        threading.Thread(target=reader).start()
