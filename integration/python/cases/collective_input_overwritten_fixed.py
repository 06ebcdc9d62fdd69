# An asynchronous all-gather reads `inp` on the process group's NCCL
# stream; work.wait() comes before `inp` is overwritten on the current stream.
import torch
import torch.distributed as dist

import harness


def gather_then_overwrite(v):
    inp = torch.full((harness.N,), v, device="cuda")
    out = torch.zeros(harness.N, device="cuda")
    slow = torch.cuda.Stream()
    slow.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(slow):
        torch.cuda._sleep(harness.spin())  # slow is busy with earlier work
        work = dist.all_gather_into_tensor(out, inp, async_op=True)
    work.wait()
    inp.fill_(-1)
    return out


harness.single_rank_group()
harness.run("collective_input_overwritten", "fixed",
            lambda v: harness.differs(gather_then_overwrite(v), v))
