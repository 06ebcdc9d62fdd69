# RUN: %check_streamsafe_py %s

# The seed's §1.2, wrong use as written (module level): A is made on the
# default stream and read on side stream s with no wait. (A module's globals
# never die, so the allocator problem of the same code is shown in
# seed-record-stream-functions.py.)
import torch

cuda = torch.device('cuda')
s = torch.cuda.Stream()  # a new side stream
A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)  # A made on the default stream
with torch.cuda.stream(s):
    B = torch.sum(A)  # A read on side stream s
    # CHECK-NOTES: :[[@LINE-1]]:19: warning: tensor 'A' is read on pool stream 's' while its write on the default stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:6: note: the current stream is set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'A' is written on the default stream here
