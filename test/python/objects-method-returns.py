# RUN: %check_streamsafe_py %s

# `self.x = self.m(...)` gives the attribute what the class's method m
# returns (`return x.to(...)`, `return self.y`), so an attribute filled
# by a helper method is followed like one assigned directly.
import torch


# A reload made on the object's copy stream through a helper method, handed
# to the caller with no record_stream (TransformerEngine's cpu_offload shape).
class Reloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.buf = None

    def reload_one(self, cpu_backup: torch.Tensor):
        return cpu_backup.to("cuda", non_blocking=True)

    def reload(self, cpu_backup: torch.Tensor):
        with torch.cuda.stream(self.h2d_stream):
            self.buf = self.reload_one(cpu_backup)

    def tensor_pop(self):
        return self.buf
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'self.buf' was allocated on attribute 'self.h2d_stream' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on attribute 'self.h2d_stream' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-9]]:16: note: 'self.buf' is allocated on attribute 'self.h2d_stream' here
        # CHECK-NOTES: :[[@LINE-14]]:9: note: 'self.h2d_stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Its twin records the block on the caller's stream before handing it over.
class RecordedReloader:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.buf = None

    def reload_one(self, cpu_backup: torch.Tensor):
        return cpu_backup.to("cuda", non_blocking=True)

    def reload(self, cpu_backup: torch.Tensor):
        with torch.cuda.stream(self.h2d_stream):
            self.buf = self.reload_one(cpu_backup)

    def tensor_pop(self):
        torch.cuda.current_stream().wait_stream(self.h2d_stream)
        self.buf.record_stream(torch.cuda.current_stream())
        return self.buf


# A method that returns a list makes the attribute no tensor: silent.
class Lists:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.bufs = None

    def reload_all(self, cpu_backups):
        return [t.to("cuda", non_blocking=True) for t in cpu_backups]

    def reload(self, cpu_backups):
        with torch.cuda.stream(self.h2d_stream):
            self.bufs = self.reload_all(cpu_backups)

    def tensor_pop(self):
        return self.bufs
