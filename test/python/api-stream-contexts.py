# RUN: %check_streamsafe_py %s

# `with torch.cuda.stream(s):` is also written through a name that stands
# for torch.cuda.stream (lib/python/StreamContexts.h): an attribute every
# assignment of the file gives that function (TorchRec's
# `self._stream_context = torch.get_device_module(d).stream if ... else
# torch.cuda.stream`), or a parameter the def only ever calls as a
# with-item with one argument (a stream context handed in by the caller).
# A stream parameter that may be None (tested so in the def) is, on the
# path where it is None, no stream at all: entering it switches nothing.
#
# A stream context is also a value, made now and entered by a later `with`
# (`ctx = torch.cuda.stream(s) if overlap else nullcontext()`, Megatron's
# bucket groups): a local whose every binding is a stream context or one
# that switches nothing (`nullcontext()`, `torch.cuda.stream(None)`) holds,
# on each path, the stream of the binding that reached the `with`. So does
# `with (a if c else b):` of stream contexts.
from contextlib import nullcontext
from typing import Any, Callable, ContextManager, Optional

import torch


class Pipeline:
    def __init__(self, device: torch.device):
        self._stream_context = (
            torch.get_device_module(device).stream
            if device.type == "cuda"
            else torch.cuda.stream
        )
        self._dist_stream = torch.cuda.Stream()

    # The batch is made on the dist stream and used on the caller's, which
    # never waits for it.
    def start(self, host: torch.Tensor):
        with self._stream_context(self._dist_stream):
            batch = host.to("cuda", non_blocking=True)
        return batch.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'batch' is read on the caller's current stream while its write on attribute 'self._dist_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:55: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:21: note: 'batch' is written on attribute 'self._dist_stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self._dist_stream' here
        # CHECK-NOTES: :[[@LINE-12]]:9: note: 'self._dist_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Fixed: the caller's stream waits for the dist stream first.
    def start_joined(self, host: torch.Tensor):
        with self._stream_context(self._dist_stream):
            batch = host.to("cuda", non_blocking=True)
        torch.cuda.current_stream().wait_stream(self._dist_stream)
        batch.record_stream(torch.cuda.current_stream())
        return batch.sum()


# The stream context is the caller's: the lookup's result is made on the
# source stream and read on the caller's, which never waits for it
# (TorchRec's _start_embedding_lookup).
def lookup(
    host: torch.Tensor,
    source_stream: Optional[torch.Stream],
    stream_context: Callable[..., ContextManager[Any]],
):
    with stream_context(source_stream):
        out = host.to("cuda", non_blocking=True)
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on stream parameter 'source_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:49: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:15: note: 'out' is written on stream parameter 'source_stream' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to stream parameter 'source_stream' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: 'source_stream' is used as a side stream here, so it is taken to differ from the caller's current stream


# Fixed: the join is made when there is a stream; when there is none (the
# path where the test finds it None), stream_context(None) switched nothing
# and there is nothing to join.
def lookup_joined(
    host: torch.Tensor,
    source_stream: Optional[torch.Stream],
    stream_context: Callable[..., ContextManager[Any]],
):
    with stream_context(source_stream):
        out = host.to("cuda", non_blocking=True)
    if source_stream is not None:
        torch.cuda.current_stream().wait_stream(source_stream)
        out.record_stream(torch.cuda.current_stream())
    return out.sum()


# A parameter the def also calls otherwise is not taken for a stream
# context: silent.
def lookup_other_use(host: torch.Tensor, source_stream: torch.Stream, make):
    with make(source_stream):
        out = host.to("cuda", non_blocking=True)
    make(out)
    return out.sum()


# Kept in a local, chosen by a flag: on the path where the flag holds, the
# gather runs on the side stream, which never waited for the caller's.
def gather_kept(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    ctx = torch.cuda.stream(side) if overlap else nullcontext()
    out = torch.empty_like(x)
    with ctx:
        out.copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-7]]:38: note: on the path reported, 'overlap' is true
        # CHECK-NOTES: :[[@LINE-5]]:19: warning: tensor 'x' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-12]]:17: note: 'x' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-11]]:38: note: on the path reported, 'overlap' is true
    torch.cuda.current_stream().wait_stream(side)
    return out


# Bound in the arms of an if: the wait made in one arm covers the input,
# not the buffer made after more work on the current stream.
def gather_branches(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    if overlap:
        side.wait_stream(torch.cuda.current_stream())
        ctx = torch.cuda.stream(side)
    else:
        ctx = nullcontext()
    norm = x.norm()
    out = torch.empty_like(x)
    with ctx:
        out.copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-12]]:8: note: on the path reported, 'overlap' is true
    torch.cuda.current_stream().wait_stream(side)
    return out, norm


# Chosen in the with item itself.
def gather_inline(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    out = torch.empty_like(x)
    with torch.cuda.stream(side) if overlap else nullcontext():
        out.copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:37: note: on the path reported, 'overlap' is true
        # CHECK-NOTES: :[[@LINE-5]]:19: warning: tensor 'x' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-11]]:19: note: 'x' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-9]]:37: note: on the path reported, 'overlap' is true
    torch.cuda.current_stream().wait_stream(side)
    return out


# Fixed: the side stream waits after both are made.
def gather_kept_joined(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    ctx = torch.cuda.stream(side) if overlap else nullcontext()
    out = torch.empty_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with ctx:
        out.copy_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Fixed: the buffer is made before the arm's wait.
def gather_branches_joined(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    out = torch.empty_like(x)
    if overlap:
        side.wait_stream(torch.cuda.current_stream())
        ctx = torch.cuda.stream(side)
    else:
        ctx = nullcontext()
    with ctx:
        out.copy_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Contexts that switch nothing: silent.
def gather_nothing(x: torch.Tensor):
    ctx = nullcontext()
    none = torch.cuda.stream(None)
    out = torch.empty_like(x)
    with ctx, none:
        out.copy_(x)
    return out


# A test the analysis cannot keep apart (a tensor's size): the stream
# entered is unknown, as a stream chosen so is: silent.
def gather_untested(x: torch.Tensor):
    side = torch.cuda.Stream()
    ctx = torch.cuda.stream(side) if x.numel() > 4 else nullcontext()
    out = torch.empty_like(x)
    with ctx:
        out.copy_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out


# A local also given another context: not followed, silent.
def gather_mixed(x: torch.Tensor, overlap: bool):
    side = torch.cuda.Stream()
    ctx = torch.cuda.stream(side) if overlap else torch.autocast("cuda")
    out = torch.empty_like(x)
    with ctx:
        out.copy_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out
