# The module test/python/imports-modules.test analyses for imported defs'
# returns (lib/python/ImportedReturns.h): `self.flat = flatten(params)`
# holds a tensor, as a call of a def of this file would, in every method's
# view of the attribute.
import torch

from .flat import flatten


# Wrong: made on the caller's stream in __init__, read on the side stream
# in step() with no wait.
class Optimizer:
    def __init__(self, params):
        self.flat = flatten(params)
        self.side = torch.cuda.Stream()

    def step(self):
        with torch.cuda.stream(self.side):
            self.flat * 2
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'self.flat' is read on attribute 'self.side' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.side' here
            # CHECK-NOTES: :[[@LINE-8]]:21: note: 'self.flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-10]]:9: note: in '__init__', a method of the same object, which returns with it in flight; 'step' may run after it
            # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Right: the side stream waits first.
class JoinedOptimizer:
    def __init__(self, params):
        self.flat = flatten(params)
        self.side = torch.cuda.Stream()

    def step(self):
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            self.flat * 2
