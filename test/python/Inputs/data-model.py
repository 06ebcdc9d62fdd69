# The Python rendering of Inputs/data-model.cpp (cross-language.test).
import torch


def overlapping_rows(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record()
    ready.wait(s1)
    ready.wait(s2)
    with torch.cuda.stream(s1):
        out.narrow(0, 0, 2).copy_(x)
    with torch.cuda.stream(s2):
        out.select(0, 1).zero_()
    return x


def disjoint_rows(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record()
    ready.wait(s1)
    ready.wait(s2)
    with torch.cuda.stream(s1):
        out.narrow(0, 0, 2).copy_(x)
    with torch.cuda.stream(s2):
        out.select(0, 2).zero_()
    return x


def chunks_stacked_without_join(x: torch.Tensor):
    s = torch.cuda.Stream()
    parts = x.chunk(4)
    ready = torch.cuda.Event()
    ready.record()
    ready.wait(s)
    with torch.cuda.stream(s):
        for p in parts:
            p.mul_(2)
    return torch.stack(parts)


def pinned_sync_of_the_wrong_stream(d: torch.Tensor):
    s = torch.cuda.Stream()
    cur = torch.cuda.current_stream()
    h = torch.empty(16, pin_memory=True)
    ready = torch.cuda.Event()
    ready.record()
    ready.wait(s)
    with torch.cuda.stream(s):
        h.copy_(d, non_blocking=True)
    cur.synchronize()
    return h.item()


def loop_reassign(batches, acc: torch.Tensor):
    side = torch.cuda.Stream()
    for b in batches:
        staging = torch.mul(b, 2)
        ready = torch.cuda.Event()
        ready.record()
        ready.wait(side)
        with torch.cuda.stream(side):
            acc.add_(staging)


def other_device_side_stream():
    out = torch.empty(16, device='cuda:1')
    with torch.cuda.device(1):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            out.fill_(1)
        torch.cuda.current_stream(1).synchronize()
    return out
