# RUN: %check_streamsafe_py %s

# The seed's §1.2 in functions, where A dies at the return: both problems
# of the wrong use (the order, and the allocator), and the two-step fix.
# In a function the current stream at entry is the caller's, so the wait is
# on torch.cuda.current_stream() (default_stream() may be another stream).
import torch


def wrong():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
    with torch.cuda.stream(s):
        B = torch.sum(A)
        # CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'A' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'A' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:23: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-8]]:9: note: 'A' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-7]]:25: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


def only_ordered():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
    s.wait_stream(torch.cuda.current_stream(cuda))
    with torch.cuda.stream(s):
        B = torch.sum(A)
        # CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:9: note: 'A' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:25: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


def only_recorded():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
    with torch.cuda.stream(s):
        B = torch.sum(A)
        # CHECK-NOTES: :[[@LINE-1]]:23: warning: tensor 'A' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'A' is written on the caller's current stream here
    A.record_stream(s)


def two_step_fix():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
    s.wait_stream(torch.cuda.current_stream(cuda))
    with torch.cuda.stream(s):
        B = torch.sum(A)
    A.record_stream(s)


def fresh_allocation_fixed():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda)
    s.wait_stream(torch.cuda.current_stream(cuda))
    with torch.cuda.stream(s):
        A.normal_(0.0, 1.0)
        A.record_stream(s)


def fresh_allocation_not_recorded():
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda)
    s.wait_stream(torch.cuda.current_stream(cuda))
    with torch.cuda.stream(s):
        A.normal_(0.0, 1.0)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'A' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:9: note: 'A' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:28: note: the last reference to 'A' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream


def synchronized_instead():
    # Waiting on the host for s before A dies also keeps its memory safe.
    cuda = torch.device('cuda')
    s = torch.cuda.Stream()
    A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)
    s.wait_stream(torch.cuda.current_stream(cuda))
    with torch.cuda.stream(s):
        B = torch.sum(A)
    s.synchronize()
