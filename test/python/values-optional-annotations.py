# RUN: %check_streamsafe_py %s

# `Optional[X]`, `Union[X, None]` and `X | None` annotate an X (which may be
# None): a stream parameter so annotated and entered is a side stream, a
# tensor parameter so annotated is a tensor (docs/python.md, "Values whose
# type is not written"). `torch.cuda.stream(None)` switches nothing, so the
# path where the stream is given is the one that can race.
from typing import Optional, Union

import torch


def fill_on(scores: Optional[torch.Tensor], side: Optional[torch.Stream]):
    out = scores * 2
    with torch.cuda.stream(side):
        out.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on stream parameter 'side' while its write on the caller's current stream may still be pending; nothing makes stream parameter 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    torch.cuda.current_stream().wait_stream(side)
    return out


def fill_on_union(scores: Union[torch.Tensor, None], side: torch.Stream | None):
    out = scores * 2
    with torch.cuda.stream(side):
        out.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on stream parameter 'side' while its write on the caller's current stream may still be pending; nothing makes stream parameter 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    torch.cuda.current_stream().wait_stream(side)
    return out


# Fixed: the side stream waits for the caller's first.
def fill_after_wait(scores: Optional[torch.Tensor], side: Optional[torch.Stream]):
    out = scores * 2
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        out.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    return out


# A string annotation is not read, and Optional[int] is no tensor: neither
# side nor scores is known here, and nothing is reported.
def not_known(scores: Optional[int], side: "torch.Stream | None"):
    out = scores * 2
    with torch.cuda.stream(side):
        out += 1
    return out
