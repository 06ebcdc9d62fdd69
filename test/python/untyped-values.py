# RUN: %check_streamsafe_py %s

# Python values whose type is not written: an unannotated parameter that
# the def's own code uses as only a tensor can be used (record_stream,
# copy_, data_ptr, an in-place op such as add_) and never rebinds is a
# tensor; so is a local whose uses say so (numel(), dtype, a collective's
# operand, ...) and whose every binding agrees or is a value the analysis
# does not follow (another object's method, an attribute). Anything else
# stays unknown: nothing about it is reported.
import torch
import torch.distributed as dist


# Wrong: buf is filled on the side stream, which never waited for the
# caller's stream where buf was last written.
def fill_on_side(buf):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        buf.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'buf' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:18: note: 'buf' is assumed ready on the caller's current stream at function entry


# Right: the side stream waits first, and the caller's stream waits after.
def fill_on_side_ordered(buf):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.add_(1)
    torch.cuda.current_stream().wait_stream(side)


# An untyped helper of the file: its parameter is a tensor by its use, so
# the caller's tensor is followed through it.
def scale(t, k):
    t.mul_(k)


def scale_on_side(x: torch.Tensor):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        scale(x, 2)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 't' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-8]]:5: note: 't' is written on pool stream 'side' here, in 'scale'
        # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-7]]:19: note: 't' is assumed ready on the caller's current stream at function entry


# Unknown: a module's cuda() and an optimizer's zero_grad() are no
# tensor's only methods; a parameter rebound, or with a default, may be
# anything.
def not_tensors(model, opt):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        model.cuda()
        opt.zero_grad()


def rebound(x):
    side = torch.cuda.Stream()
    x = x.float()
    with torch.cuda.stream(side):
        x.add_(1)


# A default of None says nothing of what x is otherwise: an optional
# tensor, used as one.
def with_none_default(x=None):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'x' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:23: note: 'x' is assumed ready on the caller's current stream at function entry


# A default of another kind is evidence both ways: not followed.
def with_default(x=0):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x.add_(1)


class Buffer:
    def copy_(self, other):
        pass

    # self is the object, whatever its methods are called.
    def refresh(self, src: torch.Tensor):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            self.copy_(src)


# An unannotated parameter entered with torch.cuda.stream (or made to wait
# with wait_stream / wait_event, or recording with record_event) is a
# stream; entered, it is a side-stream parameter, unless a caller in the
# file passes the current stream.
def produce_on(s):
    with torch.cuda.stream(s):
        y = torch.ones(4, device="cuda")
    return y * 2
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on the caller's current stream while its write on stream parameter 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:41: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on stream parameter 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to stream parameter 's' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream


def produce_on_joined(s):
    with torch.cuda.stream(s):
        y = torch.ones(4, device="cuda")
    torch.cuda.current_stream().wait_stream(s)
    return y * 2


def caller_passes_current(x: torch.Tensor):
    return produce_on_passed(torch.cuda.current_stream())


def produce_on_passed(s):
    with torch.cuda.stream(s):
        y = torch.ones(4, device="cuda")
    return y * 2



# Wrong: a local bound once to a call the analysis does not follow is a
# tensor by its use (copy_); its result was made on the caller's stream.
def pooled_buffer(x: torch.Tensor, pool):
    side = torch.cuda.Stream()
    buf = pool.acquire(x.shape)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.copy_(x)
    return buf.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'buf' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:21: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'buf' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here


# Wrong: bound twice, each time to a call the analysis does not follow, and
# used as only a tensor can be (copy_): a tensor on both paths, made on the
# caller's stream, written on the side stream and read back with no wait.
def pooled_rebound(x: torch.Tensor, pool):
    side = torch.cuda.Stream()
    buf = pool.acquire(x.shape)
    if x.dim() > 1:
        buf = pool.acquire(x.shape[1:])
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        buf.copy_(x)
    return buf.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'buf' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:21: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'buf' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here


# Unknown: bound to something that is not a tensor (a number), or used both
# as a tensor and as a stream. Silent.
def pooled_unknown(x: torch.Tensor, pool):
    side = torch.cuda.Stream()
    buf = pool.acquire(x.shape)
    if x.dim() > 1:
        buf = 0
    other = pool.acquire(x.shape)
    side.wait_stream(other)
    with torch.cuda.stream(side):
        buf.copy_(x)
        other.copy_(x)
    return buf.sum() + other.sum()


class Flattener:
    def __init__(self):
        self.comm = torch.cuda.Stream()

    # Wrong: flat comes from code the analysis does not follow (another
    # object's method); its uses (dtype, a collective's operand) say it is a
    # tensor, its rebinding to its own cast keeps it one. Written on the
    # caller's stream, it is reduced on the communication stream, entered
    # through a local alias of the attribute, which never waited.
    def reduce(self, store):
        flat = store.get_flat()
        flat /= 4
        stream = self.comm
        with torch.cuda.stream(stream):
            if flat.dtype != torch.float32:
                flat = flat.to(torch.float32)
                # CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'flat' is read on attribute 'self.comm' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.comm' wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self.comm' here
                # CHECK-NOTES: :[[@LINE-7]]:9: note: 'flat' is written on the caller's current stream here
                # CHECK-NOTES: :[[@LINE-17]]:9: note: 'self.comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
            dist.all_reduce(flat)
            # CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'flat' is read on attribute 'self.comm' while its write on the caller's current stream may still be pending; nothing makes attribute 'self.comm' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-9]]:14: note: the current stream is set to attribute 'self.comm' here
            # CHECK-NOTES: :[[@LINE-12]]:9: note: 'flat' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-22]]:9: note: 'self.comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Right: the alias waits for the caller's stream first.
    def reduce_ordered(self, store):
        flat = store.get_flat()
        flat /= 4
        stream = self.comm
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            if flat.dtype != torch.float32:
                flat = flat.to(torch.float32)
            dist.all_reduce(flat)

    # Unknown: bound to a number on one path, so not only a tensor. Silent.
    def reduce_maybe_number(self, store, empty):
        flat = store.get_flat()
        if empty:
            flat = 0
        flat /= 4
        with torch.cuda.stream(self.comm):
            dist.all_reduce(flat)


# A name first bound to None is what its other bindings say: None holds no
# memory, and says nothing of what the name holds (`y = None` before the
# block that makes it; fairscale's `last_handle = None` before a loop of
# asynchronous all-reduces).
def made_after_none(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    y = None
    with torch.cuda.stream(side):
        y = x * 2
    y.add_(1)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'y' is written on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 'y' is written on pool stream 'side' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here


# Right: the caller's stream waits first (the read of x on the side stream
# is ordered too).
def made_after_none_joined(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    y = None
    with torch.cuda.stream(side):
        y = x * 2
    torch.cuda.current_stream().wait_stream(side)
    y.add_(1)
    y.record_stream(torch.cuda.current_stream())


# Only ever None: no tensor, silent.
def only_none(x: torch.Tensor):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    y = None
    with torch.cuda.stream(side):
        x.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    return y


# A use only a tensor has, of what a call the analysis does not see returns
# (`next(it).cuda(non_blocking=True)`, with no name in between): a tensor
# made by that call.
class ChainedLoader:
    def __init__(self, it):
        self.it = it
        self.stream = torch.cuda.Stream()

    def next_batch(self):
        with torch.cuda.stream(self.stream):
            gpu = next(self.it).cuda(non_blocking=True)
        return gpu.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'gpu' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:56: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:19: note: 'gpu' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-10]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Right: joined; and `.cuda()` alone (a module's too) says nothing.
class ChainedJoinedLoader:
    def __init__(self, it):
        self.it = it
        self.stream = torch.cuda.Stream()

    def next_batch(self):
        with torch.cuda.stream(self.stream):
            gpu = next(self.it).cuda(non_blocking=True)
            model = next(self.it).cuda()
        torch.cuda.current_stream().wait_stream(self.stream)
        gpu.record_stream(torch.cuda.current_stream())
        return model(gpu)


# An element of a parameter's container (unpacked, or a loop's variable)
# used as only a tensor is used is the caller's tensor, ready on the
# caller's current stream at entry, as a tensor parameter is.
def unpacked_element(state):
    side = torch.cuda.Stream()
    dev, host = state
    with torch.cuda.stream(side):
        host.add_(1)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'host' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:10: note: 'host' is assumed ready on the caller's current stream at function entry


def unpacked_element_waited(state):
    side = torch.cuda.Stream()
    dev, host = state
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        host.add_(1)
    torch.cuda.current_stream().wait_stream(side)


def loop_element(params):
    side = torch.cuda.Stream()
    for p in params:
        with torch.cuda.stream(side):
            p.zero_()
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'p' is written on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-5]]:9: note: 'p' is assumed ready on the caller's current stream at function entry


# The wait before the loop orders every element: they were the caller's
# before the def ran.
def loop_element_waited(params):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    for p in params:
        with torch.cuda.stream(side):
            p.zero_()
    torch.cuda.current_stream().wait_stream(side)


# A name also bound to something else is not followed.
def loop_element_mixed(params):
    side = torch.cuda.Stream()
    for p in params:
        p = p.name
        with torch.cuda.stream(side):
            p.zero_()

