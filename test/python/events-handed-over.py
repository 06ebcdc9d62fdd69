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


# Events the analysis does not follow (in a list, another object's): a
# wait on one is taken to order everything before it, rather than report
# what it may have ordered. Silent.
def events_in_a_list(x: torch.Tensor, done):
    side = torch.cuda.Stream()
    a = torch.empty_like(x)
    b = torch.empty_like(x)
    c = torch.empty_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        a.copy_(x)
        done[0].record()
    torch.cuda.current_stream().wait_event(done[0])
    y = a.sum()
    with torch.cuda.stream(side):
        b.copy_(x)
        done[1].record()
    done[1].wait()
    y = y + b.sum()
    with torch.cuda.stream(side):
        c.copy_(x)
        done[2].record()
    done[2].synchronize()
    return y + c.sum() + c.cpu()[0]
