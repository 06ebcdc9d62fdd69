# RUN: %check_streamsafe_py %s

# Control flow: if/elif/else, loops with break/continue/else, try/except/
# finally, with, return and raise, each a path of its own.
import torch


def only_one_branch_waits(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    y = x + 1
    if flag:
        s.wait_stream(torch.cuda.current_stream())
    elif x.dim() > 1:
        pass
    else:
        s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-11]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-11]]:8: note: on the path reported, 'flag' is false
        # CHECK-NOTES: :[[@LINE-10]]:10: note: on the path reported, 'x.dim() > 1' is true
    y.record_stream(s)
    return z


def every_branch_waits(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    y = x + 1
    if flag:
        s.wait_stream(torch.cuda.current_stream())
    else:
        s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        z = y * 2
    y.record_stream(s)
    return z


def loop_carries_a_race(xs, n):
    s = torch.cuda.Stream()
    acc = torch.zeros(10, device="cuda")
    for i in range(n):
        with torch.cuda.stream(s):
            acc.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'acc' is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-6]]:11: note: 'acc' is written on the caller's current stream here
        acc.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'acc' is written on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:24: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-7]]:13: note: 'acc' is written on pool stream 's' here
        # CHECK-NOTES: :[[@LINE-9]]:14: note: the current stream was set to pool stream 's' here
    acc.record_stream(s)
    return acc


def loop_waits_each_time(n):
    s = torch.cuda.Stream()
    acc = torch.zeros(10, device="cuda")
    for i in range(n):
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            acc.add_(1)
        torch.cuda.current_stream().wait_stream(s)
        acc.mul_(2)
    acc.record_stream(s)
    return acc


def break_skips_the_wait(n):
    s = torch.cuda.Stream()
    acc = torch.zeros(10, device="cuda")
    with torch.cuda.stream(s):
        acc.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'acc' is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:11: note: 'acc' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:9: warning: tensor 'acc' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-8]]:11: note: 'acc' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+7]]:5: note: the last reference to 'acc' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    while n > 0:
        if n == 3:
            break
        n -= 1
    else:
        torch.cuda.current_stream().wait_stream(s)
    return acc.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'acc' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-16]]:20: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-17]]:9: note: 'acc' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-19]]:10: note: the current stream was set to pool stream 's' here


def finally_restores(x: torch.Tensor):
    s = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    torch.cuda.set_stream(s)
    try:
        return x.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'x' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:5: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-8]]:22: note: 'x' is assumed ready on the caller's current stream at function entry
    finally:
        torch.cuda.set_stream(prev)


def except_path_leaves_it_set(x: torch.Tensor):
    s = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'except_path_leaves_it_set'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+1]]:5: note: 'except_path_leaves_it_set' can return here with the stream still set
    try:
        y = x.sum()
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'x' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:5: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-10]]:31: note: 'x' is assumed ready on the caller's current stream at function entry
    except RuntimeError:
        return None
    torch.cuda.set_stream(prev)
    return y


def raise_inside_with_restores(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        if flag:
            raise ValueError("no")
    return x


def return_in_try_with_handler_and_finally(x: torch.Tensor, flag):
    s = torch.cuda.Stream()
    prev = torch.cuda.current_stream()
    torch.cuda.set_stream(s)
    try:
        if flag:
            return None
        for i in range(3):
            try:
                continue
            finally:
                pass
    except RuntimeError:
        pass
    finally:
        torch.cuda.set_stream(prev)
    return x
