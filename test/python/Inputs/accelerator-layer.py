import torch
from deepspeed.accelerator import get_accelerator


def offload(x: torch.Tensor):
    s = get_accelerator().Stream()
    y = x + 1
    with get_accelerator().stream(s):
        z = y * 2
    y.record_stream(s)
    return z


def offload_waits(x: torch.Tensor):
    acc = get_accelerator()
    s = acc.Stream()
    y = x + 1
    s.wait_stream(acc.current_stream())
    with acc.stream(s):
        z = y * 2
    y.record_stream(s)
    return z
