# RUN: %check_streamsafe_py %s

# torch.distributed collectives (docs/api-model.md, "Collectives"). An
# asynchronous one (async_op=True, isend, irecv) runs on its process group's
# NCCL stream, ordered after the stream current at the call; its outputs
# are written (its inputs read) there until work.wait() makes the stream
# current at the wait wait. A synchronous one is ordered on the current
# stream. The work keeps its tensors from the allocator until it is done.
# A handle the analysis cannot follow (in a list, an attribute) is taken
# as waited: nothing is reported that a wait elsewhere may order.
import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol


# Wrong: the reduced gradient is read before the work is waited.
def read_before_wait(grad: torch.Tensor):
    grad.mul_(0.5)
    work = dist.all_reduce(grad, async_op=True)
    total = grad.sum()
    # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:28: note: 'grad' is written on the NCCL stream of the default process group here
    work.wait()
    return total


# Right: the wait comes first (and the collective waited for the scale).
def read_after_wait(grad: torch.Tensor):
    grad.mul_(0.5)
    work = dist.all_reduce(grad, async_op=True)
    work.wait()
    return grad.sum()


# Wrong: the handle is dropped; nothing ever waits for the collective.
def dropped_handle(grad: torch.Tensor):
    dist.all_reduce(grad, async_op=True)
    return grad * 2
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:21: note: 'grad' is written on the NCCL stream of the default process group here


# Right: a synchronous collective is ordered on the current stream.
def sync_collective(grad: torch.Tensor, flag: bool):
    dist.all_reduce(grad)
    dist.broadcast(grad, 0, async_op=False)
    return grad * 2


# Wrong: the input is overwritten before the all-gather has read it.
def overwrite_input(x: torch.Tensor, out: torch.Tensor, group):
    work = dist.all_gather_into_tensor(out, x, group=group, async_op=True)
    x.zero_()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'x' is written on the caller's current stream while its read on the NCCL stream of process group 'group' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:45: note: 'x' is read on the NCCL stream of process group 'group' here
    work.wait()
    return out


# Right: overwritten after the wait.
def overwrite_input_after_wait(x: torch.Tensor, out: torch.Tensor, group):
    work = dist.all_gather_into_tensor(out, x, group=group, async_op=True)
    work.wait()
    x.zero_()
    return out


# Wrong: wait() under another stream makes that stream wait, not the
# consumer's.
def wait_under_another_stream(x: torch.Tensor):
    side = torch.cuda.Stream()
    work = dist.all_reduce(x, async_op=True)
    with torch.cuda.stream(side):
        work.wait()
    return x + 1
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'x' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:20: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-6]]:28: note: 'x' is written on the NCCL stream of the default process group here


# Wrong: issued under a side stream, the collective is ordered after it,
# not after the current stream's write.
def issued_under_a_side_stream(x: torch.Tensor):
    side = torch.cuda.Stream()
    x.add_(1)
    with torch.cuda.stream(side):
        work = dist.all_reduce(x, async_op=True)
        # CHECK-NOTES: :[[@LINE-1]]:32: warning: tensor 'x' is read on the NCCL stream of the default process group while its write on the caller's current stream may still be pending; nothing makes the NCCL stream of the default process group wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-4]]:5: note: 'x' is written on the caller's current stream here
    work.wait()
    return x


# Right: the side stream waits for the current one first.
def issued_under_a_side_stream_that_waits(x: torch.Tensor):
    side = torch.cuda.Stream()
    x.add_(1)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        work = dist.all_reduce(x, async_op=True)
    work.wait()
    return x


# Handles kept in a list and waited there: not followed, silent.
def handles_in_a_list():
    a = torch.ones(4, device="cuda")
    handles = []
    handles.append(dist.all_reduce(a, async_op=True))
    for h in handles:
        h.wait()
    return a + 1


# Wrong: the received buffer is read before the receive is waited.
def irecv_read_early(n: int, peer: int):
    buf = torch.empty(n, device="cuda")
    req = dist.irecv(buf, peer)
    y = buf * 2
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'buf' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:22: note: 'buf' is written on the NCCL stream of the default process group here
    req.wait()
    return y


# Right: a send buffer dropped after the wait; the work held it until
# then (no record_stream is missing), and wait(timeout) waits as wait().
def isend_then_free(n: int, peer: int, timeout):
    buf = torch.empty(n, device="cuda")
    buf.fill_(1)
    req = dist.isend(buf, peer)
    req.wait(timeout)


# async_op not written out as a literal: the stream is not known, silent.
def async_op_from_a_flag(x: torch.Tensor, flag: bool):
    work = dist.all_reduce(x, async_op=flag)
    return x + 1


# Functional collectives: out of place, always on the group's stream. The
# input is read there after the current stream: overwriting it before the
# result is used races. The result waits wherever it is used (not
# followed, silent).
def functional_input_overwritten(x: torch.Tensor, group):
    y = funcol.all_reduce(x, "sum", group)
    x.zero_()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'x' is written on the caller's current stream while its read on the NCCL stream of process group 'group' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:27: note: 'x' is read on the NCCL stream of process group 'group' here
    return y


def functional_result_on_a_side_stream(x: torch.Tensor, group):
    side = torch.cuda.Stream()
    y = funcol.all_reduce(x, "sum", group)
    with torch.cuda.stream(side):
        z = y * 2
    return z


# A handle handed on (to a list of pending works, to a future) may be
# waited by the code it goes to: taken as waited there, silent.
def handle_kept_for_later(grad: torch.Tensor, pending: list):
    work = dist.all_reduce(grad, async_op=True)
    pending.append(work)
    flush(pending)
    return grad.sum()


def handle_through_a_future(grad: torch.Tensor):
    work = dist.all_reduce(grad, async_op=True)
    fut = work.get_future()
    fut.wait()
    return grad.sum()


# Wrong: the work's future is the work's event; the gradient is read
# before the future's wait() makes the current stream wait.
def read_before_future_wait(grad: torch.Tensor):
    work = dist.all_reduce(grad, async_op=True)
    fut = work.get_future()
    y = grad * 2
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'grad' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-4]]:28: note: 'grad' is written on the NCCL stream of the default process group here
    fut.wait()
    return y


# A DDP comm hook: the future's then() hands it on (the callback runs
# after the collective, DDP waits on the future it returns): silent.
def comm_hook(grad: torch.Tensor, world: int):
    work = dist.all_reduce(grad, async_op=True)
    fut = work.get_future()
    return fut.then(lambda f: f.value()[0].div_(world))


# A future handed to a list that torch.futures.wait_all waits: silent.
def future_handed_on(grad: torch.Tensor, futs: list):
    work = dist.all_reduce(grad, async_op=True)
    fut = work.get_future()
    futs.append(fut)
    torch.futures.wait_all(futs)
    return grad * 2


# Pipeline-parallel exchange: batch_isend_irecv of P2POps reads each isend
# tensor and writes each irecv tensor on the group's stream; its works are
# waited in a loop. Wrong: the received activation is used before.
def recv_used_before_wait(send_buf: torch.Tensor, recv_buf: torch.Tensor,
                          peer: int):
    ops = [dist.P2POp(dist.isend, send_buf, peer),
           dist.P2POp(dist.irecv, recv_buf, peer)]
    reqs = dist.batch_isend_irecv(ops)
    y = recv_buf * 2
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'recv_buf' is read on the caller's current stream while its write on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-4]]:35: note: 'recv_buf' is written on the NCCL stream of the default process group here
    for r in reqs:
        r.wait()
    return y


# Right: used after the waits.
def recv_used_after_wait(send_buf: torch.Tensor, recv_buf: torch.Tensor,
                         peer: int):
    reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, send_buf, peer),
                                   dist.P2POp(dist.irecv, recv_buf, peer)])
    for r in reqs:
        r.wait()
    return recv_buf * 2


# Wrong: the activation is freed for reuse (zeroed) while the isend may
# still be reading it (Megatron's pipeline output, freed too early).
def send_buffer_overwritten(send_buf: torch.Tensor, peer: int):
    reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, send_buf, peer)])
    send_buf.zero_()
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'send_buf' is written on the caller's current stream while its read on the NCCL stream of the default process group may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:59: note: 'send_buf' is read on the NCCL stream of the default process group here
    for r in reqs:
        r.wait()


# Ops appended in branches are not read: the batch is taken as ordered on
# the current stream, silent.
def ops_built_in_branches(a: torch.Tensor, b: torch.Tensor, peer: int,
                          first: bool):
    ops = []
    if first:
        ops.append(dist.P2POp(dist.isend, a, peer))
    ops.append(dist.P2POp(dist.irecv, b, peer))
    reqs = dist.batch_isend_irecv(ops)
    y = b * 2
    for r in reqs:
        r.wait()
    return y


def flush(pending):
    for w in pending:
        w.wait()
