# RUN: %check_streamsafe_py %s

# The seed's §1.3: clone() runs on the current stream and does not wait for
# the stream that computed its source; the three fixes. (Each function first
# makes s wait for A, which the seed's snippet leaves out: see
# seed-clone-as-written.py.) Where B, made on s, is last used on the current
# stream and dies at the return with the clone perhaps still running, the
# allocator problem of §1.2 is there too (missing-record-stream): fix 3
# avoids both.
import torch


def wrong():
    s = torch.cuda.Stream()
    A = torch.randn(100, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        B = A @ A  # B computed on stream s
    # back on the current stream
    C = B.clone()  # the current stream does not wait for s
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'B' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-4]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-5]]:13: note: 'B' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-7]]:10: note: the current stream was set to pool stream 's' here
    A.record_stream(s)
    return C


def fix_wait_stream():
    s = torch.cuda.Stream()
    A = torch.randn(100, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        B = A @ A
    # fix 1: make the current stream wait for s
    torch.cuda.current_stream().wait_stream(s)
    C = B.clone()
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'B' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-5]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-6]]:13: note: 'B' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'B' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    A.record_stream(s)
    return C


def fix_synchronize():
    s = torch.cuda.Stream()
    A = torch.randn(100, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        B = A @ A
    # fix 2: the host waits for the whole device (simplest, slowest)
    torch.cuda.synchronize()
    C = B.clone()
    # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'B' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-5]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-6]]:13: note: 'B' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'B' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    return C


def fix_clone_on_s():
    s = torch.cuda.Stream()
    A = torch.randn(100, device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        B = A @ A
    # fix 3: clone on the stream that computed B
    with torch.cuda.stream(s):
        C = B.clone()
    A.record_stream(s)
    return C
