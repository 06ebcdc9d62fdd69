# The Python rendering of Inputs/owned-and-handed.cpp (cross-language.test):
# a gradient hook that replaces its gradient owns it
# (lib/model/GradientHooks.h), and the fields of an object the caller
# hands in are the caller's data, ready at entry.
import torch


def post_hook(grad: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        grad.mul(2)
    return torch.empty_like(grad)


def install(param):
    param.register_hook(post_hook)


def reduce_one(bucket):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        bucket.grad_data.div_(8)
