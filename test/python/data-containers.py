# RUN: %check_streamsafe_py %s

# Lists and tuples of tensors (lib/python/Containers.cpp): each element is
# followed on its own. `xs[k]` with a constant k is that element; `for x in
# xs` and comprehensions touch every element; torch.stack(xs) and
# torch.cat(xs) read every element; rebinding the list, clear() and `del`
# let go of its elements; `for t in xs: t.record_stream(s)` covers them all.
# The C++ twins are in test/checkers/unsynchronized-access-regions.cpp
# (chunks stacked with and without a join).
import torch


# Wrong (the seed's pattern with a list): the chunks are scaled on a side
# stream and stacked on the current stream with no join.
def chunks_stacked_without_join(x: torch.Tensor):
    s = torch.cuda.Stream()
    parts = x.chunk(4)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for p in parts:
            p.mul_(2)
    return torch.stack(parts)
    # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'parts' (a view of 'x') is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:22: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'x' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's' here


# Right: the same, joined before the stack.
def chunks_stacked_after_join(x: torch.Tensor):
    s = torch.cuda.Stream()
    parts = x.chunk(4)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for p in parts:
            p.mul_(2)
    torch.cuda.current_stream().wait_stream(s)
    return torch.stack(parts)


# Wrong: new tensors made on the side stream by a comprehension, stacked on
# the current stream with no join.
def scaled_copies_without_join(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        parts = [c * 2 for c in x.chunk(4)]
    return torch.stack(parts)
    # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'parts' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:44: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:18: note: 'parts' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here


# Wrong: joined, but the copies were allocated on the side stream and are
# freed while the current stream may still read them (no record_stream).
def scaled_copies_joined(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        parts = [c * 2 for c in x.chunk(4)]
    torch.cuda.current_stream().wait_stream(s)
    return torch.cat(parts)
    # CHECK-NOTES: :[[@LINE-1]]:22: warning: tensor 'parts' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:44: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-5]]:18: note: 'parts' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the last reference to 'parts' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'


# Right: joined, and every element is recorded on the current stream once
# it is used there.
def scaled_copies_recorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        parts = [c * 2 for c in x.chunk(4)]
    torch.cuda.current_stream().wait_stream(s)
    out = torch.cat(parts)
    for t in parts:
        t.record_stream(torch.cuda.current_stream())
    return out


# Wrong: the second element of the list, written on the side stream, is
# read on the current stream with no join.
def literal_element(x: torch.Tensor, y: torch.Tensor):
    s = torch.cuda.Stream()
    outs = (x, y)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        outs[1].mul_(2)
    y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:24: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'y' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
    torch.cuda.current_stream().wait_stream(s)
    return x


# Right: outs[0] is only the first element; the second is not touched.
def literal_element_apart(x: torch.Tensor, y: torch.Tensor):
    s = torch.cuda.Stream()
    outs = (x, y)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        outs[0].mul_(2)
    y.add_(1)
    torch.cuda.current_stream().wait_stream(s)
    return x


# Wrong: the appended results are made on the side stream and used on the
# current one; only the first is recorded.
def appended(x: torch.Tensor):
    s = torch.cuda.Stream()
    outs = []
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        outs.append(x.sum(0))
        outs.append(x.mean(0))
    torch.cuda.current_stream().wait_stream(s)
    out = torch.stack(outs)
    # CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'outs' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:31: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-6]]:21: note: 'outs' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'outs' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    outs[0].record_stream(torch.cuda.current_stream())
    return out


# Right: every appended result is recorded.
def appended_recorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    outs = []
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        outs.append(x.sum(0))
        outs.append(x.mean(0))
    torch.cuda.current_stream().wait_stream(s)
    out = torch.stack(outs)
    for o in outs:
        o.record_stream(torch.cuda.current_stream())
    return out


# Wrong: clear(), `del` and rebinding let go of the buffers while the side
# stream may still write them.
def cleared_in_use(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x), torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[0].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'bufs' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:13: note: 'bufs' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'bufs' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    bufs.clear()
    return x


def deleted_in_use(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x), torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for b in bufs:
            b.copy_(x)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'bufs' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-7]]:13: note: 'bufs' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE+1]]:9: note: the last reference to 'bufs' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    del bufs[0]
    return bufs


def rebound_in_use(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[0].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'bufs' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:13: note: 'bufs' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'bufs' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    bufs = []
    return x


# Right: recorded on the side stream before the list lets go of them, or
# the current stream joins the side stream first.
def cleared_recorded(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x), torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[0].copy_(x)
    bufs[0].record_stream(s)
    bufs.clear()
    return x


def deleted_after_join(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x), torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for b in bufs:
            b.copy_(x)
    torch.cuda.current_stream().wait_stream(s)
    del bufs[0]
    return bufs


# Wrong: code the analysis does not see computes with what it is handed on
# the current stream (as a C++ callee it does not see), here before the side
# stream's copy into the element is waited for. It may keep the list too, so
# the clear() after it frees nothing that is reported.
def handed_over(x: torch.Tensor, keep):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[0].copy_(x)
    keep(bufs)
    # CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'bufs' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:25: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'bufs' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
    bufs.clear()
    return x


# Right: the caller's stream waits for the side stream before the list is
# handed over.
def handed_over_after_join(x: torch.Tensor, keep):
    s = torch.cuda.Stream()
    bufs = [torch.empty_like(x)]
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[0].copy_(x)
    torch.cuda.current_stream().wait_stream(s)
    keep(bufs)
    bufs.clear()
    return x
