# Rank 1 receives buf from rank 0, which comes late. work.wait() makes rank
# 1's current stream wait for the receive, but buf is then read on a side
# stream that waits for nothing.
import sys

import torch
import torch.distributed as dist

import harness


def receive_then_read_on_side(rank, v):
    buf = torch.full((harness.RANK_N,), v if rank == 0 else 0.0, device="cuda")
    if rank == 0:
        torch.cuda._sleep(harness.spin())  # the sender comes late
        dist.send(buf, dst=1)
        return False
    work = dist.irecv(buf, src=0)
    work.wait()  # the current stream waits; side does not
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        got = buf.clone()  # EXPECT: streamsafe-unsynchronized-access
        buf.record_stream(side)  # buf is freed while side may use it
        return harness.differs(got, v)  # checked on side: got stays there


sys.exit(harness.run_on_two_ranks("ranks_recv_wrong_stream", "bug", receive_then_read_on_side))
