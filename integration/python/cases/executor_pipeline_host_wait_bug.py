# The seed's executor pipeline, in Python: a task on a worker thread fills
# out on a stream of its own, records `finished`, then says it ran. The host
# waits on finished and reads out on its own stream, but does not wait for
# the task first: the worker is still busy with earlier tasks, so the host's
# wait comes before the record and does nothing, and the read runs before
# out is written.
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
    finished.wait(torch.cuda.current_stream())  # EXPECT: streamsafe-unrecorded-event-wait
    got = out.sum().item()  # EXPECT: streamsafe-unsynchronized-access
    ran.wait()
    worker.join()
    return got


harness.run("executor_pipeline_host_wait", "bug",
            lambda v: harness.differs_value(pipeline(v), harness.N * v))
