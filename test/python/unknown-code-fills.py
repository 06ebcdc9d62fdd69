# RUN: %check_streamsafe_py %s

# Code the analysis does not read reads the tensors it is handed on the
# current stream. Code does not read memory nobody wrote, though: a part of
# a block allocated without values (`torch.empty`) that nothing has written
# yet is handed to it to fill, and it is taken to write it there (apex's
# halo exchange fills the halo rows of a fresh padded buffer). Two side
# streams given by unread code may be one stream; a wait of one for the
# other, anywhere in the def, says they are two.
import torch
import halo_ext


def exchange(x: torch.Tensor, exchanger, late: bool):
    s1 = exchanger.stream1
    s2 = exchanger.stream2
    h = x.shape[0]
    pad = torch.empty([h + 2, 8], device="cuda")
    s1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        top = pad[:1]
        btm = pad[h + 1 : h + 2]
        exchanger.left_right_halo_exchange(x[:1], x[h - 1 :], top, btm)
    if late:
        s2.wait_stream(s1)
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s2):
        y = btm.clone()
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'btm' (a view of 'pad') is read on stream 's2' while its write on stream 's1' may still be pending; nothing makes stream 's2' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to stream 's2' here
        # CHECK-NOTES: :[[@LINE-8]]:68: note: 'pad' is written on stream 's1' here, by code the analysis does not read: nothing has written this part of it since it was allocated without values, so the call is taken to fill it
        # CHECK-NOTES: :[[@LINE-12]]:10: note: the current stream was set to stream 's1' here
        # CHECK-NOTES: :[[@LINE-7]]:5: note: 's2', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
        # CHECK-NOTES: :[[@LINE-15]]:5: note: 's1', given by code the analysis does not read, is used as a side stream here, so it is taken to differ from the caller's current stream
        # CHECK-NOTES: :[[@LINE-10]]:9: note: stream 's2' and stream 's1' are ordered one after the other here, so they are taken to be different streams
        # CHECK-NOTES: :[[@LINE-12]]:8: note: on the path reported, 'late' is false
    torch.cuda.current_stream().wait_stream(s2)
    return y


def exchange_waits(x: torch.Tensor, exchanger):
    s1 = exchanger.stream1
    s2 = exchanger.stream2
    h = x.shape[0]
    pad = torch.empty([h + 2, 8], device="cuda")
    s1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        btm = pad[h + 1 : h + 2]
        exchanger.left_right_halo_exchange(x[:1], x[h - 1 :], pad[:1], btm)
    s2.wait_stream(s1)
    with torch.cuda.stream(s2):
        y = btm.clone()
    torch.cuda.current_stream().wait_stream(s2)
    return y


def filled_then_read(x: torch.Tensor):
    side = torch.cuda.Stream()
    out = torch.empty_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        halo_ext.fill(x, out)
    return out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:26: note: 'out' is written on pool stream 'side' here, by code the analysis does not read: nothing has written this part of it since it was allocated without values, so the call is taken to fill it
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here


def filled_then_waited(x: torch.Tensor):
    side = torch.cuda.Stream()
    out = torch.empty_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        halo_ext.fill(x, out)
    torch.cuda.current_stream().wait_stream(side)
    return out.sum()


def written_first(x: torch.Tensor):
    # Zeros are values: the unread call may only read them.
    side = torch.cuda.Stream()
    out = torch.zeros_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        halo_ext.fill(x, out)
    total = out.sum()
    torch.cuda.current_stream().wait_stream(side)
    return total


def interior_written(x: torch.Tensor):
    # The interior rows were written: handed with them, only the halo rows
    # are filled; the interior is only read there.
    side = torch.cuda.Stream()
    h = x.shape[0]
    pad = torch.empty([h + 2, 8], device="cuda")
    pad[1 : h + 1].copy_(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        halo_ext.pad(pad[:1], pad[1 : h + 1])
    total = pad[1 : h + 1].sum()
    torch.cuda.current_stream().wait_stream(side)
    return total


def halo_written(x: torch.Tensor):
    side = torch.cuda.Stream()
    h = x.shape[0]
    pad = torch.empty([h + 2, 8], device="cuda")
    pad[1 : h + 1].copy_(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        halo_ext.pad(pad[:1], pad[1 : h + 1])
    total = pad[:1].sum()
    # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'pad' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:46: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:22: note: 'pad' is written on pool stream 'side' here, by code the analysis does not read: nothing has written this part of it since it was allocated without values, so the call is taken to fill it
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 'side' here
    torch.cuda.current_stream().wait_stream(side)
    return total


def never_ordered(x: torch.Tensor, exchanger):
    # Two side streams of unread code the def never orders one against the
    # other may be one stream.
    s1 = exchanger.stream1
    s2 = exchanger.stream2
    pad = torch.empty([4, 8], device="cuda")
    s1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        exchanger.fill(x, pad)
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s2):
        y = pad.clone()
    torch.cuda.current_stream().wait_stream(s2)
    torch.cuda.current_stream().wait_stream(s1)
    return y
