import torch


# Five flags each choose what runs on the side stream: more branch outcomes
# than a path remembers (MaxAssumptions) and more paths than are kept apart
# at one point (MaxPartitions).
def five_flags(x: torch.Tensor, a: bool, b: bool, c: bool, d: bool, e: bool):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        if a:
            x.add_(1)
        if b:
            x.mul_(2)
        if c:
            x.sub_(3)
        if d:
            x.div_(4)
        if e:
            x.neg_()
    torch.cuda.current_stream().wait_stream(side)
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
