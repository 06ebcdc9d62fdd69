# RUN: %check_streamsafe_py %s

# Names resolve through the module's imports only: aliases and from-imports
# resolve; a name bound otherwise does not, and stays silent.
import torch as th
import torch.cuda as tc
from torch.cuda import Stream, stream as on_stream
from torch import cuda


def module_alias(x: th.Tensor):
    s = tc.Stream()
    y = x + 1
    with tc.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def from_imports(x: th.Tensor):
    s = Stream()
    y = x + 1
    with on_stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def submodule_from_torch(x: th.Tensor):
    s = cuda.Stream()
    y = x + 1
    with cuda.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def shadowed_locally(x: th.Tensor, Stream):
    # Stream is this function's parameter here, not torch.cuda.Stream: s is
    # no pool stream. The def enters it, so it is another stream by that
    # use (side-stream-locals.py).
    s = Stream()
    y = x + 1
    with on_stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on stream 's' while its write on the caller's current stream may still be pending; nothing makes stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 's', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
    y.record_stream(s)
    return z


def unannotated_parameters_are_not_followed(x):
    # x may be anything: what it computes is not followed.
    s = Stream()
    y = x + 1
    with on_stream(s):
        z = y * 2
    return z
