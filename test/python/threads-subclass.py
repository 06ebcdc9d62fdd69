# RUN: %check_streamsafe_py %s

# A thread made as an object of a threading.Thread subclass: `w.start()`
# runs the class's run() on a new thread, whose current stream is the
# default one, with w as self (what its constructor stored is what run()
# reads). Only a run() that waits for the spawner's work (an event it is
# handed, synchronized) or that the spawner waited for is silent.
import threading

import torch


class Saver(threading.Thread):
    def __init__(self, t: torch.Tensor):
        super().__init__()
        self.t = t

    def run(self):
        self.host = self.t.cpu()
        # CHECK-NOTES: :[[@LINE-1]]:21: warning: tensor 'w.t' (a view of 'y') is read on the default stream while its write on pool stream 'side' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+16]]:9: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE+13]]:13: note: 'y' is written on pool stream 'side' here
        # CHECK-NOTES: :[[@LINE+11]]:10: note: the current stream was set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:21: warning: this work runs on the default stream, not on pool stream 'side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+12]]:9: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: :[[@LINE+8]]:10: note: the spawning thread's current stream is set to pool stream 'side' here


# Wrong: the copy to the host runs on the default stream while the side
# stream may still write y.
def save_on_side(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x * 2
        w = Saver(y)
        w.start()
    w.join()


# Right: the side stream drained before the thread starts.
def save_after_sync(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x * 2
    side.synchronize()
    w = Saver(y)
    w.start()
    w.join()


class WaitingSaver(threading.Thread):
    def __init__(self, t: torch.Tensor, ready: torch.cuda.Event):
        super().__init__()
        self.t = t
        self.ready = ready

    def run(self):
        self.ready.synchronize()
        self.host = self.t.cpu()


# Right: run() waits on the host for an event recorded after the write.
def save_with_event(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x * 2
        ready = torch.cuda.Event()
        ready.record(side)
        w = WaitingSaver(y, ready)
        w.start()
    w.join()


class Mixin:
    pass


class MixedSaver(threading.Thread, Mixin):
    def __init__(self, t: torch.Tensor):
        super().__init__()
        self.t = t

    def run(self):
        self.host = self.t.cpu()


# Not followed: another base may define what the object does. Silent.
def save_mixed(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x * 2
        w = MixedSaver(y)
        w.start()
    w.join()
