# Imported by pkg/ops.py: a helper's module may import another.
import torch


def fork(side):
    side.wait_stream(torch.cuda.current_stream())


def join(side):
    torch.cuda.current_stream().wait_stream(side)
