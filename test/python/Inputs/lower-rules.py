# The Python rendering of Inputs/lower-rules.cpp (cross-language.test): the
# rules of lib/lower and lib/report/ShownFindings.h, written once for both
# languages, give the same findings.
import torch


# Side parameters (lib/lower/SideParameters.h): entered, so a side stream.
def scale_on(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    with torch.cuda.stream(s):
        return y + 1


# A default may be the current stream: no proof.
def scale_defaulted(x: torch.Tensor, s: torch.cuda.Stream = torch.cuda.default_stream()):
    y = x * 2
    with torch.cuda.stream(s):
        return y + 1


# copy_() returns its object (lib/lower/Regions.h): row 0 of out.
def copy_result_overlaps(x: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    out = torch.empty(2, 64, device="cuda")
    top = out.select(0, 0).copy_(x)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        top.mul_(2)
    with torch.cuda.stream(s2):
        out.select(0, 0).zero_()
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out


# Two tensors at one call are two findings (lib/report/ShownFindings.h).
def add_on(p: torch.Tensor, q: torch.Tensor, s: torch.cuda.Stream):
    with torch.cuda.stream(s):
        p.add_(1)
        q.add_(1)


def two_at_the_call(x: torch.Tensor):
    s = torch.cuda.Stream()
    a = x * 2
    b = x * 3
    add_on(a, b, s)


# Placement (lib/lower/Placement.h): a pin flag the analysis cannot read
# asks for pinned memory on some path, the case that can race.
def read_back(x: torch.Tensor, pin: bool):
    host = torch.empty(64, pin_memory=pin)
    host.copy_(x, non_blocking=True)
    return host[0].item()


# Pinned memory asked for with False is pageable: the copy is synchronous.
def read_back_pageable(x: torch.Tensor):
    host = torch.empty(64, pin_memory=False)
    host.copy_(x, non_blocking=True)
    return host[0].item()


# A forwarding setter may leave the stream it is given set
# (lib/lower/LeavesStreamSet.h): its caller chose it and is judged.
def use_stream(s: torch.cuda.Stream):
    torch.cuda.set_stream(s)


def forwards_and_forgets():
    s = torch.cuda.Stream()
    use_stream(s)


# A section (lib/lower/StreamSections.h): begin() leaves its stream set
# for end(); a caller that does not close it is judged.
class Section:
    def __init__(self):
        self.saved = torch.cuda.current_stream()
        self.side = torch.cuda.Stream()

    def begin(self):
        self.saved = torch.cuda.current_stream()
        torch.cuda.set_stream(self.side)

    def end(self):
        torch.cuda.set_stream(self.saved)


def opens_and_closes():
    sec = Section()
    sec.begin()
    sec.end()


def opens_only():
    sec = Section()
    sec.begin()
