# The seed's executor pipeline, in Python: a task on a worker thread fills
# out on a stream of its own, records `finished`, then says it ran. Fixed:
# the host waits for the task's signal before it waits on finished, so its
# wait comes after the record and orders the read of out after the write.
import threading
import time

import torch

import harness


def pipeline(v):
    out = torch.zeros(harness.N, device="cuda")
    torch.cuda.synchronize()  # out's zeros are done: only the task's write is in question
    finished = torch.cuda.Event()
    ran = threading.Event()

    def task():
        time.sleep(0.005)  # earlier tasks in its queue
        with torch.cuda.stream(torch.cuda.Stream()):
            out.fill_(v)
            finished.record()
        ran.set()

    worker = threading.Thread(target=task)
    worker.start()
    ran.wait()
    finished.wait(torch.cuda.current_stream())
    got = out.sum().item()
    worker.join()
    return got


harness.run("executor_pipeline_host_wait", "fixed",
            lambda v: harness.differs_value(pipeline(v), harness.N * v))
