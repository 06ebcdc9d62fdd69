# RUN: %check_streamsafe_py %s

# Events: torch.cuda.Event(), record(s) / record(), s.wait_event(e),
# e.wait(s), s.record_event(), e.synchronize().
import torch


def record_and_wait(x: torch.Tensor):
    s = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record()
    s.wait_event(ready)
    with torch.cuda.stream(s):
        y = x * 2
    x.record_stream(s)
    return y


def event_wait_method(x: torch.Tensor):
    s = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record(torch.cuda.current_stream())
    ready.wait(s)
    with torch.cuda.stream(s):
        y = x * 2
    x.record_stream(s)
    return y


def record_event_returns_a_recorded_event(x: torch.Tensor):
    s = torch.cuda.Stream()
    ready = torch.cuda.current_stream().record_event()
    s.wait_event(ready)
    with torch.cuda.stream(s):
        y = x * 2
    x.record_stream(s)
    return y


def never_recorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    ready = torch.cuda.Event()
    s.wait_event(ready)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'ready', which is never recorded before this point; a wait on an unrecorded event does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-3]]:5: note: 'ready' is declared here
    with torch.cuda.stream(s):
        y = x * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-10]]:20: note: 'x' is assumed ready on the caller's current stream at function entry
    x.record_stream(s)
    return y


def recorded_on_some_paths(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    ready = torch.cuda.Event()
    if flag:
        ready.record()
    s.wait_event(ready)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on event 'ready', which is not recorded on every path to this point; on those paths the wait does nothing [streamsafe-unrecorded-event-wait]
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'ready' is declared here
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'ready' is recorded here on some paths only


def event_from_elsewhere(x: torch.Tensor, ready):
    # Not made here: it may have been recorded by the caller.
    s = torch.cuda.Stream()
    s.wait_event(ready)


def host_waits_for_event(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = x * 2
    done = torch.cuda.Event()
    done.record(s)
    done.synchronize()
    z = y + 1
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'y' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-6]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-7]]:13: note: 'y' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'y' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    x.record_stream(s)
    return z


def recorded_too_early(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    done = torch.cuda.Event()
    done.record(s)
    with torch.cuda.stream(s):
        y = x * 2
    torch.cuda.current_stream().wait_event(done)
    z = y + 1
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'y' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-4]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-5]]:13: note: 'y' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's' here
    x.record_stream(s)
    y.record_stream(torch.cuda.current_stream())
    return z
