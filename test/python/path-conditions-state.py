# RUN: %check_streamsafe_py %s

# Tests the state decides (docs/python.md, "Paths chosen by flags"): a
# stream or event name against None or its truth, and two stream names
# compared. A stream or an event is never false; a stream the def uses as
# a side stream differs from the caller's current one; a name bound to a
# recorded event is not None. An edge whose test the state contradicts is
# not taken. `and` and `or` test their right side only where the left does
# not decide, so each edge carries every test on the way to it.
from typing import Optional

import torch


# Right (TorchRec's synced embedding lookup): the event is recorded only
# when the side stream is not the current one, and waited for only when it
# was recorded. On the paths without the event, the two streams are one.
def lookup_synced(ctx, source_stream: Optional[torch.Stream],
                  target_stream: Optional[torch.Stream], stream_context):
    current_stream = None
    device_stream = source_stream or target_stream
    if device_stream:
        current_stream = torch.get_device_module(device_stream.device).current_stream()
    with stream_context(source_stream):
        kjt = ctx.requests.wait()
        source_event = (
            source_stream.record_event()
            if source_stream is not None and source_stream != current_stream
            else None
        )
    if current_stream is not None and source_event is not None:
        current_stream.wait_event(source_event)
    kjt.record_stream(target_stream)
    ctx.lookup(kjt)


# Wrong: the event is recorded only when the two streams are one, which a
# side stream never is; nothing orders the lookup after the write.
def lookup_inverted(ctx, source_stream: Optional[torch.Stream],
                    target_stream: Optional[torch.Stream], stream_context):
    current_stream = None
    device_stream = source_stream or target_stream
    if device_stream:
        current_stream = torch.get_device_module(device_stream.device).current_stream()
    with stream_context(source_stream):
        kjt = ctx.requests.wait()
        source_event = (
            source_stream.record_event()
            if source_stream is not None and source_stream == current_stream
            else None
        )
    if current_stream is not None and source_event is not None:
        current_stream.wait_event(source_event)
    kjt.record_stream(target_stream)
    ctx.lookup(kjt)
    # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'kjt' is read on the caller's current stream while its write on stream parameter 'source_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-12]]:15: note: 'kjt' is written on stream parameter 'source_stream' here
    # CHECK-NOTES: :[[@LINE-14]]:10: note: the current stream was set to stream parameter 'source_stream' here
    # CHECK-NOTES: :[[@LINE-15]]:10: note: 'source_stream' is used as a side stream here, so it is taken to differ from the caller's current stream
    # CHECK-NOTES: :[[@LINE-9]]:39: note: on the path reported, 'source_event is not None' is false


# Right: a local stream bound to None is None until the branch that makes
# a stream; the wait is under the same test of it, and `a and b` carries
# both tests to the fork.
def fork_when_given(x: torch.Tensor, overlap: bool, group_size: int):
    side = None
    if overlap and group_size > 1:
        side = torch.cuda.Stream()
    y = x * 2
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            y.add_(1)
        torch.cuda.current_stream().wait_stream(side)
    return y


# Wrong: the stream is made when either flag is set, but made to wait for
# y's write only under `overlap`: with a group and no overlap, the side
# stream writes y unordered. The note names that path.
def fork_either(x: torch.Tensor, overlap: bool, group_size: int):
    side = None
    if overlap or group_size > 1:
        side = torch.cuda.Stream()
    y = x * 2
    if overlap and side is not None:
        side.wait_stream(torch.cuda.current_stream())
    if side is not None:
        with torch.cuda.stream(side):
            y.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'y' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-11]]:8: note: on the path reported, 'overlap' is false
            # CHECK-NOTES: :[[@LINE-12]]:19: note: on the path reported, 'group_size > 1' is true
        torch.cuda.current_stream().wait_stream(side)
    return y


# `isinstance` tells kinds apart (a dict of tensors and tuples): where the
# value is a tuple or a list it holds no tensor; where it is a tensor it
# does.
def told_apart(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = x * 2
    if not isinstance(y, (tuple, list)):
        with torch.cuda.stream(side):
            y.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-6]]:9: note: 'y' is written on the caller's current stream here
    else:
        with torch.cuda.stream(side):
            y[0].add_(1)
    y.record_stream(side)


def told_tensor(x: torch.Tensor):
    side = torch.cuda.Stream()
    y = x * 2
    if isinstance(y, torch.Tensor):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            y.add_(1)
    else:
        with torch.cuda.stream(side):
            y.add_(1)
    y.record_stream(side)
