# RUN: %check_streamsafe_py %s

# A method the class calls on self, and no code of the project calls on
# another object, is the class's helper (docs/python.md, "Objects across
# methods"): it runs where its callers run it, so what it leaves in the
# object's fields when it returns is not a state between the object's
# calls. A method some code calls on another object is an entry point.
import torch


# Right: only reduce() calls clear_bucket(), under the bucket's stream;
# its allocation and zeroing are never on the caller's stream.
class Bucket:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.flat = None

    def clear_bucket(self):
        if self.flat is None:
            self.flat = torch.empty(1024, device="cuda")
        self.flat.zero_()

    def reduce(self):
        with torch.cuda.stream(self.stream):
            self.clear_bucket()


# Wrong: reset() calls clear_shard() on a shard, on the caller's stream,
# after reduce() zeroed the same memory on the shard's stream: nothing
# orders the two.
class Shard:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.flat = None

    def clear_shard(self):
        if self.flat is None:
            self.flat = torch.empty(1024, device="cuda")
        self.flat.zero_()
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'self.flat' is written on the caller's current stream while its write on attribute 'self.stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-2]]:9: note: 'self.flat' is written on attribute 'self.stream' here
        # CHECK-NOTES: :[[@LINE+3]]:9: note: in 'reduce', a method of the same object, which returns with it in flight; 'clear_shard' may run after it
        # CHECK-NOTES: :[[@LINE-10]]:9: note: 'self.stream' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream

    def reduce(self):
        with torch.cuda.stream(self.stream):
            self.clear_shard()


def reset(shard: Shard):
    shard.clear_shard()
