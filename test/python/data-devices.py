# RUN: %check_streamsafe_py %s

# Several devices (the C++ twin is
# test/checkers/unsynchronized-access-devices.cpp). Each device has its own
# current stream: a tensor made with device='cuda:1' (or
# torch.device('cuda', 1)) is allocated on device 1's current stream,
# torch.cuda.current_stream(1) is that stream, and `with
# torch.cuda.device(1):` makes device 1 current over its body. An ATen op
# runs on the current stream of its tensor's device. A device the analysis
# cannot read is assumed to be the current one (silent).
import torch


# Wrong: a two-hop copy across three devices. Each hop writes a buffer just
# allocated on the next device's current stream from a side stream of that
# device, with nothing ordering it after the allocation; the second hop
# reads the first hop's result on device 1's current stream (a cross-device
# copy_ runs on the source device's current stream) with no join.
def two_hop_no_wait():
    src = torch.randn(16, device='cuda:0')
    mid = torch.empty(16, device='cuda:1')
    dst = torch.empty(16, device=torch.device('cuda', 2))
    with torch.cuda.device(1):
        s1 = torch.cuda.Stream()
        with torch.cuda.stream(s1):
            mid.copy_(src, non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'mid' is written on pool stream 's1' while its allocation on the current stream of device 1 may still be pending; nothing makes pool stream 's1' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 's1' here
            # CHECK-NOTES: :[[@LINE-8]]:11: note: 'mid' is allocated on the current stream of device 1 here
            # CHECK-NOTES: :[[@LINE-4]]:13: warning: tensor 'mid' is used on pool stream 's1' but was allocated on the current stream of device 1; when its last reference dies the caching allocator may reuse its memory while pool stream 's1' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream is set to pool stream 's1' here
            # CHECK-NOTES: :[[@LINE-11]]:11: note: 'mid' is allocated on the current stream of device 1 here
            # CHECK-NOTES: :[[@LINE+12]]:5: note: the last reference to 'mid' dies here, with no record_stream on pool stream 's1' and no synchronization with the current stream of device 1
    with torch.cuda.device(2):
        s2 = torch.cuda.Stream()
        with torch.cuda.stream(s2):
            dst.copy_(mid, non_blocking=True)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'dst' is written on pool stream 's2' while its allocation on the current stream of device 2 may still be pending; nothing makes pool stream 's2' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 's2' here
            # CHECK-NOTES: :[[@LINE-18]]:11: note: 'dst' is allocated on the current stream of device 2 here
            # CHECK-NOTES: :[[@LINE-4]]:23: warning: tensor 'mid' is read on the current stream of device 1 while its write on pool stream 's1' may still be pending; nothing makes the current stream of device 1 wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-16]]:13: note: 'mid' is written on pool stream 's1' here
            # CHECK-NOTES: :[[@LINE-18]]:14: note: the current stream was set to pool stream 's1' here
        torch.cuda.current_stream().wait_stream(s2)
    return dst


# Right: the same hops, each side stream waiting for its device's current
# stream, and each joined back before the next hop.
def two_hop_with_wait():
    src = torch.randn(16, device='cuda:0')
    mid = torch.empty(16, device='cuda:1')
    dst = torch.empty(16, device=torch.device('cuda', 2))
    with torch.cuda.device(1):
        s1 = torch.cuda.Stream()
        s1.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s1):
            mid.copy_(src, non_blocking=True)
        torch.cuda.current_stream().wait_stream(s1)
    with torch.cuda.device(2):
        s2 = torch.cuda.Stream()
        s2.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s2):
            dst.copy_(mid, non_blocking=True)
        torch.cuda.current_stream().wait_stream(s2)
    return dst


# Wrong: device 1's current stream waits for device 0's, not for the side
# stream that wrote the buffer.
def wait_on_the_wrong_device(x: torch.Tensor):
    out = torch.empty(16, device='cuda:1')
    with torch.cuda.device(1):
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            out.fill_(1)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'out' is used on pool stream 's' but was allocated on the current stream of device 1; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 's' here
            # CHECK-NOTES: :[[@LINE-8]]:11: note: 'out' is allocated on the current stream of device 1 here
            # CHECK-NOTES: :[[@LINE+2]]:5: note: the last reference to 'out' dies here, with no record_stream on pool stream 's' and no synchronization with the current stream of device 1
        torch.cuda.current_stream(1).wait_stream(torch.cuda.current_stream(0))
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the current stream of device 1 while its write on pool stream 's' may still be pending; nothing makes the current stream of device 1 wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-8]]:13: note: 'out' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-10]]:14: note: the current stream was set to pool stream 's' here


# Right: the same, waiting for the side stream.
def wait_on_the_right_stream(x: torch.Tensor):
    out = torch.empty(16, device='cuda:1')
    with torch.cuda.device(1):
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            out.fill_(1)
        torch.cuda.current_stream(1).wait_stream(s)
    return out.sum()


# Right: plain cross-device copies: copy_ orders itself after both devices'
# current streams, and ops on a buffer run on its own device's current
# stream whatever device is current.
def plain_copies(x: torch.Tensor):
    mid = x.to('cuda:1')
    dst = mid.cuda(2)
    with torch.cuda.device(0):
        dst.mul_(2)
    return dst


# Devices the analysis cannot read: assumed to be the current one.
def unknown_devices(x: torch.Tensor, d, k):
    out = torch.empty(16, device=d)
    with torch.cuda.device(k):
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            out.fill_(1)
        torch.cuda.current_stream().wait_stream(s)
    return out


# Wrong: single-GPU code that spells the index out: cuda:0 is the current
# device here (no other device is named), so the buffer is allocated on the
# side stream and read on the caller's current stream with no join.
def single_device_index():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.ones(16, device='cuda:0')
    return t.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 't' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:44: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:13: note: 't' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here
