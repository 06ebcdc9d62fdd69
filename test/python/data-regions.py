# RUN: %check_streamsafe_py %s

# Regions (lib/python/Regions.cpp; the C++ twin is
# test/checkers/unsynchronized-access-regions.cpp): views with constant
# integers along the first dimension touch only part of their storage, so two
# side streams writing disjoint rows of one output do not race. Anything not
# constant, or not along the first dimension, is the whole storage; so is a
# name bound more than once.
import torch


# Right: row 0 on s1, row 1 on s2, joined before the output is used.
def disjoint_rows(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        out[0].copy_(x)
    with torch.cuda.stream(s2):
        out[1].copy_(x)
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Right: the rows through names bound once, narrow(), select() and slices.
def disjoint_row_variables(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    top = out.narrow(0, 0, 2)
    bottom = out[2:4]
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        top.mul_(2)
        out.select(0, 1)[1:].add_(1)
    with torch.cuda.stream(s2):
        bottom[1].copy_(x)
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Right: the two halves of chunk(2), unpacked, and pieces of one split().
def halves_and_pieces(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    a, b = out.chunk(2)
    pieces = x.split(3)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        a.fill_(1)
        pieces[2].add_(1)
    with torch.cuda.stream(s2):
        b.fill_(2)
        x.unbind()[3].add_(1)
        torch.unbind(x)[5].add_(1)
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: rows 0-1 and row 1 overlap.
def overlapping_rows(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        out[0:2].copy_(x)
    with torch.cuda.stream(s2):
        out.select(0, 1).zero_()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'out' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: indices that are not constants may be equal.
def unknown_rows(x: torch.Tensor, out: torch.Tensor, i, j):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        out[i].copy_(x)
    with torch.cuda.stream(s2):
        out[j].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'out' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: columns are not rows; out[:, 0] and out.t()[1] are the whole storage
# as far as rows go.
def columns(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        out[:, 0].copy_(x)
    with torch.cuda.stream(s2):
        out.t()[1].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'out' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: the same half on both streams.
def same_half(x: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    halves = x.chunk(2)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        halves[1].mul_(2)
    with torch.cuda.stream(s2):
        halves[1].mul_(3)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'halves' (a view of 'x') is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'x' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return x


# Wrong: a piece of chunk(2) and row 3 may overlap (the size is not known).
def piece_and_row(x: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    first, second = x.chunk(2)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        first.mul_(2)
    with torch.cuda.stream(s2):
        x[3].mul_(3)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'x' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'x' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return x


# Right: copy_() returns its object, here row 0 of 'out' (one rule for both
# languages, lib/lower/Regions.h; the C++ twin is
# test/checkers/unsynchronized-access-regions.cpp).
def copy_result_is_its_object(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    top = out[0].copy_(x)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        top.mul_(2)
    with torch.cuda.stream(s2):
        out[1].zero_()
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: the same, and s2 writes the row copy_() returned.
def copy_result_overlaps(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    top = out[0].copy_(x)
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        top.mul_(2)
    with torch.cuda.stream(s2):
        out[0].zero_()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'out' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: a view name bound twice may name either row.
def rebound_view(x: torch.Tensor, out: torch.Tensor, flip):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    row = out[0]
    if flip:
        row = out[1]
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        row.copy_(x)
    with torch.cuda.stream(s2):
        out[1].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'out' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    torch.cuda.current_stream().wait_stream(s2)
    return out.sum(0)


# Wrong: disjoint rows, but the result is read with no join.
def rows_not_joined(x: torch.Tensor, out: torch.Tensor):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        out[0].copy_(x)
    with torch.cuda.stream(s2):
        out[1].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'out' is written on pool stream 's2', which may still run when 'rows_not_joined' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's2' here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: 'rows_not_joined' returns here; 'out' outlives the call, and its next use on the caller's current stream may run before the write
    return out.sum(0)
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 's1' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-6]]:24: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-9]]:9: note: 'out' is written on pool stream 's1' here
    # CHECK-NOTES: :[[@LINE-11]]:10: note: the current stream was set to pool stream 's1' here


# Right (apex's spatial bottleneck halo exchange, reduced): rows of another
# dimension, bounded by a name that holds one value while the def runs
# (`h`, bound once in each arm of an if): the halo rows [0, 1) and
# [h + 1, h + 2) and the interior [1, h + 1) do not overlap. A name bound
# in both arms of an if covers, where it is used, what the binding of its
# own arm covers (after the if, what both cover when they agree).
def halo_rows(x: torch.Tensor, hx, nhwc: bool):
    s1 = torch.cuda.Stream()
    if nhwc:
        n, h, w, c = list(x.shape)
        pad = torch.empty([n, h + 2, w, c], device="cuda")
    else:
        n, c, h, w = list(x.shape)
        pad = torch.empty([n, c, h + 2, w], device="cuda")
    s1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        if nhwc:
            top = pad[:, :1, :, :]
            btm = pad[:, h + 1 : h + 2, :, :]
            hx.exchange(top, btm)
        else:
            top = pad[:, :, :1, :]
            btm = pad[:, :, h + 1 : h + 2, :]
            hx.exchange(top, btm)
    if nhwc:
        pad[:, 1 : h + 1, :, :].copy_(x)
    else:
        pad[:, :, 1 : h + 1, :].copy_(x)
    torch.cuda.current_stream().wait_stream(s1)
    return pad


# Wrong: [h, h + 1) is inside [1, h + 1).
def halo_overlaps(x: torch.Tensor):
    s1 = torch.cuda.Stream()
    n, c, h, w = list(x.shape)
    pad = torch.empty([n, c, h + 2, w], device="cuda")
    s1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        pad[:, :, h : h + 1, :].zero_()
    pad[:, :, 1 : h + 1, :].copy_(x)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'pad' is written on the caller's current stream while its write on pool stream 's1' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:40: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'pad' is written on pool stream 's1' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    return pad


# Wrong: a bound whose name changes while the def runs (bound in a loop)
# is no bound: the rows may be any.
def moving_bound(x: torch.Tensor, steps):
    s1 = torch.cuda.Stream()
    pad = torch.empty([4, 64], device="cuda")
    k = 0
    s1.wait_stream(torch.cuda.current_stream())
    for step in steps:
        with torch.cuda.stream(s1):
            pad[:, k : k + 1].zero_()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'pad' is written on pool stream 's1' while its write on the caller's current stream may still be pending; nothing makes pool stream 's1' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 's1' here
            # CHECK-NOTES: :[[@LINE+3]]:9: note: 'pad' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-4]]:38: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope
        k = step
        pad[:, k + 1 : k + 2].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'pad' is written on the caller's current stream while its write on pool stream 's1' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-8]]:38: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-9]]:13: note: 'pad' is written on pool stream 's1' here
        # CHECK-NOTES: :[[@LINE-11]]:14: note: the current stream was set to pool stream 's1' here
    torch.cuda.current_stream().wait_stream(s1)
    return pad
