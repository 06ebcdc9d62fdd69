# RUN: %check_streamsafe_py %s

# A def or method of the project that is not run in place still says what
# its call returns: when every value it returns is a tensor it makes with a
# torch op (or a factory told a device), and it uses no stream API, the
# call gives a new tensor made on the caller's current stream. A use of it
# on another stream then owes a record_stream, as `torch.cat(...)` written
# at the call would.
import torch
import torch.distributed as dist


def flatten(tensors):
    return torch.cat([t.view(-1) for t in tensors])


class Store:
    def __init__(self, grads):
        self.grads = grads
        self.flat = torch.cat(grads)

    def get_flat(self):
        flat = []
        for g in self.grads:
            flat.append(g.view(-1))
        flat = torch.cat(flat)
        return flat

    def stored(self):
        return self.flat

    def on_device(self, n):
        return torch.zeros(n, device="cuda")

    def on_host(self, n):
        return torch.zeros(n)


class Reducer:
    def __init__(self, grads):
        self._store = Store(grads)
        self._comm = torch.cuda.Stream()

    # A method of the object in self._store makes the flat tensor; the comm
    # stream neither waits for it nor records it.
    def reduce(self):
        flat = self._store.get_flat()
        with torch.cuda.stream(self._comm):
            dist.all_reduce(flat)
            # CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'flat' is read on attribute 'self._comm' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._comm' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._comm' here
            # CHECK-NOTES: :[[@LINE-5]]:16: note: 'flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-11]]:9: note: 'self._comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-5]]:29: warning: tensor 'flat' is used on attribute 'self._comm' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while attribute 'self._comm' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream is set to attribute 'self._comm' here
            # CHECK-NOTES: :[[@LINE-9]]:16: note: 'flat' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-8]]:34: note: the last reference to 'flat' dies here, with no record_stream on attribute 'self._comm' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-16]]:9: note: 'self._comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            # CHECK-NOTES: :[[@LINE-10]]:29: warning: tensor 'flat' is written on attribute 'self._comm' while its write on the caller's current stream may still be pending; nothing makes attribute 'self._comm' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-12]]:14: note: the current stream is set to attribute 'self._comm' here
            # CHECK-NOTES: :[[@LINE-14]]:16: note: 'flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-20]]:9: note: 'self._comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Fixed: the comm stream waits, and the block is recorded on it.
    def reduce_fixed(self):
        flat = self._store.get_flat()
        self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            dist.all_reduce(flat)
        flat.record_stream(self._comm)

    # Ordered, but not recorded: the block is the caller's pool's.
    def waited_not_recorded(self, n: int):
        buf = self._store.on_device(n)
        self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            buf.add_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'buf' is used on attribute 'self._comm' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while attribute 'self._comm' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self._comm' here
            # CHECK-NOTES: :[[@LINE-6]]:15: note: 'buf' is allocated on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-4]]:24: note: the last reference to 'buf' dies here, with no record_stream on attribute 'self._comm' and no synchronization with the caller's current stream
            # CHECK-NOTES: :[[@LINE-40]]:9: note: 'self._comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Its twin: a stored tensor (made elsewhere, kept by the store) and a
    # factory on the host owe nothing to this caller's pool.
    def stored_and_host(self, n: int):
        kept = self._store.stored()
        host = self._store.on_host(n)
        self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            kept.add_(1)
            host.add_(1)


# A def of the file given a list (not run in place): the same summary.
def flatten_waited(grads: list, side: torch.cuda.Stream):
    flat = flatten(grads)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        flat.mul_(2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'flat' is used on stream parameter 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while stream parameter 'side' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream parameter 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:12: note: 'flat' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:21: note: the last reference to 'flat' dies here, with no record_stream on stream parameter 'side' and no synchronization with the caller's current stream
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 'side' is used as a side stream here, so it is taken to differ from the caller's current stream


# Silent: an attribute given objects of two classes is neither's.
class Mixed:
    def __init__(self, grads, flag: bool):
        self._store = Store(grads) if flag else Reducer(grads)
        self._comm = torch.cuda.Stream()

    def reduce(self):
        flat = self._store.get_flat()
        self._comm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self._comm):
            flat.mul_(2)
