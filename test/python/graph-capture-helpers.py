# RUN: %check_streamsafe_py %s

# Captures whose host waits and side-stream work sit in helpers and context
# managers of the file (run in place at their calls and with blocks), and a
# collective whose work is waited only after the capture: the way servers
# and graphed training steps write them.
import contextlib

import torch
import torch.distributed as dist


def read_scale(x: torch.Tensor):
    return x.max().item()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: 'item' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
    # CHECK-NOTES: :[[@LINE+6]]:10: note: the capture begins here, on a pool stream
    # CHECK-NOTES: :[[@LINE+6]]:13: note: in 'read_scale', called here from 'helper_host_read_in_capture'


# Wrong: a helper reads a value on the host while the capture records.
def helper_host_read_in_capture(g: torch.cuda.CUDAGraph, x: torch.Tensor, y: torch.Tensor):
    with torch.cuda.graph(g):
        s = read_scale(x)
        y.mul_(s)


# Right: the scale is read before the capture begins.
def helper_host_read_before_capture(g: torch.cuda.CUDAGraph, x: torch.Tensor, y: torch.Tensor):
    s = read_scale(x)
    with torch.cuda.graph(g):
        y.mul_(s)


class Timer:
    def __enter__(self):
        torch.cuda.synchronize()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'synchronize' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE+15]]:10: note: the capture begins here, on a pool stream
        # CHECK-NOTES: :[[@LINE+15]]:14: note: in '__enter__', called here from 'timer_inside_capture'
        return self

    def __exit__(self, *exc):
        torch.cuda.synchronize()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'synchronize' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE+8]]:10: note: the capture begins here, on a pool stream
        # CHECK-NOTES: :[[@LINE+9]]:22: note: in '__exit__', called here from 'timer_inside_capture'
        return False


# Wrong: a timing context manager synchronises inside the capture, on
# entry and on exit.
def timer_inside_capture(g: torch.cuda.CUDAGraph, y: torch.Tensor):
    with torch.cuda.graph(g):
        with Timer():
            y.add_(1)


# Right: the timer is around the capture.
def timer_around_capture(g: torch.cuda.CUDAGraph, y: torch.Tensor):
    with Timer():
        with torch.cuda.graph(g):
            y.add_(1)


@contextlib.contextmanager
def on_side(side: torch.cuda.Stream):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        yield


@contextlib.contextmanager
def on_side_joined(side: torch.cuda.Stream):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        yield
    torch.cuda.current_stream().wait_stream(side)


# Wrong: the context manager forks side into the capture and never joins
# it back.
def side_work_in_context_manager(g: torch.cuda.CUDAGraph, x: torch.Tensor, y: torch.Tensor):
    side = torch.cuda.Stream()
    with torch.cuda.graph(g):
        with on_side(side):
            y.add_(x)
        # CHECK-NOTES: :[[@LINE-1]]:22: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make a pool stream wait on it before the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-21]]:5: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
        # CHECK-NOTES: :[[@LINE-3]]:13: note: the last work on pool stream 'side', which a pool stream does not wait for


# Right: its exit joins side back.
def side_work_joined_in_context_manager(g: torch.cuda.CUDAGraph, x: torch.Tensor, y: torch.Tensor):
    side = torch.cuda.Stream()
    with torch.cuda.graph(g):
        with on_side_joined(side):
            y.add_(x)


# Wrong: a fork whose join comes after the capture ends: the all-reduce's
# work is waited only after the graph's with block.
def collective_waited_after_capture(g: torch.cuda.CUDAGraph, grad: torch.Tensor):
    with torch.cuda.graph(g):
        work = dist.all_reduce(grad, async_op=True)
        grad.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'grad' is written on a pool stream while its write on the NCCL stream of the default process group may still be pending; nothing makes a pool stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to a pool stream here
        # CHECK-NOTES: :[[@LINE-4]]:32: note: 'grad' is written on the NCCL stream of the default process group here
        # CHECK-NOTES: :[[@LINE-4]]:21: warning: the CUDA graph capture ends with work on the NCCL stream of the default process group not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; wait for the collective's work (work.wait()) on a pool stream before the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-6]]:16: note: the NCCL stream of the default process group joins the capture here, by waiting on an event recorded on a capturing stream
        # CHECK-NOTES: :[[@LINE-7]]:32: note: the last work on the NCCL stream of the default process group, which a pool stream does not wait for
    work.wait()


# Right: waited inside the capture.
def collective_waited_in_capture(g: torch.cuda.CUDAGraph, grad: torch.Tensor):
    with torch.cuda.graph(g):
        work = dist.all_reduce(grad, async_op=True)
        work.wait()
        grad.mul_(2)
