# RUN: %check_streamsafe_py %s

# `x == c` and `x != c` of a value the def never changes test one thing:
# whether x equals c. Where x equals one constant it equals no other that
# the def compares it with, so `method != 2` and then `method == 1` take
# consistent branches (apex's spatial bottleneck: its third stream waits
# for the caller's stream under `spatial_method != 2`, and is used under
# `spatial_method == 1` and `== 3`).
import torch


def halo_method(x: torch.Tensor, method: int):
    side = torch.cuda.Stream()
    y = x * 2
    if method != 2:
        side.wait_stream(torch.cuda.current_stream())
    if method == 1:
        with torch.cuda.stream(side):
            y.add_(1)
    elif method == 3:
        with torch.cuda.stream(side):
            y.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    return y


def by_mode(x: torch.Tensor, mode: str):
    side = torch.cuda.Stream()
    y = x * 2
    if mode == "overlap":
        side.wait_stream(torch.cuda.current_stream())
    if mode == 'overlap':
        with torch.cuda.stream(side):
            y.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    return y


# Wrong: the wait is under `method == 3`, the use under `method == 1`.
def halo_other_method(x: torch.Tensor, method: int):
    side = torch.cuda.Stream()
    y = x * 2
    if method == 3:
        side.wait_stream(torch.cuda.current_stream())
    if method == 1:
        with torch.cuda.stream(side):
            y.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'y' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-8]]:8: note: on the path reported, 'method == 3' is false
            # CHECK-NOTES: :[[@LINE-7]]:8: note: on the path reported, 'method == 1' is true
    torch.cuda.current_stream().wait_stream(side)
    return y


# Wrong: with scale 1 nothing waits and the use runs. 1 and 1.0 are one
# value: only integer and string constants are told apart, so `scale != 1`
# failing does not rule out `scale == 1.0`.
def by_float(x: torch.Tensor, scale: float):
    side = torch.cuda.Stream()
    y = x * 2
    if scale != 1:
        side.wait_stream(torch.cuda.current_stream())
    if scale == 1.0:
        with torch.cuda.stream(side):
            y.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-8]]:9: note: 'y' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-8]]:8: note: on the path reported, 'scale != 1' is false
            # CHECK-NOTES: :[[@LINE-7]]:8: note: on the path reported, 'scale == 1.0' is true
    torch.cuda.current_stream().wait_stream(side)
    return y
