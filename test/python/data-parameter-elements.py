# RUN: %check_streamsafe_py %s

# The tensors in a parameter the analysis does not follow (a dict or a
# list of the caller's, a batch): where only a tensor may stand
# (`bufs[k].copy_(inputs[k])`, a callee that copies from it), they are the
# caller's tensors, ready on its current stream at entry, one variable for
# all of them (`inputs[]`). Megatron's full-iteration CUDA graph loader
# reads them on its own stream through a recursive helper with no wait.
from typing import List, Sequence

import torch


def clone_into(tgt, src):
    if isinstance(src, dict):
        for k in src:
            clone_into(tgt[k], src[k])
    elif isinstance(src, torch.Tensor):
        tgt.copy_(src, non_blocking=True)


class Loader:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def load(self, inputs, bufs: dict):
        if isinstance(inputs, tuple):
            inputs = inputs[0]
        with torch.cuda.stream(self.stream):
            clone_into(bufs, inputs)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'tgt' is written on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-13]]:9: note: 'tgt' is written on attribute 'self.stream' here, in 'clone_into'
            # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-8]]:28: note: 'tgt' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-11]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-6]]:13: warning: tensor 'src' is read on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-18]]:19: note: 'src' is read on attribute 'self.stream' here, in 'clone_into'
            # CHECK-NOTES: :[[@LINE-9]]:14: note: the current stream is set to attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-13]]:20: note: 'src' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        torch.cuda.current_stream().wait_stream(self.stream)
        return bufs

    def load_flat(self, inputs: dict, bufs: dict):
        with torch.cuda.stream(self.stream):
            for k in inputs:
                bufs[k].copy_(inputs[k], non_blocking=True)
                # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'bufs[]' is written on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self.stream' here
                # CHECK-NOTES: :[[@LINE-6]]:39: note: 'bufs[]' is assumed ready on the caller's current stream at function entry
                # CHECK-NOTES: :[[@LINE-27]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
                # CHECK-NOTES: :[[@LINE-5]]:31: warning: tensor 'inputs[]' is read on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-8]]:14: note: the current stream is set to attribute 'self.stream' here
                # CHECK-NOTES: :[[@LINE-10]]:25: note: 'inputs[]' is assumed ready on the caller's current stream at function entry
                # CHECK-NOTES: :[[@LINE-31]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        torch.cuda.current_stream().wait_stream(self.stream)
        return bufs


# Twins: the side stream waits for the caller's stream first; a parameter
# rebound to something else is not the caller's any more: silent.
class Twins:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def load_waited(self, inputs, bufs):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            clone_into(bufs, inputs)
            for k in inputs:
                bufs[k].copy_(inputs[k], non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.stream)
        return bufs

    def scale_rebound(self, inputs, make):
        inputs = make()
        with torch.cuda.stream(self.stream):
            for k in inputs:
                inputs[k].mul_(2)
        torch.cuda.current_stream().wait_stream(self.stream)
        return inputs


# An annotation says what a list holds (`List[torch.Tensor]`,
# `Sequence[Tensor]`, `Tuple[Tensor, ...]`): each element it gives a loop
# is the caller's tensor, ready on its current stream.
def scale_each(xs: List[torch.Tensor]):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for x in xs:
            x.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is written on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-4]]:13: note: 'x' is assumed ready on the caller's current stream at function entry


# The twins: a list of ints, and the side stream waiting first.
def scale_ints(xs: Sequence[int]):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for x in xs:
            print(x * 2)


def scale_each_after_wait(xs: List[torch.Tensor]):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for x in xs:
            x.mul_(2)
    torch.cuda.current_stream().wait_stream(s)

