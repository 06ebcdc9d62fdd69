# The fix: work.wait() before buf is refilled, so the send has read it.
import sys

import torch
import torch.distributed as dist

import harness


def send_then_overwrite(rank, v):
    buf = torch.full((harness.RANK_N,), v if rank == 0 else 0.0, device="cuda")
    if rank == 0:
        work = dist.isend(buf, dst=1)
        work.wait()
        buf.fill_(-v)
        return False
    torch.cuda._sleep(harness.spin())  # the receiver comes late
    dist.recv(buf, src=0)
    return harness.differs(buf, v)


sys.exit(harness.run_on_two_ranks("ranks_send_overwritten", "fixed", send_then_overwrite))
