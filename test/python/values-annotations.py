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


# A local's annotation says what it holds, whatever it is bound to: the
# batch from the loader is a tensor made by code the analysis does not see,
# copied on the loader's stream and read on the caller's with no wait.
class Loader:
    def __init__(self, it):
        self.it = it
        self.stream = torch.cuda.Stream()

    def next_batch(self):
        with torch.cuda.stream(self.stream):
            batch: torch.Tensor = next(self.it)
            gpu = batch.to("cuda", non_blocking=True)
        return gpu.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'gpu' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:54: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:19: note: 'gpu' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-11]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Fixed: the caller's stream waits for the loader's; and a local annotated
# `int` is no tensor.
class JoinedLoader:
    def __init__(self, it):
        self.it = it
        self.stream = torch.cuda.Stream()

    def next_batch(self):
        with torch.cuda.stream(self.stream):
            batch: torch.Tensor = next(self.it)
            gpu = batch.to("cuda", non_blocking=True)
            count: int = next(self.it)
        torch.cuda.current_stream().wait_stream(self.stream)
        gpu.record_stream(torch.cuda.current_stream())
        return gpu.sum() + count
