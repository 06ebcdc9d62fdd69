# RUN: %check_streamsafe_py %s

# Unpacked operands that start with a bracket, in tuples without
# parentheses: valid Python since 3.8, refused by the pinned grammar
# (tree-sitter-python 0.23.6), and parsed with the tuple parenthesised
# (lib/python/SyntaxRepair.cpp). The file is analysed, and positions are
# those of the file as written, on the repaired lines too.
import torch


def returns_starred(n):
    return None, *(None,) * n


def assigns_starred(a):
    x = 1, *[a]
    y=1,*[a]
    first, *rest = *[a], 2
    for v in 1, *[a]: pass
    return x, y, first, rest


def subscript_starred(t, a):
    return t[1, *[a]]


def yields_starred(a):
    yield 1, *[a]


def augmented(x, a):
    x += 1, *[a]
    return x


def several_on_one_line(a, b):
    x = 1, *[a]; y = 2, *[b]
    u=1,*[a];v=2,*[b];w=3,*(b,)
    return x, y, u, v, w


def nested(t, a, b):
    return 1, *[t[1, *[b]]], *(a,)


# Wrong: positions on and after a repaired line are those as written (the
# parentheses are inserted here: there is no blank next to the tuple).
def race_on_repaired_line(x: torch.Tensor):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        out=x+1,*[x * 2]
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:27: note: 'x' is assumed ready on the caller's current stream at function entry
    x.record_stream(s)
    return out


def race_after_repairs_on_its_line(x: torch.Tensor):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        pair=1,*[None]; y = x * 3
        # CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'x' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:36: note: 'x' is assumed ready on the caller's current stream at function entry
    x.record_stream(s)
    return pair, y
