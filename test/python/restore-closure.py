# RUN: %check_streamsafe_py %s

# A restore through a closure variable: a nested def analysed on its own
# cannot see what its enclosing def stored in its variables, except one
# thing: a stream variable of an enclosing def whose every binding is
# torch.cuda.current_stream() holds the stream that was current there, and
# set_stream of it sets that stream back. Judged on its own, the nested
# def takes that stream to be its caller's (a restore, as setting the
# default stream back is a reset). Run in place by its enclosing def, the
# variable is the enclosing def's own.
import torch


# Right: the enclosing def saves the current stream, sets a side stream
# and restores through the nested def, which it calls.
def outer(x: torch.Tensor):
    prev = torch.cuda.current_stream()
    s = torch.cuda.Stream()
    s.wait_stream(prev)
    torch.cuda.set_stream(s)

    def restore():
        torch.cuda.set_stream(prev)

    y = x * 2
    restore()
    prev.wait_stream(s)
    x.record_stream(s)
    return y


# Right: the nested def switches to a side stream of the enclosing def and
# back to the saved stream.
def outer_switching(x: torch.Tensor):
    prev = torch.cuda.current_stream()
    side = torch.cuda.Stream()

    def on_side():
        torch.cuda.set_stream(side)
        try:
            pass
        finally:
            torch.cuda.set_stream(prev)

    on_side()


# Wrong: the nested def sets a side stream of the enclosing def and leaves
# it set.
def outer_leaking():
    side = torch.cuda.Stream()

    def enter():
        torch.cuda.set_stream(side)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'enter'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE-2]]:36: note: 'enter' can return here with the stream still set

    return enter


# Wrong: the variable is bound to something other than the current stream
# on some path: what the nested def sets is not known to be a saved stream.
def outer_rebinds(flag):
    prev = torch.cuda.current_stream()
    if flag:
        prev = torch.cuda.Stream()

    def restore():
        torch.cuda.set_stream(prev)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'restore'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE-2]]:36: note: 'restore' can return here with the stream still set

    return restore


# Wrong: the enclosing def sets a side stream and never calls the nested
# def that would restore it.
def outer_never_restores(x: torch.Tensor):
    prev = torch.cuda.current_stream()
    s = torch.cuda.Stream()
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'outer_never_restores'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+5]]:5: note: 'outer_never_restores' can return here with the stream still set

    def restore():
        torch.cuda.set_stream(prev)

    return restore
