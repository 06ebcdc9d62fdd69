# RUN: %check_streamsafe_py %s

# An event recorded on another thread is this thread's to wait on only after
# a host wait orders the two: t.join(), fut.result(), or a threading.Event /
# queue.Queue signal the thread gives after the record (docs/api-model.md,
# threads). The C++ twin: test/checkers/unrecorded-event-wait-threads.cpp.
from concurrent.futures import ThreadPoolExecutor
import queue
import threading
import torch


def thread_not_joined(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    t = threading.Thread(target=work)
    t.start()
    finished.wait(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-11]]:5: note: 'finished' is declared here
    # CHECK-NOTES: :[[@LINE-7]]:13: note: 'finished' is recorded here, on the other thread
    # CHECK-NOTES: :[[@LINE-5]]:5: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'finished'
    t.join()


def thread_joined(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    t = threading.Thread(target=work)
    t.start()
    t.join()
    finished.wait(torch.cuda.current_stream())


# The seed's executor pipeline: the task records `finished`, then says it
# ran; the host waits for that, then for the event.
def signal_waited(x, out):
    finished = torch.cuda.Event()
    ran = threading.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()
        ran.set()

    t = threading.Thread(target=work)
    t.start()
    ran.wait()
    finished.wait(torch.cuda.current_stream())
    t.join()


def signal_not_waited(x, out):
    finished = torch.cuda.Event()
    ran = threading.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()
        ran.set()

    t = threading.Thread(target=work)
    t.start()
    finished.wait(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-13]]:5: note: 'finished' is declared here
    # CHECK-NOTES: :[[@LINE-8]]:13: note: 'finished' is recorded here, on the other thread
    # CHECK-NOTES: :[[@LINE-5]]:5: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'finished'
    ran.wait()
    t.join()


# The signal comes before the record: waiting for it orders nothing.
def signal_before_record(x, out):
    finished = torch.cuda.Event()
    started = threading.Event()

    def work():
        started.set()
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    finished.wait(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-14]]:5: note: 'finished' is declared here
    # CHECK-NOTES: :[[@LINE-8]]:13: note: 'finished' is recorded here, on the other thread
    # CHECK-NOTES: :[[@LINE-6]]:5: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'finished'
    t.join()


def queue_got(x, out):
    finished = torch.cuda.Event()
    done = queue.Queue()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()
        done.put(True)

    t = threading.Thread(target=work)
    t.start()
    done.get()
    finished.wait(torch.cuda.current_stream())
    t.join()


def future_result(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    ex = ThreadPoolExecutor(max_workers=1)
    fut = ex.submit(work)
    fut.result()
    finished.wait(torch.cuda.current_stream())


def future_not_waited(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    ex = ThreadPoolExecutor(max_workers=1)
    fut = ex.submit(work)
    finished.wait(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-11]]:5: note: 'finished' is declared here
    # CHECK-NOTES: :[[@LINE-7]]:13: note: 'finished' is recorded here, on the other thread
    # CHECK-NOTES: :[[@LINE-5]]:11: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'finished'
    fut.result()


# The executor's with-block ends by waiting for its tasks.
def executor_block_waits(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    with ThreadPoolExecutor(max_workers=1) as ex:
        fut = ex.submit(work)
    finished.wait(torch.cuda.current_stream())


# Code the analysis does not see may wait for the thread: silent (one rule
# for both languages, lib/lower/UnknownCode.h; the C++ twin is
# unseen_code_may_wait).
def unseen_code_may_wait(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    t = threading.Thread(target=work)
    t.start()
    log_progress()
    finished.wait(torch.cuda.current_stream())
    t.join()


# A builtin only inspects what it is given: it waits for no thread (the C++
# twin is library_does_not_wait).
def builtin_does_not_wait(x, out):
    finished = torch.cuda.Event()

    def work():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.copy_(x.relu())
            finished.record()

    t = threading.Thread(target=work)
    t.start()
    print("started")
    finished.wait(torch.cuda.current_stream())
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which only another thread records, and the host has not waited for that thread here; the wait may come before the record, and then it does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-12]]:5: note: 'finished' is declared here
    # CHECK-NOTES: :[[@LINE-8]]:13: note: 'finished' is recorded here, on the other thread
    # CHECK-NOTES: :[[@LINE-6]]:5: note: the thread starts here; join it, or wait for its future or for a signal it gives after the record, before waiting on 'finished'
    t.join()


# A threading.Event orders host code, not the GPU: the thread's copy on its
# own stream may still run when the waiter reads the buffer on another
# stream (meta-pytorch/torchrec's DataLoadingThread). Its wait() is no CUDA
# event's, which would be taken to order what it may.
def fill(n, b, filled):
    src = torch.empty(n, pin_memory=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        b.copy_(src, non_blocking=True)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'b' is written on pool stream 'side', which may still run when 'fill' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE+1]]:17: note: 'fill' returns here; 'b' outlives the call, and its next use on the caller's current stream may run before the write
    filled.set()


def signal_orders_host_only(n: int, out: torch.Tensor):
    data_dist = torch.cuda.Stream()
    filled = threading.Event()
    b = torch.empty(n, device="cuda")
    torch.cuda.synchronize()
    t = threading.Thread(target=fill, args=(n, b, filled))
    t.start()
    filled.wait()
    with torch.cuda.stream(data_dist):
        out.copy_(b)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'data_dist', which may still run when 'signal_orders_host_only' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'data_dist' here
        # CHECK-NOTES: :[[@LINE+5]]:13: note: 'signal_orders_host_only' returns here; 'out' outlives the call, and its next use on the caller's current stream may run before the write
        # CHECK-NOTES: :[[@LINE-4]]:19: warning: tensor 'b' is read on pool stream 'data_dist' while its write on pool stream 'side' may still be pending; nothing makes pool stream 'data_dist' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 'data_dist' here
        # CHECK-NOTES: :[[@LINE-22]]:9: note: 'b' is written on pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-24]]:10: note: the current stream was set to pool stream 'side' here
    t.join()


# The thread synchronizes its stream before it signals: the copy is done.
def fill_synchronized(n, b, filled):
    src = torch.empty(n, pin_memory=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        b.copy_(src, non_blocking=True)
    side.synchronize()
    filled.set()


def signal_after_sync(n: int, out: torch.Tensor):
    data_dist = torch.cuda.Stream()
    filled = threading.Event()
    b = torch.empty(n, device="cuda")
    torch.cuda.synchronize()
    t = threading.Thread(target=fill_synchronized, args=(n, b, filled))
    t.start()
    filled.wait()
    with torch.cuda.stream(data_dist):
        out.copy_(b)
    torch.cuda.current_stream().wait_stream(data_dist)
    t.join()
