# RUN: %check_streamsafe_py %s

# A wait on the stream that every record of the event is made on orders
# nothing, whether the event was recorded or not: stream order already
# puts the work before the record ahead of the work after the wait. A
# missing record on some path changes nothing, so unrecorded-event-wait is
# silent (the C++ twin is test/checkers/unrecorded-event-wait-same-stream.cpp).
import torch


# Right: a timing loop records `start` on one iteration; the wait after the
# loop is on the same (current) stream as that record.
def timed(fn, iters, warmup):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    for n in range(iters):
        if n == warmup:
            start.record()
        fn()
    end.record()
    start.wait()
    end.synchronize()
    return start.elapsed_time(end)


# Right: recorded on a side stream on some paths, waited on by that stream.
def side_stream_waits_on_itself(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    e = torch.cuda.Event()
    if flag:
        e.record(s)
    s.wait_event(e)


# Right: the wait comes before the only record, on the same stream.
def wait_before_record_same_stream(x: torch.Tensor):
    e = torch.cuda.Event()
    torch.cuda.current_stream().wait_event(e)
    y = x * 2
    e.record()
    return y


# Wrong: recorded on the current stream on some paths, waited on by a side
# stream: on the paths with the record the wait orders the side stream.
def other_stream_waits(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    e = torch.cuda.Event()
    if flag:
        e.record()
    s.wait_event(e)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'e' is declared here
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'e' is recorded here on some paths only


# Wrong: one record is on the waiting stream, another on a side stream.
def records_on_two_streams(x: torch.Tensor, flag, other):
    s = torch.cuda.Stream()
    e = torch.cuda.Event()
    if flag:
        e.record()
    elif other:
        e.record(s)
    e.wait()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-7]]:5: note: 'e' is declared here
    # CHECK-NOTES: :[[@LINE-6]]:9: note: 'e' is recorded here on some paths only


# Wrong: never recorded anywhere: there is no stream the wait could be on
# the same as.
def never_recorded(x: torch.Tensor):
    e = torch.cuda.Event()
    e.wait()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'e', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-3]]:5: note: 'e' is declared here


# Not followed: a record on a stream the model cannot name (a parameter
# that is not annotated) may be on any stream: the wait is reported.
def record_on_unknown_stream(x: torch.Tensor, flag, s):
    e = torch.cuda.Event()
    if flag:
        e.record(s)
    e.wait()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'e', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'e' is declared here
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'e' is recorded here on some paths only
