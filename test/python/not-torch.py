# RUN: %check_streamsafe_py %s

# Without `import torch`, `torch` is just a name: nothing is followed.
from mylib import torch
import numpy as np


def looks_like_torch(x):
    s = torch.cuda.Stream()
    y = torch.randn(10, device="cuda")
    with torch.cuda.stream(s):
        z = y * 2
    return z


def numpy_only():
    a = np.zeros(10)
    return a.sum()
