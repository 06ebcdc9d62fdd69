# RUN: %check_streamsafe_py %s

# torch.cuda.graph(g): a capture region on its capture stream (stream=, or
# its own side stream), for streamsafe-graph-capture.
import torch


def host_read_while_capturing(static_in: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_in * 2
        v = out.sum().item()
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: 'item' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on a pool stream
    return out


def host_read_after_capture(static_in: torch.Tensor):
    # The capture ran nothing: out is computed by the replay, on the
    # current stream.
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_in * 2
    g.replay()
    return out.sum().item()


def side_stream_not_joined(static_in: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            a = static_in * 2
        b = static_in + 1
        # CHECK-NOTES: :[[@LINE-1]]:26: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make a pool stream wait on it before the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-5]]:9: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
        # CHECK-NOTES: :[[@LINE-4]]:17: note: the last work on pool stream 'side', which a pool stream does not wait for
    return b


def side_stream_joined(static_in: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            a = static_in * 2
        torch.cuda.current_stream().wait_stream(side)
        b = a + 1
    # (the graph keeps a and b in its private memory pool)
    return a, b


def synchronize_while_capturing(static_in: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_in * 2
        torch.cuda.synchronize()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'synchronize' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on a pool stream
    return out


def graphed_inside_capture(model, x: torch.Tensor):
    # make_graphed_callables synchronises the device before its warm-up.
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn = torch.cuda.make_graphed_callables(model, (x,))
        # CHECK-NOTES: :[[@LINE-1]]:14: warning: 'make_graphed_callables' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the capture begins here, on a pool stream
    return fn


def graphed_before_capture(model, x: torch.Tensor):
    fn = torch.cuda.make_graphed_callables(model, (x,))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * 2
    return fn, y
