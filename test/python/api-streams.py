# RUN: %check_streamsafe_py %s

# The stream APIs: torch.cuda.Stream() (a pool stream), current_stream(),
# default_stream(), ExternalStream, torch.cuda.stream(...) and set_stream.
import torch


def pool_streams_differ(x: torch.Tensor):
    a = torch.cuda.Stream()
    b = torch.cuda.Stream()
    with torch.cuda.stream(a):
        y = x + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 'a', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'a' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'a' here
        # CHECK-NOTES: :[[@LINE-7]]:25: note: 'x' is assumed ready on the caller's current stream at function entry
    with torch.cuda.stream(b):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 'b' while its write on pool stream 'a' may still be pending; nothing makes pool stream 'b' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'b' here
        # CHECK-NOTES: :[[@LINE-8]]:13: note: 'y' is written on pool stream 'a' here
        # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 'a' here
    y.record_stream(b)
    return z


def pool_streams_joined(x: torch.Tensor):
    a = torch.cuda.Stream()
    b = torch.cuda.Stream()
    with torch.cuda.stream(a):
        y = x + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 'a', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'a' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'a' here
        # CHECK-NOTES: :[[@LINE-7]]:25: note: 'x' is assumed ready on the caller's current stream at function entry
    b.wait_stream(a)
    with torch.cuda.stream(b):
        z = y * 2
    y.record_stream(b)
    return z


def stream_none_sets_nothing(x: torch.Tensor):
    # torch.cuda.stream(None) is a no-op: the work stays on the caller's
    # stream.
    y = x + 1
    with torch.cuda.stream(None):
        z = y * 2
    return z


def external_stream_may_be_any(x: torch.Tensor, ptr):
    # A stream from elsewhere may be the caller's: not reported.
    e = torch.cuda.ExternalStream(ptr)
    y = x + 1
    with torch.cuda.stream(e):
        z = y * 2
    return z


def set_stream_not_restored(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'set_stream_not_restored'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+3]]:5: note: 'set_stream_not_restored' can return here with the stream still set
    y = x + 1
    y.record_stream(s)
    return y


def set_stream_restored(x: torch.Tensor):
    s = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    s.wait_stream(prev)
    torch.cuda.set_stream(s)
    y = x + 1
    torch.cuda.set_stream(prev)
    return y


# Setting the default stream "back" is no restore: the caller's stream need
# not be the default stream.
def set_default_back(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'set_default_back': the default stream is set in its place, and the caller's stream need not be the default stream; the caller's later work silently runs on the default stream (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+3]]:5: note: the default stream is set here, not the stream that was current when 'set_default_back' was entered
    # CHECK-NOTES: :[[@LINE+4]]:5: note: 'set_default_back' can return here with the default stream set
    y = x + 1
    torch.cuda.set_stream(torch.cuda.default_stream())
    torch.cuda.current_stream().wait_stream(s)
    return y


# A reset while the caller's stream is current: on purpose, not reported.
def reset_first(x: torch.Tensor):
    torch.cuda.set_stream(torch.cuda.default_stream())
    return x + 1


def set_stream_on_one_path(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    prev = torch.cuda.current_stream()
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'set_stream_on_one_path'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+2]]:9: note: 'set_stream_on_one_path' can return here with the stream still set
    if flag:
        return x
    torch.cuda.set_stream(prev)
    return x


def guard_restores_on_return(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        return y * 2
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:16: warning: tensor 'y' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-8]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-7]]:9: note: the last reference to 'y' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


# A stream parameter is a stream of its own, annotated torch.cuda.Stream or
# torch.Stream (the model's classes: C++'s CUDAStream and c10::Stream):
# recording a tensor on it does not record the tensor's use on another one.
def record_on_stream_parameter(p: torch.cuda.Stream):
    s = torch.cuda.Stream()
    y = torch.ones(4, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        y.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'y' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:23: note: the last reference to 'y' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    y.record_stream(p)


def record_on_generic_stream_parameter(p: torch.Stream):
    s = torch.cuda.Stream()
    y = torch.ones(4, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        y.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'y' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:23: note: the last reference to 'y' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    y.record_stream(p)


# A parameter of no known class may be any stream: recording on it may
# record everything (silent).
def record_on_unknown_parameter(p):
    s = torch.cuda.Stream()
    y = torch.ones(4, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        y.add_(1)
    y.record_stream(p)
