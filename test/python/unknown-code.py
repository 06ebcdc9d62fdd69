# RUN: %check_streamsafe_py %s

# Code the analysis does not see (another object's method, a module's
# forward, an imported function) computes on the current stream with the
# tensors it is handed, as a C++ callee it does not see (docs/python.md,
# "Code the analysis does not see"). A container's keeping methods and a
# class's constructor only keep them.
import torch
import torch.distributed as dist


# Wrong: the model reads the batch on the caller's stream before the side
# stream's copy into it is waited for.
def forward_too_early(model, batch_cpu: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        batch = batch_cpu.cuda(non_blocking=True)
    return model.forward(batch)
    # CHECK-NOTES: :[[@LINE-1]]:26: warning: tensor 'batch' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:50: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:17: note: 'batch' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here


# Right: the caller's stream waits for the copy first.
def forward_after_wait(model, batch_cpu: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        batch = batch_cpu.cuda(non_blocking=True)
    torch.cuda.current_stream().wait_stream(side)
    return model.forward(batch)


# Right: a class's constructor (CapWords, as dist.P2POp) keeps the tensor;
# the receive it describes is waited for before the tensor is read.
def describe_receive(peer: int):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        buf = torch.empty(16, device="cuda")
    op = dist.P2POp(dist.irecv, buf, peer)
    torch.cuda.current_stream().wait_stream(side)
    return op, buf


# Right: a blocking copy of host data to the device synchronizes the current
# stream after the copy, so the side stream may read the result at once.
def constants_on_side(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    std = torch.tensor([0.229, 0.224, 0.225]).cuda()
    with torch.cuda.stream(side):
        y = x * std
    torch.cuda.current_stream().wait_stream(side)
    std.record_stream(side)
    return y


# Wrong: the host reads (in the extension's plan()) a pinned buffer that a
# non_blocking copy may still be filling (flashinfer's plan(), fixed by
# dropping non_blocking).
def plan(module, indptr: torch.Tensor):
    indptr_host = indptr.to("cpu", non_blocking=True)
    return module.plan(indptr_host)
    # CHECK-NOTES: :[[@LINE-1]]:24: warning: the host reads tensor 'indptr_host' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:19: note: the non_blocking copy is enqueued on the caller's current stream here


# Wrong: torch.sort reads x on the caller's stream while the side stream's
# write into it may still be pending (its tuple of results is not followed,
# its input is read all the same).
def sort_too_early(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        x.mul_(2)
    values, order = torch.sort(x)
    # CHECK-NOTES: :[[@LINE-1]]:32: warning: tensor 'x' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'x' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here
    return values, order


# Right: the caller's stream waits for the side stream first.
def sort_after_wait(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        x.mul_(2)
    torch.cuda.current_stream().wait_stream(side)
    values, order = torch.sort(x)
    return values, order
