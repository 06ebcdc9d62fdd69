# RUN: %check_streamsafe_py %s

# torch.cuda.graph(..., capture_error_mode=...): querying another stream or
# an event recorded outside the capture is refused in "global" and
# "thread_local" and allowed in "relaxed"; a capturing stream's wait on an
# event recorded outside the capture is refused in every mode (measured on
# an H200, PyTorch 2.11).
import torch


def query_other_stream_global(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    with torch.cuda.graph(g, stream=s):
        y = x * 2
        o.query()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'query' queries pool stream 'o' while pool stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids querying or waiting on any stream or event: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; make the call before the capture begins or after it ends, or capture with torch.cuda.graph(..., capture_error_mode="relaxed") [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on pool stream 's'
    return y


def query_other_stream_relaxed(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    with torch.cuda.graph(g, stream=s, capture_error_mode="relaxed"):
        y = x * 2
        o.query()
    return y


def query_outside_event_thread_local(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    ev = torch.cuda.Event()
    ev.record(o)
    with torch.cuda.graph(g, stream=s, capture_error_mode="thread_local"):
        y = x * 2
        ev.query()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'query' queries event 'ev' while pool stream 's' captures into a CUDA graph in cudaStreamCaptureModeThreadLocal, which forbids querying or waiting on any stream or event: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; make the call before the capture begins or after it ends, or capture with torch.cuda.graph(..., capture_error_mode="relaxed") [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on pool stream 's'
    return y


def query_outside_event_relaxed(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    ev = torch.cuda.Event()
    ev.record(o)
    with torch.cuda.graph(g, stream=s, capture_error_mode="relaxed"):
        y = x * 2
        ev.query()
    return y


def wait_outside_event(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    ev = torch.cuda.Event()
    with torch.cuda.stream(o):
        x = torch.ones(4, device="cuda")
    ev.record(o)
    with torch.cuda.graph(g, stream=s, capture_error_mode="relaxed"):
        torch.cuda.current_stream().wait_event(ev)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: pool stream 's' waits on event 'ev', which was recorded outside the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make the capturing stream wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:5: note: 'ev' is recorded here, outside the capture
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on pool stream 's'
        y = x * 2
    return y


def wait_outside_stream(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    with torch.cuda.stream(o):
        x = torch.ones(4, device="cuda")
    with torch.cuda.graph(g, stream=s):
        s.wait_stream(o)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: pool stream 's' waits for pool stream 'o', which is not part of the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make pool stream 's' wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the capture begins here, on pool stream 's'
        y = x * 2
    return y


def wait_before_capture(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    o = torch.cuda.Stream()
    with torch.cuda.stream(o):
        x = torch.ones(4, device="cuda")
    s.wait_stream(o)
    with torch.cuda.graph(g, stream=s):
        y = x * 2
    return y


def fork_inside_capture(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    side = torch.cuda.Stream()
    with torch.cuda.graph(g, stream=s):
        side.wait_stream(s)
        with torch.cuda.stream(side):
            y = x * 2
        s.wait_stream(side)
    return y
