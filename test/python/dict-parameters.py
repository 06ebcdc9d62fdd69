# RUN: %check_streamsafe_py %s
#
# A parameter annotated as a dict whose values are tensors (`Dict[str,
# torch.Tensor]`, `dict[str, Tensor]`, `Mapping`, under `Optional`) holds the
# caller's tensors, ready on the caller's current stream at entry: its values
# in a loop over `.items()` or `.values()`, or in a comprehension, are read
# where the code reads them (detectron2's _write_metrics before its fix).
from typing import Dict, List, Optional

import torch


def metrics(loss_dict: Dict[str, torch.Tensor]):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        return {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        # CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'loss_dict[]' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:13: note: 'loss_dict[]' is assumed ready on the caller's current stream at function entry


def metrics_loop(losses: Optional[dict[str, torch.Tensor]]):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for v in losses.values():
            v.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'v' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-4]]:13: note: 'v' is assumed ready on the caller's current stream at function entry


def norms(grads: List[torch.Tensor]):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        return [g.norm() for g in grads]
        # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'grads[]' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:11: note: 'grads[]' is assumed ready on the caller's current stream at function entry


# Silent: the side stream waits for the caller's first.
def metrics_waited(loss_dict: Dict[str, torch.Tensor]):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        return {k: v.detach().cpu().item() for k, v in loss_dict.items()}


# Silent: a dict of strings says nothing of tensors.
def names(tags: Dict[str, str]):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        return {k: v.upper() for k, v in tags.items()}
