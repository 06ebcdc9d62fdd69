# Rank 0 sends buf to rank 1 and refills it on its current stream before
# work.wait(). Rank 1 comes late, so the send on rank 0's NCCL stream has
# not read buf yet: rank 1 receives the new contents.
import sys

import torch
import torch.distributed as dist

import harness


def send_then_overwrite(rank, v):
    buf = torch.full((harness.RANK_N,), v if rank == 0 else 0.0, device="cuda")
    if rank == 0:
        work = dist.isend(buf, dst=1)
        buf.fill_(-v)  # EXPECT: streamsafe-unsynchronized-access
        work.wait()
        return False
    torch.cuda._sleep(harness.spin())  # the receiver comes late
    dist.recv(buf, src=0)
    return harness.differs(buf, v)


sys.exit(harness.run_on_two_ranks("ranks_send_overwritten", "bug", send_then_overwrite))
