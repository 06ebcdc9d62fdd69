# Twin of a real fixed bug: apex apex/contrib/bottleneck/bottleneck.py:336
# (SpatialBottleneckFunction.forward, spatial_method 3). The halo exchange
# fills the halo rows of a fresh padded buffer on stream1; the halo
# correction then reads a halo row on stream2, which waited only for the
# current stream. The fix made stream2 wait for stream1 first. Here the
# exchange is slow (a sleep before its copies on stream1), so stream2's
# read runs before the halo arrives and sees whatever the block held.
import torch

import harness


class HaloExchanger:
    def __init__(self):
        self.stream1 = torch.cuda.Stream()
        self.stream2 = torch.cuda.Stream()

    def left_right_halo_exchange(self, left_in, right_in, left_out, right_out):
        torch.cuda._sleep(harness.spin())  # the peers' transfers take a while
        left_out.copy_(right_in)
        right_out.copy_(left_in)


def forward(x, exchanger, method):
    stream1 = exchanger.stream1
    stream2 = exchanger.stream2
    h = x.shape[0]
    pad = torch.empty([h + 2, x.shape[1]], device="cuda")
    stream1.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream1):
        top = pad[:1]
        btm = pad[h + 1 : h + 2]
        exchanger.left_right_halo_exchange(x[:1], x[h - 1 :], top, btm)
    if method == 1:
        stream2.wait_stream(stream1)
    stream2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream2):
        halo = btm.clone()  # EXPECT: streamsafe-unsynchronized-access
    torch.cuda.current_stream().wait_stream(stream2)
    torch.cuda.current_stream().wait_stream(stream1)
    return halo


EX = HaloExchanger()


def body(v):
    x = torch.full((harness.N // 256, 256), float(v), device="cuda")
    return harness.differs(forward(x, EX, 3), v)


harness.run("apex_halo_fill", "bug", body)
