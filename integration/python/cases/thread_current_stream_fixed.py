# The fix: pass the stream in and set it inside the thread.
import threading

import torch

import harness


def copy_in_thread(v):
    results = []
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        t = torch.full((harness.N,), v, device="cuda")

        def worker(stream: torch.cuda.Stream):
            with torch.cuda.stream(stream):
                t2 = t.clone()
                results.append(t2)

        th = threading.Thread(target=worker, args=(s,))
        th.start()
    th.join()
    return results[0]


harness.run("thread_current_stream", "fixed", lambda v: harness.differs(copy_in_thread(v), v))
