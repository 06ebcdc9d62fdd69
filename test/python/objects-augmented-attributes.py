# RUN: %check_streamsafe_py %s

# `self.x += v` changes a tensor in place whatever v is (and makes a number
# a tensor when v is one): it says nothing against the other assignments
# that make x a tensor (lib/python/HelperIndex.cpp, the attribute scan).
# apex's distributed fused Adam accumulates its gradient norm so on a side
# stream and hands it to the caller with no wait.
import torch


class GradNorm:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.norm = torch.zeros([], device="cuda")

    def add_block(self, g: torch.Tensor, first: bool):
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            if first:
                self.norm = g.norm() ** 2
            else:
                self.norm += 1

    def value(self):
        return self.norm * 1
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.norm' is read on the caller's current stream while its write on attribute 'self.side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-7]]:29: note: 'self.norm' is written on attribute 'self.side' here
        # CHECK-NOTES: :[[@LINE-12]]:9: note: in 'add_block', a method of the same object, which returns with it in flight; 'value' may run after it
        # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self.side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Correct: the caller's stream waits for the side stream first.
class JoinedGradNorm:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.norm = torch.zeros([], device="cuda")

    def add_block(self, g: torch.Tensor, first: bool):
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            if first:
                self.norm = g.norm() ** 2
            else:
                self.norm += 1

    def value(self):
        torch.cuda.current_stream().wait_stream(self.side)
        return self.norm * 1


# Silent: a counter that starts as a number is not made a tensor by `+= 1`
# (evidence both ways would be needed to follow it, and there is none).
class Counter:
    def __init__(self):
        self.side = torch.cuda.Stream()
        self.steps = 0

    def add_block(self, g: torch.Tensor):
        with torch.cuda.stream(self.side):
            self.steps += 1

    def value(self):
        return self.steps * 1
