# RUN: %check_streamsafe_py %s

# The seed's thread example: the current stream is thread-local. As written
# (both threads on their default stream) the copy is ordered; when thread 1
# made t on a side stream, thread 2's copy runs on the default stream
# without waiting for it.
import threading
import torch


def as_written():
    # thread 1
    t = torch.randn(100, device="cuda:0")  # on thread 1's current stream

    def thread2():
        t2 = t.to(device="cuda:1")

    th = threading.Thread(target=thread2)
    th.start()
    th.join()


def made_on_side_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")

        def thread2():
            t2 = t.to(device="cuda:1")
            # CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE+8]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
            # CHECK-NOTES: :[[@LINE-6]]:13: note: 't' is written on pool stream 's' here
            # CHECK-NOTES: :[[@LINE-8]]:10: note: the current stream was set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-5]]:18: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
            # CHECK-NOTES: :[[@LINE+4]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
            # CHECK-NOTES: :[[@LINE-11]]:10: note: the spawning thread's current stream is set to pool stream 's' here

        th = threading.Thread(target=thread2)
        th.start()
    th.join()


def stream_passed_in():
    # Right: the thread sets the stream it was given, after waiting for it.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")

        def thread2(stream: torch.cuda.Stream):
            with torch.cuda.stream(stream):
                t2 = t.to(device="cuda:1")

        th = threading.Thread(target=thread2, args=(s,))
        th.start()
    th.join()


def lambda_target():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda:0")
        th = threading.Thread(target=lambda: t.add_(1))
        # CHECK-NOTES: :[[@LINE-1]]:46: warning: tensor 't' is written on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+6]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 't' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:46: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+2]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE-9]]:10: note: the spawning thread's current stream is set to pool stream 's' here
        th.start()
    th.join()
