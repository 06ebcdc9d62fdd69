# RUN: %check_streamsafe_py %s

# An op whose result's size the data decides (`nonzero()`, `argwhere()`,
# `masked_select()`, and indexing by a boolean mask, `x[x > 0]`) makes the
# host wait for the current stream to read that size before it allocates
# the result (aten/src/ATen/native/cuda/Nonzero.cu). Under a capture that
# is a host wait the runtime refuses; elsewhere it completes the current
# stream's earlier work, as a synchronize would. A gather by an index
# tensor has a size known in advance. The C++ twin is
# test/checkers/graph-capture-sized-by-data.cpp.
import torch


def positive_rows(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        idx = torch.nonzero(x)
        # CHECK-NOTES: :[[@LINE-1]]:15: warning: 'nonzero' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the capture begins here, on a pool stream
    return idx


def positive_values(x: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        vals = x[x > 0]
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: 'x[x > 0]' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the capture begins here, on a pool stream
    return vals


def masked_by_name(x: torch.Tensor, y: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    keep = (x > 0) & ~(y > 0)
    with torch.cuda.graph(g):
        vals = x.masked_select(keep)
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: 'masked_select' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the capture begins here, on a pool stream
        also = y[keep]
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: 'y[keep]' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the capture begins here, on a pool stream
    return vals, also


# Silent: the gather's size is the index's.
def gathered(x: torch.Tensor, idx: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        vals = x[idx]
    return vals


# Silent: the count is taken before the capture begins.
def counted_before(x: torch.Tensor, out: torch.Tensor):
    idx = x.nonzero().squeeze(1)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out.copy_(x[idx])
    return idx


# Silent: the host waited for the current stream (the count) before it
# reads the pinned buffer the non_blocking copy fills.
def read_after_count(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    n = d.nonzero()
    return h.tolist(), n


# Wrong, the twin: no count, no wait.
def read_without_count(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    n = d.abs()
    return h.tolist(), n
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Wrong: the count of a host tensor waits for no stream.
def read_after_host_count(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    flags = torch.zeros(16)
    n = flags.nonzero()
    return h.tolist(), n
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-5]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


# Wrong: torch.allclose reads its answer on the host, inside the capture.
def compared_in_capture(x: torch.Tensor, y: torch.Tensor):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        z = x * 2
        ok = torch.allclose(z, y)
        # CHECK-NOTES: :[[@LINE-1]]:14: warning: 'allclose' makes the host wait for a pool stream, which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the capture begins here, on a pool stream
    return ok
