# Seed §1.3's thread example as a new user writes it: the thread's body is a
# def handed t through args=. Fixed: it is handed the producer's stream too
# and sets it before it copies t.
import threading

import torch

import harness


def copy_of(t, results, stream):
    with torch.cuda.stream(stream):
        results.append(t.clone())


def copy_in_thread(v):
    results = []
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # s is busy with earlier work
        t = torch.full((harness.N,), v, device="cuda")
        th = threading.Thread(target=copy_of, args=(t, results, s))
        th.start()
    th.join()
    return results[0]


harness.run("thread_named_target", "fixed", lambda v: harness.differs(copy_in_thread(v), v))
