# A write into the caller's tensor left in flight on a stream the function
# made (pytorch/ao's CPU offload optimizer, cpu_offload.py:108, reduced):
# the function returns with the copy still queued behind a busy side
# stream, and the caller reads the tensor next on its current stream.
import torch

import harness


def upload(dst, src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # the side stream's earlier work
        dst.copy_(src, non_blocking=True)  # EXPECT: streamsafe-unsynchronized-access


def body(v):
    dst = torch.zeros(harness.N, device="cuda")
    src = torch.full((harness.N,), v, device="cuda")
    upload(dst, src)
    return harness.differs(dst * 1, v)  # EXPECT: streamsafe-unsynchronized-access


harness.run("left_for_caller", "bug", body)
