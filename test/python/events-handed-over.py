# RUN: %check_streamsafe_py %s

# A def or lambda handed to code the analysis does not see (an executor it
# does not know) may run there and record the events it names: a later wait
# on one of them is not taken as a wait on an unrecorded event.
import torch


def task_records_the_event(pool, x: torch.Tensor):
    finished = torch.cuda.Event()
    out = []

    def task():
        with torch.cuda.stream(torch.cuda.Stream()):
            out.append(x.relu())
            finished.record()

    fut = pool.submit(task)
    fut.result()
    finished.wait()
    return out


def lambda_records_the_event(pool):
    finished = torch.cuda.Event()
    pool.run(lambda: finished.record())
    finished.wait()


# A task that does not name the event cannot record it.
def task_without_the_event(pool, x: torch.Tensor):
    finished = torch.cuda.Event()
    out = []

    def task():
        out.append(x.relu())

    pool.submit(task)
    finished.wait()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'finished', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-9]]:5: note: 'finished' is declared here
