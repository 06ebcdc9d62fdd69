# Seed §1.3's thread example as a new user writes it: the thread's body is a
# def handed t through args=. The thread's current stream is its own default
# stream, so its copy of t does not wait for t's producer.
import threading

import torch

import harness


def copy_of(t, results):
    results.append(t.clone())  # EXPECT: streamsafe-unsynchronized-access, streamsafe-thread-current-stream


def copy_in_thread(v):
    results = []
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        t = torch.full((harness.N,), v, device="cuda")
        th = threading.Thread(target=copy_of, args=(t, results))
        th.start()
    th.join()
    return results[0]


harness.run("thread_named_target", "bug", lambda v: harness.differs(copy_in_thread(v), v))
