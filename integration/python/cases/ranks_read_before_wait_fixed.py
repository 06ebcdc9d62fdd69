# The fix: work.wait() makes rank 0's current stream wait for the
# all-reduce before buf is read.
import sys

import torch
import torch.distributed as dist

import harness


def reduce_then_read(rank, v):
    buf = torch.full((harness.RANK_N,), v, device="cuda")
    if rank == 1:
        torch.cuda._sleep(harness.spin())  # the peer comes late
    work = dist.all_reduce(buf, async_op=True)
    work.wait()
    return buf.clone()


sys.exit(harness.run_on_two_ranks(
    "ranks_read_before_wait", "fixed",
    lambda rank, v: harness.differs(reduce_then_read(rank, v), 2 * v)))
