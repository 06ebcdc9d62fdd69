# RUN: %check_streamsafe_py %s

# Tensors and events an object keeps in its attributes, one by one or in
# lists (lib/python/AttributeElements.cpp, AttributeStreams.cpp): in a
# method analysed on its own, `self.buf` and `self.bufs[i]` (i a constant
# or a parameter the method never rebinds) are storages of the object's
# own, nothing known of them at entry; `self.events[i]` is one event. The
# class's own assignments say what a list holds.
import torch


class Prefetcher:
    def __init__(self, like: torch.Tensor, depth: int):
        self.stream = torch.cuda.Stream()
        self.staging = torch.empty_like(like)
        self.buffers = [torch.empty_like(like) for _ in range(depth)]
        self.ready = [torch.cuda.Event() for _ in range(depth)]

    # Wrong: the slot is filled on the copy stream and read at once on the
    # caller's stream; the event is recorded but nobody waits for it.
    def fetch_unwaited(self, i, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buffers[i].copy_(src, non_blocking=True)
            self.ready[i].record()
        return self.buffers[i].sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.buffers[i]' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:35: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-5]]:13: note: 'self.buffers[i]' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :14:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Right: the caller's stream waits for the slot's event first.
    def fetch(self, i, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buffers[i].copy_(src, non_blocking=True)
            self.ready[i].record()
        torch.cuda.current_stream().wait_event(self.ready[i])
        return self.buffers[i].sum()

    # Wrong: a constant index names the same slot at each use.
    def fetch_first(self, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buffers[0].copy_(src, non_blocking=True)
        return self.buffers[0].sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.buffers[0]' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:58: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 'self.buffers[0]' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :14:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Unknown: another slot's event was recorded before the method ran, at
    # a point it cannot see; a wait on it is taken to order everything (as
    # for an event attribute). Silent.
    def fetch_first_waits_second(self, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buffers[0].copy_(src, non_blocking=True)
            self.ready[0].record()
        self.ready[1].wait()
        return self.buffers[0].sum()

    # Wrong: a single tensor attribute, likewise.
    def stage_unjoined(self, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.staging.copy_(src, non_blocking=True)
        return self.staging.sum()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.staging' is read on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:55: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:13: note: 'self.staging' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to attribute 'self.stream' here
        # CHECK-NOTES: :14:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    # Right: joined.
    def stage(self, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.staging.copy_(src, non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.stream)
        return self.staging.sum()

    # Unknown: the index changes (a loop), or is not a parameter. Silent.
    def fetch_all(self, srcs, k):
        self.stream.wait_stream(torch.cuda.current_stream())
        total = 0
        for i in range(len(self.buffers)):
            total = total + self.buffers[i].sum()
            with torch.cuda.stream(self.stream):
                self.buffers[i].copy_(srcs[i], non_blocking=True)
        j = k + 1
        with torch.cuda.stream(self.stream):
            self.buffers[j].copy_(srcs[0], non_blocking=True)
        return total + self.buffers[j].sum()

    # Unknown: the method stores into the list; which tensor a slot holds
    # is not followed. Silent.
    def replace(self, i, src: torch.Tensor):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.buffers[i].copy_(src, non_blocking=True)
        self.buffers[i] = torch.empty_like(src)
        return self.buffers[i].sum()


class Mixed:
    def __init__(self, like: torch.Tensor):
        self.stream = torch.cuda.Stream()
        self.items = [torch.empty_like(like), None]

    # Unknown: the list holds more than tensors, so nothing is said of its
    # element. Wrong all the same: whatever the element is, its copy_ reads
    # src on the side stream, which never waited for the caller's stream.
    def fill(self, src: torch.Tensor):
        with torch.cuda.stream(self.stream):
            self.items[0].copy_(src)
            # CHECK-NOTES: :[[@LINE-1]]:33: warning: tensor 'src' is read on attribute 'self.stream', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.stream' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to attribute 'self.stream' here
            # CHECK-NOTES: :[[@LINE-5]]:20: note: 'src' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-12]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        return self.items[0].sum()
