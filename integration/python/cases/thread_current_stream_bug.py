# Seed §1.3's thread example: t is made on a side stream; the thread's current
# stream is thread-local (the default stream), so its copy of t does not wait
# for t's producer.
import threading

import torch

import harness


def copy_in_thread(v):
    results = []
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        t = torch.full((harness.N,), v, device="cuda")

        def worker():
            t2 = t.clone()  # EXPECT: streamsafe-unsynchronized-access, streamsafe-thread-current-stream
            results.append(t2)

        th = threading.Thread(target=worker)
        th.start()
    th.join()
    return results[0]


harness.run("thread_current_stream", "bug", lambda v: harness.differs(copy_in_thread(v), v))
