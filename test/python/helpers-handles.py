# RUN: %check_streamsafe_py %s

# What a call of the project's own code does, seen at the call:
# - a def of plain tensor ops, called from a def that uses streams, runs in
#   place (what it does to the tensors it is given may meet work on another
#   stream there);
# - a work handle (or event) a helper returns is the caller's value: the
#   collective is followed as if the caller had started it, and the caller's
#   wait() is the one that orders it.
import torch
import torch.distributed as dist


def clear(out):
    out.zero_()


# A plain helper writes the buffer an asynchronous send still reads.
def send_then_clear(out: torch.Tensor):
    h = dist.isend(out, 1)
    clear(out)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' is written on the caller's current stream while its read on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-8]]:5: note: 'out' is written on the caller's current stream here, in 'clear'
    # CHECK-NOTES: :[[@LINE-4]]:20: note: 'out' is read on the NCCL stream of the default process group here
    h.wait()


# Its twin waits for the send first: silent.
def send_wait_then_clear(out: torch.Tensor):
    h = dist.isend(out, 1)
    h.wait()
    clear(out)


# A def with no stream work of its own does not run its plain helpers in
# place: nothing there can race with them (and its cost stays flat).
def no_streams(out: torch.Tensor):
    clear(out)
    return out.sum()


def send(out):
    return dist.isend(out, 1)


def send_named(out):
    work = dist.isend(out, 1)
    return work


# The handle comes back from a helper; the write comes before its wait.
def write_before_wait(out: torch.Tensor):
    h = send(out)
    out.zero_()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' is written on the caller's current stream while its read on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-13]]:23: note: 'out' is read on the NCCL stream of the default process group here
    # CHECK-NOTES: :[[@LINE-4]]:9: note: in 'send', called here
    h.wait()


# The same through a handle the helper names before returning it.
def write_before_named_wait(out: torch.Tensor):
    h = send_named(out)
    out.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' is written on the caller's current stream while its read on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-19]]:23: note: 'out' is read on the NCCL stream of the default process group here
    # CHECK-NOTES: :[[@LINE-4]]:9: note: in 'send_named', called here
    h.wait()


# Twins: the caller waits on the returned handle before writing: silent.
def wait_then_write(out: torch.Tensor):
    h = send(out)
    h.wait()
    out.zero_()


def named_wait_then_write(out: torch.Tensor):
    h = send_named(out)
    alias = h
    alias.wait()
    out.add_(1)
