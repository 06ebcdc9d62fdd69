# RUN: %check_streamsafe_py %s

# A flag a call gives as written (`True`, `False`) decides the callee's
# tests of it where the callee runs in place, if the callee never rebinds
# it: `timed(enabled=False)` makes no synchronize inside a capture. The
# same helper given True, or a flag it rebinds, keeps both paths.
import contextlib

import torch


@contextlib.contextmanager
def timed(enabled: bool):
    if enabled:
        torch.cuda.synchronize()
    yield
    if enabled:
        torch.cuda.synchronize()


def scaled(x: torch.Tensor, sync: bool):
    if sync:
        torch.cuda.synchronize()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'synchronize' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE+28]]:10: note: the capture begins here, on a pool stream
        # CHECK-NOTES: :[[@LINE+28]]:13: note: in 'scaled', called here from 'capture_enabled'
    return x * 2


def scaled_rebound(x: torch.Tensor, sync: bool):
    sync = sync or x.numel() > 4
    if sync:
        torch.cuda.synchronize()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: 'synchronize' waits for the whole device while a pool stream captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE+26]]:10: note: the capture begins here, on a pool stream
        # CHECK-NOTES: :[[@LINE+26]]:13: note: in 'scaled_rebound', called here from 'capture_rebound'
    return x * 2


# Silent: disabled, nothing synchronizes.
def capture_disabled(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        with timed(enabled=False):
            y = x * 2
        z = scaled(y, False)
    return z


# Wrong: enabled, it synchronizes inside the capture.
def capture_enabled(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        z = scaled(x, True)
    return z


# Wrong: the helper rebinds its flag, which may then hold.
def capture_rebound(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        z = scaled_rebound(x, False)
    return z
