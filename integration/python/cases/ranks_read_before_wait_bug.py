# Two ranks all-reduce buf. Rank 1 comes late (its current stream is busy),
# so the all-reduce on rank 0's NCCL stream waits for it; rank 0 reads buf
# on its current stream before work.wait().
import sys

import torch
import torch.distributed as dist

import harness


def reduce_then_read(rank, v):
    buf = torch.full((harness.RANK_N,), v, device="cuda")
    if rank == 1:
        torch.cuda._sleep(harness.spin())  # the peer comes late
    work = dist.all_reduce(buf, async_op=True)
    got = buf.clone()  # EXPECT: streamsafe-unsynchronized-access
    work.wait()
    return got


sys.exit(harness.run_on_two_ranks(
    "ranks_read_before_wait", "bug",
    lambda rank, v: harness.differs(reduce_then_read(rank, v), 2 * v)))
