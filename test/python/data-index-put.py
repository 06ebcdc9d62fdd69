# RUN: %check_streamsafe_py %s

# `base[index] = value` with a tensor index: only a tensor (or an array or
# distributed tensor, which put the values there at once) is indexed by a
# tensor of indices, so the store reads `value` now, on the host when the
# base is host memory, whatever the base's type is written as. Reduced from
# dgl's distributed SparseAdam.update (sparse_optim.py:361, dgl#2760): the
# update is copied to the host with non_blocking=True and put into the CPU
# state before the copy is known to be done. A value with no name is quoted
# by the call that made it.
import torch as th


# Wrong: the state's type is not written; the tensor index says what it is.
def update_untyped_state(state_mem, idx, grad):
    state_dev = th.device('cpu')
    exec_dev = grad.device
    grad_indices, inverse = th.unique(idx, return_inverse=True)
    state_idx = grad_indices.to(state_dev)
    grad_values = th.zeros((grad_indices.shape[0], grad.shape[1]), device=exec_dev)
    grad_values.index_add_(0, inverse, grad)
    update_mem = 0.9 * grad_values
    state_mem[state_idx] = update_mem.to(state_dev, non_blocking=True)
    # CHECK-NOTES: :[[@LINE-1]]:28: warning: the host reads the result of 'update_mem.to(state_dev, non_blocking=True)' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-2]]:28: note: the non_blocking copy is enqueued on the caller's current stream here


# Wrong: Event.wait() makes the current stream wait for the event; the host
# goes on at once (the dgl fix of dgl#2760 relies on it).
def event_wait_is_not_a_host_wait(state_mem, idx: th.Tensor, update: th.Tensor):
    dst = update.to(th.device('cpu'), non_blocking=True)
    ev = th.cuda.Event()
    ev.record()
    ev.wait()
    state_mem[idx] = dst
    # CHECK-NOTES: :[[@LINE-1]]:22: warning: the host reads tensor 'dst' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-6]]:11: note: the non_blocking copy is enqueued on the caller's current stream here


# Right: the host synchronizes the event recorded after the copy.
def event_synchronized(state_mem, idx: th.Tensor, update: th.Tensor):
    dst = update.to(th.device('cpu'), non_blocking=True)
    ev = th.cuda.Event()
    ev.record()
    ev.synchronize()
    state_mem[idx] = dst


# Right: a blocking copy to the host (dgl's fix of the same bug in its
# non-distributed optimizer).
def blocking_copy(state_mem, idx: th.Tensor, update: th.Tensor):
    state_mem[idx] = update.to(th.device('cpu'))


# Right: an index that is not a tensor says nothing of the base; a list or
# dict of the code's keeps the tensor, it reads nothing now.
def stored_in_containers(update: th.Tensor, key: str, slot: int):
    pending = {}
    pending[key] = update.to('cpu', non_blocking=True)
    slots = [None, None]
    slots[slot] = update.to('cpu', non_blocking=True)
    th.cuda.current_stream().synchronize()
    return pending, slots


# Right: a list indexed by a tensor is still a list of the code's.
def list_indexed_by_tensor(update: th.Tensor, i: th.Tensor):
    slots = [None, None]
    slots[i] = update.to('cpu', non_blocking=True)
    th.cuda.current_stream().synchronize()
    return slots
