# RUN: %check_streamsafe_py %s

# A wait for the default stream orders the default stream's work, and the
# caller's only where the caller's current stream is the default stream,
# which a def cannot assume (its caller may run it under a side stream or a
# capture). The race it leaves says so (the Python twin of
# test/checkers/unsynchronized-access-default-wait.cpp). Megatron's bucket
# groups made the communication stream wait for the default stream, and
# the fix made it wait for the current one.
import threading

import torch


# Wrong: comm waits for the default stream, not for the caller's.
def reduce_after_default(grads: torch.Tensor):
    comm = torch.cuda.Stream()
    comm.wait_stream(torch.cuda.default_stream())
    with torch.cuda.stream(comm):
        total = grads.sum()
        # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'grads' is read on pool stream 'comm', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'comm' here
        # CHECK-NOTES: :[[@LINE-7]]:26: note: 'grads' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-6]]:5: note: pool stream 'comm' waits here for the default stream, which need not be the caller's current stream (the wait orders only the default stream's work; make it wait for the current stream)
    torch.cuda.current_stream().wait_stream(comm)
    return total


# Right: comm waits for the caller's current stream.
def reduce_after_current(grads: torch.Tensor):
    comm = torch.cuda.Stream()
    comm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(comm):
        total = grads.sum()
    torch.cuda.current_stream().wait_stream(comm)
    return total


# Right: the work waited for is the default stream's own (and the default
# stream waits for comm before its buffer can be reused).
def reduce_default_work(grads: torch.Tensor):
    with torch.cuda.stream(torch.cuda.default_stream()):
        scaled = grads * 2
    comm = torch.cuda.Stream()
    comm.wait_stream(torch.cuda.default_stream())
    with torch.cuda.stream(comm):
        total = scaled.sum()
    torch.cuda.default_stream().wait_stream(comm)
    torch.cuda.current_stream().wait_stream(comm)
    return total


# Right: a thread that sets no stream runs on the default stream, so its
# own work is the default stream's. (A nested def only ever handed to
# threads, with no arguments, starts there when analysed on its own too.)
def reduce_in_thread(n: int):
    def work():
        grads = torch.ones(n, device="cuda")
        comm = torch.cuda.Stream()
        comm.wait_stream(torch.cuda.default_stream())
        with torch.cuda.stream(comm):
            total = grads.sum()
        torch.cuda.current_stream().wait_stream(comm)
        print(total.item())

    t = threading.Thread(target=work)
    t.start()
    t.join()


# Wrong: the same worker is also called in place, under whatever stream
# its caller has made current.
def reduce_here_and_in_thread(n: int):
    def work():
        grads = torch.ones(n, device="cuda")
        comm = torch.cuda.Stream()
        comm.wait_stream(torch.cuda.default_stream())
        with torch.cuda.stream(comm):
            total = grads.sum()
            # CHECK-NOTES: :[[@LINE-1]]:21: warning: tensor 'grads' is read on pool stream 'comm' while its write on the caller's current stream may still be pending; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'comm' here
            # CHECK-NOTES: :[[@LINE-7]]:17: note: 'grads' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-6]]:9: note: pool stream 'comm' waits here for the default stream, which need not be the caller's current stream (the wait orders only the default stream's work; make it wait for the current stream)
        torch.cuda.current_stream().wait_stream(comm)
        print(total.item())

    t = threading.Thread(target=work)
    t.start()
    work()
    t.join()
