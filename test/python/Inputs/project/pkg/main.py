# The module test/python/imports-modules.test analyses: its helpers are in
# pkg/ops.py and pkg/streams.py, imported relatively and absolutely.
import torch

import pkg.ops as ops
from .context import CopyContext, ForeignContext
from .ops import fill_on, fill_quietly, scale
from pkg import fill_on as reexported_fill_on


# Wrong: the helper fills the buffer on the side stream; the caller reads
# it with no join. Reported at the helper's line, in its file.
def relative(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    fill_on(s, out, x)
    out.record_stream(s)
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: ops.py:10:23: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: ops.py:10:9: note: 'out' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:5: note: in 'fill_on', called here
    # CHECK-NOTES: ops.py:9:10: note: the current stream was set to pool stream 's' here


# Right: the same helper through `import pkg.ops as ops`, joined after.
def absolute(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    ops.fill_on(s, out, x)
    torch.cuda.current_stream().wait_stream(s)
    out.record_stream(s)
    return out.sum()


# Right: the helper forks and joins through a third module's helpers.
def through_two_modules(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    ops.fill_and_join(s, out, x)
    out.record_stream(s)
    return out.sum()


# Wrong: a helper of plain tensor ops, called under the side stream.
def plain_ops(x: torch.Tensor):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        scale(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 't' is written on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: ops.py:14:5: note: 't' is written on pool stream 's' here, in 'scale'
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-7]]:15: note: 't' is assumed ready on the caller's current stream at function entry


# Suppressed: a warning at the helper's line is suppressed by a NOLINT
# there (the buffer is used on the side stream with no record_stream).
def suppressed_there(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    fill_quietly(s, out, x)


# Wrong: the stream of an object of another module's class copies x with
# no wait for the caller's stream. The class's metaclass defines __call__
# (a singleton's): the object may be the one made before, whose __init__
# does not run again, and its fresh stream is held by it.
def offload(x: torch.Tensor):
    ctx = CopyContext()
    host = torch.empty(x.shape, pin_memory=True)
    with torch.cuda.stream(ctx.copy_stream):
        host.copy_(x, non_blocking=True)
        # CHECK-NOTES: :[[@LINE-1]]:20: warning: tensor 'x' is read on attribute 'ctx.copy_stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'ctx.copy_stream' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to attribute 'ctx.copy_stream' here
        # CHECK-NOTES: :[[@LINE-7]]:13: note: 'x' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-7]]:11: note: 'ctx.copy_stream' is given a fresh stream by its class, and the object made here may be one its metaclass shares between calls: the stream outlives this call and is not the caller's current stream
    return host


# Silent: a class whose metaclass the analysis cannot read (from outside
# the project) may give any object; its stream is not followed.
def offload_foreign_metaclass(x: torch.Tensor):
    ctx = ForeignContext()
    host = torch.empty(x.shape, pin_memory=True)
    with torch.cuda.stream(ctx.copy_stream):
        host.copy_(x, non_blocking=True)
    return host


# Right: the object's own method makes its stream wait first.
def offload_forked(x: torch.Tensor):
    ctx = CopyContext()
    ctx.fork()
    host = torch.empty(x.shape, pin_memory=True)
    with torch.cuda.stream(ctx.copy_stream):
        host.copy_(x, non_blocking=True)
    return host


# Wrong: the helper through the package's re-export (pkg/__init__.py
# imports it from pkg/ops.py), with no join.
def reexported(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    reexported_fill_on(s, out, x)
    out.record_stream(s)
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: ops.py:10:23: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: ops.py:10:9: note: 'out' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:5: note: in 'fill_on', called here
    # CHECK-NOTES: ops.py:9:10: note: the current stream was set to pool stream 's' here


# Wrong: the same, with no NOLINT; the warning is in the helper's file, its
# notes at the allocation and where the last reference dies here (the
# end of the def).
def unrecorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    fill_on(s, out, x)
    # CHECK-NOTES: ops.py:10:9: warning: tensor 'out' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: ops.py:9:10: note: the current stream is set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:11: note: 'out' is allocated on the caller's current stream here
    # CHECK-NOTES: :[[@LINE-4]]:23: note: the last reference to 'out' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


