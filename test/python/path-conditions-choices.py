# RUN: %check_streamsafe_py %s

# A condition that is no name, evaluated once outside loops, whose arms
# order the streams differently (docs/python.md, "Paths chosen by flags"):
# its two paths stay apart, as those of a value bound once would, so the
# arm that forgets the ordering is reported on its own.
import torch


# Wrong (torchtune's activation offloading, reduced): when no output shares
# the brought-back tensor's storage, it is handed to autograd on s0 with no
# record_stream; s1 may reuse its block while s0 still reads it.
class OffloadActivations:
    def __init__(self):
        self.s0 = torch.cuda.default_stream()
        self.s1 = torch.cuda.Stream()

    def unpack(self, host: torch.Tensor, outputs):
        with torch.cuda.stream(self.s1):
            gpu_tensor = host.to("cuda", non_blocking=True)
        self.s0.wait_stream(self.s1)
        if any(o.untyped_storage() is gpu_tensor.untyped_storage() for o in outputs):
            gpu_tensor.record_stream(self.s0)
        else:
            event = self.s0.record_event()
            self.s1.wait_event(event)
        return gpu_tensor
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'gpu_tensor' was allocated on attribute 'self.s1' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.s1' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-9]]:26: note: 'gpu_tensor' is allocated on attribute 'self.s1' here
        # CHECK-NOTES: :[[@LINE-14]]:9: note: 'self.s1' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
        # CHECK-NOTES: :[[@LINE-9]]:12: note: on the path reported, this condition is false

    # Right: recorded on both paths.
    def unpack_recorded(self, host: torch.Tensor, outputs):
        with torch.cuda.stream(self.s1):
            gpu_tensor = host.to("cuda", non_blocking=True)
        self.s0.wait_stream(self.s1)
        if any(o.untyped_storage() is gpu_tensor.untyped_storage() for o in outputs):
            gpu_tensor.record_stream(self.s0)
        else:
            gpu_tensor.record_stream(self.s0)
            event = self.s0.record_event()
            self.s1.wait_event(event)
        return gpu_tensor
