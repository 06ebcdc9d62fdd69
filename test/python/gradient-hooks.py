# RUN: %check_streamsafe_py %s

# A gradient hook is handed the gradient autograd made on the stream of the
# backward op, current while the hook runs. When it returns a replacement,
# autograd lets go of the gradient it handed, its last reference
# (lib/model/GradientHooks.h): work the hook queued on another stream that
# still reads it races the next backward kernels the allocator gives the
# block to, unless it was recorded there (ColossalAI's sharded model before
# its fix, sharded_model_v2.py:206).
import functools

import torch


class Reducer:
    def __init__(self, params):
        self.comm_stream = torch.cuda.Stream()
        for p in params:
            p.register_hook(self._post_backward_hook)

    def _post_backward_hook(self, grad: torch.Tensor):
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            new_grad = grad.clone()
            # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'grad' is used on attribute 'self.comm_stream' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while attribute 'self.comm_stream' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.comm_stream' here
            # CHECK-NOTES: :[[@LINE-6]]:35: note: 'grad' is handed in here by the caller, allocated on the caller's current stream
            # CHECK-NOTES: :[[@LINE+3]]:9: note: the caller lets go of 'grad' when this returns, its last reference, with no record_stream on attribute 'self.comm_stream' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-12]]:9: note: 'self.comm_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            new_grad.div_(8)
        return torch.empty_like(grad)


# A project's wrapper registers it, through functools.partial; the
# gradient is the hook's last parameter. Returning None on one path leaves
# the gradient to autograd there; the report is of the path that replaces
# it.
comm = torch.cuda.Stream()


def post_backward(world, param, grad):
    if world == 1:
        return None
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        shard = grad.narrow(0, 0, grad.size(0) // world).clone()
        # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'grad' is used on global stream 'comm' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while global stream 'comm' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to global stream 'comm' here
        # CHECK-NOTES: :[[@LINE-8]]:33: note: 'grad' is handed in here by the caller, allocated on the caller's current stream
        # CHECK-NOTES: :[[@LINE+3]]:5: note: the caller lets go of 'grad' when this returns, its last reference, with no record_stream on global stream 'comm' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-13]]:8: note: 'comm' is given a fresh stream here and never another stream, so it is not the caller's current stream
        # CHECK-NOTES: :[[@LINE-10]]:8: note: on the path reported, 'world == 1' is false
    return grad.new_zeros(())


def install(manager, params, world):
    manager.register_backward_hooks(functools.partial(post_backward, world))


# Correct: recorded on the stream that reads it.
class RecordedReducer:
    def __init__(self, params):
        self.comm_stream = torch.cuda.Stream()
        for p in params:
            p.register_hook(self._post_backward_hook)

    def _post_backward_hook(self, grad: torch.Tensor):
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            new_grad = grad.clone()
            new_grad.div_(8)
            grad.record_stream(self.comm_stream)
        return torch.empty_like(grad)


# Correct: the current stream waits for the reduction before the return
# (ColossalAI's fix).
class JoinedReducer:
    def __init__(self, params):
        self.comm_stream = torch.cuda.Stream()
        for p in params:
            p.register_hook(self._post_backward_hook)

    def _post_backward_hook(self, grad: torch.Tensor):
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            new_grad = grad.clone()
            new_grad.div_(8)
        torch.cuda.current_stream().wait_stream(self.comm_stream)
        return torch.empty_like(grad)


# Silent: a hook that returns nothing leaves the gradient to autograd.
class KeepingReducer:
    def __init__(self, params):
        self.comm_stream = torch.cuda.Stream()
        for p in params:
            p.register_hook(self._post_backward_hook)

    def _post_backward_hook(self, grad: torch.Tensor):
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            new_grad = grad.clone()
            new_grad.div_(8)


# Silent: the same body, never registered as a hook; its caller keeps
# what it hands in.
class NotAHook:
    def __init__(self):
        self.comm_stream = torch.cuda.Stream()

    def reduce(self, grad: torch.Tensor):
        self.comm_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.comm_stream):
            new_grad = grad.clone()
            new_grad.div_(8)
        return torch.empty_like(grad)
