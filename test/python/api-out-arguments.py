# RUN: %check_streamsafe_py %s

# out= and in-place torch functions write their target; when the target is
# not a tensor the analysis follows (an element of a list, a loop variable),
# nothing is written: no other argument takes the write.
import torch


def out_target_written(a: torch.Tensor, b: torch.Tensor):
    s = torch.cuda.Stream()
    c = torch.empty(4, device="cuda")
    with torch.cuda.stream(s):
        torch.add(a, b, out=c)
        # CHECK-NOTES: :[[@LINE-1]]:19: warning: tensor 'a' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-7]]:24: note: 'a' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-4]]:22: warning: tensor 'b' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-10]]:41: note: 'b' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-7]]:29: warning: tensor 'c' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-9]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-11]]:9: note: 'c' is allocated on the caller's current stream here
    s.wait_stream(torch.cuda.current_stream())
    torch.cuda.current_stream().wait_stream(s)
    c.record_stream(s)
    return c


def out_target_not_followed(bufs):
    # w is read on s; matmul only reads it (it writes bufs[0]), so no write
    # of w races with that read.
    w = torch.randn(4, device="cuda")
    x = torch.randn(4, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = w * 2
    torch.matmul(x, w, out=bufs[0])
    w.record_stream(s)
    return y


def in_place_of_unknown(vals):
    # clamp_ writes vals, which is not followed; w is only read.
    w = torch.randn(4, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = w * 2
    torch.clamp_(vals, w)
    w.record_stream(s)
    return y
