# RUN: %check_streamsafe_py %s

# A dict attribute that the class only ever makes empty and only ever
# stores tensors in is followed as one tensor, "some value of the dict":
# what one method stores on its stream is what another method takes out
# (TransformerEngine's cpu_offload, torchtune's activation offloading).
import torch


# The reload allocates on the object's copy stream; tensor_pop hands the
# block to the caller with no record_stream.
class Offloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def reload(self, cpu_backup: torch.Tensor, key):
        with torch.cuda.stream(self.h2d_stream):
            self.state[key] = cpu_backup.to("cuda", non_blocking=True)

    def tensor_pop(self, key):
        return self.state.pop(key)
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.state[]' was allocated on attribute 'self.h2d_stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.h2d_stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-5]]:31: note: 'self.state[]' is allocated on attribute 'self.h2d_stream' here
        # CHECK-NOTES: :[[@LINE-11]]:9: note: 'self.h2d_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Fixed: the caller's stream waits for the copy stream and the block is
# recorded on it before it leaves.
class RecordedOffloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def reload(self, cpu_backup: torch.Tensor, key):
        with torch.cuda.stream(self.h2d_stream):
            self.state[key] = cpu_backup.to("cuda", non_blocking=True)

    def tensor_pop(self, key):
        torch.cuda.current_stream().wait_stream(self.h2d_stream)
        t = self.state.pop(key)
        t.record_stream(torch.cuda.current_stream())
        return t


# A dict that also holds other things (a number under some key) is not
# followed: silent.
class Mixed:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def reload(self, cpu_backup: torch.Tensor, key):
        with torch.cuda.stream(self.h2d_stream):
            self.state[key] = cpu_backup.to("cuda", non_blocking=True)
        self.state["count"] = 1

    def tensor_pop(self, key):
        return self.state.pop(key)
