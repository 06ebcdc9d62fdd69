# RUN: %check_streamsafe_py %s

# `loss.backward()` writes the gradients, ready on the stream current at the
# call; an optimizer's step() reads them and its zero_grad() writes them
# (lib/model/Gradients.h). An object is an optimizer when the code calls both
# on it. A step on another stream than the backward, with no wait between
# them, reads gradients still being written (torchrec's semi-sync pipeline
# before its fix, train_pipelines.py:595).
import torch


class SemiSync:
    def __init__(self, model, optimizer: torch.optim.Optimizer):
        self._model = model
        self._optimizer = optimizer
        self._overarch_stream = torch.cuda.Stream()
        self._bwd_sync_stream = torch.cuda.Stream()

    def progress(self, batch):
        with torch.cuda.stream(self._overarch_stream):
            losses = self._model(batch)
        with torch.cuda.stream(self._bwd_sync_stream):
            self._bwd_sync_stream.wait_stream(self._overarch_stream)
            torch.sum(losses, dim=0).backward()
        with torch.cuda.stream(self._overarch_stream):
            self._optimizer_step()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'gradients' is read on attribute 'self._overarch_stream' while its write on attribute 'self._bwd_sync_stream' may still be pending; nothing makes attribute 'self._overarch_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE+15]]:9: note: 'gradients' is read on attribute 'self._overarch_stream' here, in '_optimizer_step'
            # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self._overarch_stream' here
            # CHECK-NOTES: :[[@LINE-6]]:13: note: 'gradients' is written on attribute 'self._bwd_sync_stream' here
            # CHECK-NOTES: :[[@LINE-9]]:14: note: the current stream was set to attribute 'self._bwd_sync_stream' here
            # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self._overarch_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self._bwd_sync_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            self._optimizer.zero_grad()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'gradients' is written on attribute 'self._overarch_stream' while its write on attribute 'self._bwd_sync_stream' may still be pending; nothing makes attribute 'self._overarch_stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-11]]:14: note: the current stream is set to attribute 'self._overarch_stream' here
            # CHECK-NOTES: :[[@LINE-13]]:13: note: 'gradients' is written on attribute 'self._bwd_sync_stream' here
            # CHECK-NOTES: :[[@LINE-16]]:14: note: the current stream was set to attribute 'self._bwd_sync_stream' here
            # CHECK-NOTES: :[[@LINE-23]]:9: note: 'self._overarch_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-23]]:9: note: 'self._bwd_sync_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def _optimizer_step(self):
        self._optimizer.step()


# The fix: the backward on the optimizer's stream.
class SemiSyncFixed:
    def __init__(self, model, optimizer: torch.optim.Optimizer):
        self._model = model
        self._optimizer = optimizer
        self._overarch_stream = torch.cuda.Stream()

    def progress(self, batch):
        with torch.cuda.stream(self._overarch_stream):
            losses = self._model(batch)
            torch.sum(losses, dim=0).backward()
            self._optimizer.step()
            self._optimizer.zero_grad()


# Right too: the optimizer's stream waits for the backward's.
def train_step(model, batch, optimizer, side: torch.cuda.Stream):
    with torch.cuda.stream(side):
        side.wait_stream(torch.cuda.current_stream())
        model(batch).sum().backward()
    torch.cuda.current_stream().wait_stream(side)
    optimizer.step()
    optimizer.zero_grad()


# Wrong: a local optimizer stepped on the current stream while the backward
# on the side stream may still write the gradients.
def train_step_unsynced(model, batch, side: torch.cuda.Stream):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.cuda.stream(side):
        side.wait_stream(torch.cuda.current_stream())
        model(batch).sum().backward()
    optimizer.step()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'gradients' is read on the caller's current stream while its write on stream parameter 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:38: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'gradients' is written on stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-8]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream
    optimizer.zero_grad()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'gradients' is written on the caller's current stream while its write on stream parameter 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-9]]:38: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-10]]:9: note: 'gradients' is written on stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-13]]:10: note: the current stream was set to stream parameter 'side' here
    # CHECK-NOTES: :[[@LINE-14]]:10: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream


# An LR scheduler's step() reads no gradients: an object with no
# zero_grad() is not taken for an optimizer.
def schedule(model, batch, scheduler, side: torch.cuda.Stream):
    with torch.cuda.stream(side):
        side.wait_stream(torch.cuda.current_stream())
        model(batch).sum().backward()
    scheduler.step()
