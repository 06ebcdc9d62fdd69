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


# The reload walks the dict's values (`.items()`), each copied by a static
# method of a base class called through its name; tensor_pop takes the
# value into a local before it hands it back.
class ReloadBase:
    @staticmethod
    def reload(cpu_backup: torch.Tensor):
        return cpu_backup.to("cuda", non_blocking=True)


class GroupOffloader(ReloadBase):
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def offload(self, key, t: torch.Tensor):
        cpu_backup = torch.empty(t.size(), device="cpu", pin_memory=True)
        cpu_backup.copy_(t, non_blocking=True)
        self.state[key] = cpu_backup

    def reload_group(self):
        self.h2d_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.h2d_stream):
            for key, cpu_backup in self.state.items():
                recovered = ReloadBase.reload(cpu_backup)
                self.state[key] = recovered

    def tensor_pop(self, key):
        tensor = self.state.pop(key)
        return tensor
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'tensor' was allocated on attribute 'self.h2d_stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.h2d_stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-24]]:16: note: 'tensor' is allocated on attribute 'self.h2d_stream' here
        # CHECK-NOTES: :[[@LINE-20]]:9: note: 'self.h2d_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Fixed: the caller's stream waits for the copy stream, and the value is
# recorded on it before it leaves.
class RecordedGroupOffloader(ReloadBase):
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def offload(self, key, t: torch.Tensor):
        cpu_backup = torch.empty(t.size(), device="cpu", pin_memory=True)
        cpu_backup.copy_(t, non_blocking=True)
        self.state[key] = cpu_backup

    def reload_group(self):
        self.h2d_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.h2d_stream):
            for key, cpu_backup in self.state.items():
                recovered = ReloadBase.reload(cpu_backup)
                self.state[key] = recovered

    def tensor_pop(self, key):
        torch.cuda.current_stream().wait_stream(self.h2d_stream)
        tensor = self.state.pop(key)
        tensor.record_stream(torch.cuda.current_stream())
        return tensor


# A loop over `.values()` reads what the copy stream left in the dict.
class ScaledOffloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def reload(self, cpu_backup: torch.Tensor, key):
        with torch.cuda.stream(self.h2d_stream):
            self.state[key] = cpu_backup.to("cuda", non_blocking=True)
        for t in self.state.values():
            t.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 't' (a view of 'self.state[]') is written on the caller's current stream while its write on attribute 'self.h2d_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-4]]:71: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
            # CHECK-NOTES: :[[@LINE-5]]:31: note: 'self.state[]' is written on attribute 'self.h2d_stream' here
            # CHECK-NOTES: :[[@LINE-7]]:14: note: the current stream was set to attribute 'self.h2d_stream' here
            # CHECK-NOTES: :[[@LINE-12]]:9: note: 'self.h2d_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def tensor_pop(self, key):
        torch.cuda.current_stream().wait_stream(self.h2d_stream)
        t = self.state.pop(key)
        t.record_stream(torch.cuda.current_stream())
        return t


# Fixed: the caller's stream waits for the copies first.
class WaitingScaledOffloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.state = {}

    def reload(self, cpu_backup: torch.Tensor, key):
        with torch.cuda.stream(self.h2d_stream):
            self.state[key] = cpu_backup.to("cuda", non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.h2d_stream)
        for t in self.state.values():
            t.mul_(2)

    def tensor_pop(self, key):
        t = self.state.pop(key)
        t.record_stream(torch.cuda.current_stream())
        return t
