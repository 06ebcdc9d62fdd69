import torch


def f(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTEND
    with torch.cuda.stream(s):
        # NOLINTBEGIN(streamsafe-unsynchronized-access)
        z = y * 2
        # NOLINTEND(streamsafe-missing-record-stream)
    text = "# NOLINTBEGIN"
    return z, text


def g(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN
    with torch.cuda.stream(s):
        z = y * 2
    # NOLINTEND
    return z
