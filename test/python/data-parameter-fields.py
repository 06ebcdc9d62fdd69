# RUN: %check_streamsafe_py %s

# A tensor the def reaches through an object its caller hands it (a field
# of a parameter, of an element of a parameter's container, or of an
# element of the object's own container) is the caller's data, as a tensor
# parameter is: ready on the caller's current stream at entry. A field the
# def's uses say is a tensor (`bucket.grad_data.div_(8)`, an operand only a
# tensor can be) and that it never assigns is followed, one location per
# object name and field. The C++ twin is
# test/checkers/unsynchronized-access-parameter-fields.cpp.
import torch

side = torch.cuda.Stream()


def reduce_one(bucket):
    with torch.cuda.stream(side):
        bucket.grad_data.div_(8)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'bucket.grad_data' is written on global stream 'side', but it is only known to be ready on the caller's current stream; nothing makes global stream 'side' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to global stream 'side' here
        # CHECK-NOTES: :[[@LINE-5]]:16: note: 'bucket.grad_data' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-9]]:8: note: 'side' is given a fresh stream here and never another stream, so it is not the caller's current stream


def reduce_all(buckets):
    with torch.cuda.stream(side):
        for b in buckets:
            b.grad_data.mul_(2)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'b.grad_data' is written on global stream 'side', but it is only known to be ready on the caller's current stream; nothing makes global stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-4]]:10: note: the current stream is set to global stream 'side' here
            # CHECK-NOTES: :[[@LINE-6]]:16: note: 'b.grad_data' is assumed ready on the caller's current stream at function entry
            # CHECK-NOTES: :[[@LINE-19]]:8: note: 'side' is given a fresh stream here and never another stream, so it is not the caller's current stream


class Reducer:
    def __init__(self, buckets):
        self.buckets = buckets
        self.comm = torch.cuda.Stream()

    def start(self):
        with torch.cuda.stream(self.comm):
            for bucket in self.buckets:
                bucket.grad_data.mul_(2)
                # CHECK-NOTES: :[[@LINE-1]]:17: warning: tensor 'bucket.grad_data' is written on attribute 'self.comm', but it is only known to be ready on the caller's current stream; nothing makes attribute 'self.comm' wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-4]]:14: note: the current stream is set to attribute 'self.comm' here
                # CHECK-NOTES: :[[@LINE-4]]:27: note: 'bucket.grad_data' is assumed ready on the caller's current stream at function entry
                # CHECK-NOTES: :[[@LINE-9]]:9: note: 'self.comm' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream


# Correct: the side stream waits for the caller's stream first.
def reduce_joined(bucket):
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        bucket.grad_data.div_(8)


# Silent: a field no use says is a tensor is not followed.
def reduce_named(bucket):
    with torch.cuda.stream(side):
        print(bucket.name)


# Silent: a field the def assigns is its own value from there on, not the
# caller's (not followed).
def reduce_own(bucket, n: int):
    bucket.grad_data = torch.zeros(n, device="cuda")
    with torch.cuda.stream(side):
        bucket.grad_data.div_(8)
