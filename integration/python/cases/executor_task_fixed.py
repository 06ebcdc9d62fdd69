# A staging task handed to a ThreadPoolExecutor runs on a worker thread, on
# that thread's default stream. Fixed: the task is handed the producer's
# stream and copies t on it.
from concurrent.futures import ThreadPoolExecutor

import torch

import harness


def stage(t, producer):
    with torch.cuda.stream(producer):
        return t.clone()


def staged_copy(v):
    s = torch.cuda.Stream()
    with ThreadPoolExecutor(max_workers=1) as ex:
        with torch.cuda.stream(s):
            torch.cuda._sleep(harness.spin())  # s is busy with earlier work
            t = torch.full((harness.N,), v, device="cuda")
            fut = ex.submit(stage, t, s)
        return fut.result()


harness.run("executor_task", "fixed", lambda v: harness.differs(staged_copy(v), v))
