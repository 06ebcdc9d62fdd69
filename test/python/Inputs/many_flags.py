import torch


# Five flags each choose what runs on the side stream, each on a tensor of
# its own, and are tested again after it: more paths than are kept apart at
# one point (MaxPartitions). (Flags no later branch tests, and paths that
# left the same state, are joined first: that loses nothing.)
def five_flags(x: torch.Tensor, a: bool, b: bool, c: bool, d: bool, e: bool,
               y: torch.Tensor, z: torch.Tensor, u: torch.Tensor,
               v: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        if a:
            x.add_(1)
        if b:
            y.mul_(2)
        if c:
            z.sub_(3)
        if d:
            u.div_(4)
        if e:
            v.neg_()
    torch.cuda.current_stream().wait_stream(side)
    if a and b and c and d and e:
        x.abs_()
    return x


# Two flags: within the bounds.
def two_flags(x: torch.Tensor, a: bool, b: bool):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        if a:
            x.add_(1)
        if b:
            x.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    return x
