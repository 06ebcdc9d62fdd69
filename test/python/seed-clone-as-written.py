# RUN: %check_streamsafe_py %s

# The seed's §1.3 snippet exactly as written (module level). Besides the
# clone() the seed points at, A (made on the default stream) is read on s
# with no wait: both are races.
import torch

s = torch.cuda.Stream()
A = torch.randn(100, device="cuda")
with torch.cuda.stream(s):
    B = A @ A  # B computed on stream s
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'A' is read on pool stream 's' while its write on the default stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:6: note: the current stream is set to pool stream 's' here
    # CHECK-NOTES: :[[@LINE-5]]:5: note: 'A' is written on the default stream here

# back on the default stream
C = B.clone()  # the default stream does not wait for s
# CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'B' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
# CHECK-NOTES: :[[@LINE-8]]:14: note: the current stream is restored to the default stream here, when the guard goes out of scope
# CHECK-NOTES: :[[@LINE-9]]:9: note: 'B' is written on pool stream 's' here
# CHECK-NOTES: :[[@LINE-11]]:6: note: the current stream was set to pool stream 's' here
