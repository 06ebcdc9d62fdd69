# The fix: side waits for the current stream (which waited for the
# receive) before it reads buf.
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
    work.wait()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        got = buf.clone()
        buf.record_stream(side)  # buf is freed while side may use it
        return harness.differs(got, v)  # checked on side: got stays there


sys.exit(harness.run_on_two_ranks("ranks_recv_wrong_stream", "fixed", receive_then_read_on_side))
