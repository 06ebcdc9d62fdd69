# RUN: %check_streamsafe_py %s

# §1.1 without the event: B is read on s2 while s1 may still write it.
import torch

s1 = torch.cuda.Stream()
s2 = torch.cuda.Stream()

with torch.cuda.stream(s1):
    A = torch.randn(100, 100, device="cuda")
    B = A @ A

with torch.cuda.stream(s2):
    C = B @ B
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'B' is read on pool stream 's2' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:6: note: the current stream is set to pool stream 's2' here
    # CHECK-NOTES: :[[@LINE-6]]:9: note: 'B' is written on pool stream 's1' here
    # CHECK-NOTES: :[[@LINE-9]]:6: note: the current stream was set to pool stream 's1' here

# The event recorded before the work it should cover orders nothing.
s3 = torch.cuda.Stream()
early = torch.cuda.Event()
early.record(s1)
with torch.cuda.stream(s1):
    D = A @ A
s3.wait_event(early)
with torch.cuda.stream(s3):
    E = D @ D
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'D' is read on pool stream 's3' while its write on pool stream 's1' may still be pending; nothing makes pool stream 's3' wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:6: note: the current stream is set to pool stream 's3' here
    # CHECK-NOTES: :[[@LINE-6]]:9: note: 'D' is written on pool stream 's1' here
    # CHECK-NOTES: :[[@LINE-8]]:6: note: the current stream was set to pool stream 's1' here
