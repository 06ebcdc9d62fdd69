# RUN: %check_streamsafe_py %s

# The subtle case without the wait: the write on s races with the
# allocation on the default stream.
import torch

cuda = torch.device('cuda')
s = torch.cuda.Stream()
A = torch.empty((100, 100), device=cuda)
with torch.cuda.stream(s):
    A.normal_(0.0, 1.0)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'A' is written on pool stream 's' while its allocation on the default stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:6: note: the current stream is set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'A' is allocated on the default stream here
    A.record_stream(s)
