# A staging task handed to a ThreadPoolExecutor runs on a worker thread, on
# that thread's default stream: the side stream current where it was
# submitted does not follow it, and its copy of t runs before t's producer.
from concurrent.futures import ThreadPoolExecutor

import torch

import harness


def stage(t):
    return t.clone()  # EXPECT: streamsafe-unsynchronized-access, streamsafe-thread-current-stream


def staged_copy(v):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            torch.cuda._sleep(harness.spin())  # s is busy with earlier work
            t = torch.full((harness.N,), v, device="cuda")
            fut = ex.submit(stage, t)
        return fut.result()


harness.run("executor_task", "bug", lambda v: harness.differs(staged_copy(v), v))
