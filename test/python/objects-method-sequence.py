# RUN: %check_streamsafe_py %s

# Methods in sequence on one object (lib/python/Helpers.cpp, runInPlace): a
# function that makes an object of a class of this file whose methods use
# streams runs each method it calls in place with the object's attributes,
# so that one method can fork and another join; `return self.buf` gives
# the attribute's tensor. The C++ twin is
# test/checkers/unsynchronized-access-object-methods.cpp.
import torch


class Offloader:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    # Forks: the copy stream waits for the caller's stream, computes into
    # an attribute on the copy stream and records an event there.
    def start(self, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buf = src * 2
            self.ready = torch.cuda.Event()
            self.ready.record()

    # Joins (waits for the event); hands back unrecorded what its stream made.
    def finish(self):
        torch.cuda.current_stream().wait_event(self.ready)
        return self.buf
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.buf' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-9]]:24: note: 'self.buf' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-17]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Forgets the join: names no stream at all.
    def peek(self):
        return self.buf
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.buf' was allocated on attribute 'self.stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-16]]:24: note: 'self.buf' is allocated on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-24]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Right: start(), then finish() before the read.
def started_and_finished(x: torch.Tensor):
    o = Offloader()
    o.start(x)
    return o.finish() + 1


# Wrong: the buffer is read through peek(), which never waits.
def started_and_peeked(x: torch.Tensor):
    o = Offloader()
    o.start(x)
    return o.peek() + 1
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'o.buf' is read on the caller's current stream while its write on pool stream 'o.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-31]]:32: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-34]]:24: note: 'o.buf' is written on pool stream 'o.stream' here
    # CHECK-NOTES: :[[@LINE-5]]:5: note: in 'start', called here
    # CHECK-NOTES: :[[@LINE-37]]:14: note: the current stream was set to pool stream 'o.stream' here


# Right: the join by another method, before the read.
def peeked_after_finish(x: torch.Tensor):
    o = Offloader()
    o.start(x)
    done = o.finish()
    return o.peek() + done
