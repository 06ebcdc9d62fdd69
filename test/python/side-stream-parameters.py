# RUN: %check_streamsafe_py %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: printf 'CheckOptions:\n  SideStreamParameters: false\n' > %t/.clang-tidy
# RUN: cp %s %t/off.py && %check_streamsafe_py -check-suffix=OFF %t/off.py
# RUN: mkdir -p %t/check && cp %s %t/check/off.py
# RUN: printf "CheckOptions:\n  streamsafe-unsynchronized-access.SideStreamParameters: 'false'\n" > %t/check/.clang-tidy
# RUN: %check_streamsafe_py -check-suffix=OFF %t/check/off.py

# A stream parameter the def itself uses as a side stream (enters it, makes
# it wait on the current stream or the current stream on it, orders the two
# with an event) is taken to differ from the caller's current stream.
# CheckOptions SideStreamParameters: false turns that off (nothing is then
# reported here: a parameter may be the current stream).
import torch


def forks_without_wait(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on stream parameter 's' while its write on the caller's current stream may still be pending; nothing makes stream parameter 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream
    y.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return z


def forks_after_wait(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        z = y + 1
    y.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return z


# Not joined: the read of y on the current stream is reported. The read
# of x on s is not: a tensor handed in with the stream to run on may have
# been ordered for it by the caller (the engine's rule, shared with C++:
# test/checkers/unsynchronized-access-side-parameters.cpp).
def reads_without_join(x: torch.Tensor, s: torch.cuda.Stream):
    done = torch.cuda.Event()
    with torch.cuda.stream(s):
        y = x * 2
    done.record(s)
    return y + 1
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on the caller's current stream while its write on stream parameter 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-4]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-5]]:13: note: 'y' is written on stream parameter 's' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to stream parameter 's' here
    # CHECK-NOTES: :[[@LINE-8]]:10: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream


# A caller in the file passes the current stream: not a side stream.
def sometimes_current(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
    y.record_stream(s)
    return z


def caller(x: torch.Tensor):
    main = torch.cuda.current_stream()
    sometimes_current(x, main)


def sometimes_current_direct(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
    y.record_stream(s)
    return z


def direct_caller(x: torch.Tensor):
    sometimes_current_direct(x, s=torch.cuda.current_stream())


# A default may be left out, a rebinding may be the current stream.
def rebinds(x: torch.Tensor, s: torch.cuda.Stream):
    if s is None:
        s = torch.cuda.current_stream()
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
    return z


# A default may be left out, and the default stream may be the current one.
def defaulted(x: torch.Tensor, s: torch.cuda.Stream = torch.cuda.default_stream()):
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
    return z


# Not used as a side stream: a parameter may be the current stream.
def only_records(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    y.record_stream(s)
    return y


# The caller passes a module global bound to the current stream.
MAIN = torch.cuda.current_stream()


def given_the_global(x: torch.Tensor, s: torch.cuda.Stream):
    y = x * 2
    with torch.cuda.stream(s):
        z = y + 1
    y.record_stream(s)
    return z


def passes_the_global(x: torch.Tensor):
    given_the_global(x, MAIN)


# A method whose caller passes the current stream through the object.
class Worker:
    def run(self, x: torch.Tensor, s: torch.cuda.Stream):
        y = x * 2
        with torch.cuda.stream(s):
            z = y + 1
        y.record_stream(s)
        return z


def drive(w: Worker, x: torch.Tensor):
    w.run(x, torch.cuda.current_stream())
