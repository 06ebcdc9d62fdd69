# RUN: %check_streamsafe_py %s

# A task that makes its own (default) stream wait for its spawner's stream
# orders its work itself: it does not rely on the spawner's stream, and
# current_stream() asked only to be made to wait is not reported. The wait
# the wrong way round (the producer waits for the task's stream) is.
from concurrent.futures import ThreadPoolExecutor
import threading
import torch


def stage(t, producer):
    torch.cuda.current_stream().wait_stream(producer)
    return t.clone()


def staged_copy(v):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            t = torch.full((4,), v, device="cuda")
            fut = ex.submit(stage, t, s)
        return fut.result()


def stage_event(t, ready):
    ready.wait(torch.cuda.current_stream())
    return t.clone()


def staged_copy_event(v):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            t = torch.full((4,), v, device="cuda")
            ready = torch.cuda.Event()
            ready.record()
            fut = ex.submit(stage_event, t, ready)
        return fut.result()


def stage_wrong(t, producer):
    producer.wait_stream(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:26: warning: current_stream() in this thread returns the default stream, not pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    # CHECK-NOTES: :[[@LINE+14]]:19: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    # CHECK-NOTES: :[[@LINE+11]]:14: note: the spawning thread's current stream is set to pool stream 's' here
    return t.clone()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE+10]]:19: note: the current stream is thread-local: the thread started here runs on the default stream
    # CHECK-NOTES: :[[@LINE+8]]:17: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+6]]:14: note: the current stream was set to pool stream 's' here


def staged_copy_wrong(v):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            t = torch.full((4,), v, device="cuda")
            fut = ex.submit(stage_wrong, t, s)
        return fut.result()
