# RUN: %check_streamsafe_py %s

# `with torch.cuda.stream(s):` is also written through a name that stands
# for torch.cuda.stream (lib/python/StreamContexts.h): an attribute every
# assignment of the file gives that function (TorchRec's
# `self._stream_context = torch.get_device_module(d).stream if ... else
# torch.cuda.stream`), or a parameter the def only ever calls as a
# with-item with one argument (a stream context handed in by the caller).
# A stream parameter that may be None (tested so in the def) is, on the
# path where it is None, no stream at all: entering it switches nothing.
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
