# An asynchronous all-gather writes `out` on the process group's NCCL
# stream; work.wait() makes the current stream wait before the read.
import torch
import torch.distributed as dist

import harness


def gather_then_read(v):
    inp = torch.full((harness.N,), v, device="cuda")
    out = torch.zeros(harness.N, device="cuda")
    slow = torch.cuda.Stream()
    slow.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(slow):
        torch.cuda._sleep(harness.spin())  # slow is busy with earlier work
        work = dist.all_gather_into_tensor(out, inp, async_op=True)
    work.wait()
    got = out.clone()
    return got


harness.single_rank_group()
harness.run("collective_read_before_wait", "fixed",
            lambda v: harness.differs(gather_then_read(v), v))
