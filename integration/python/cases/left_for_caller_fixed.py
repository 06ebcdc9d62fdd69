# The fix of pytorch/ao's CPU offload optimizer: the side stream is
# synchronized before the function returns, so the caller's next use of
# its tensor finds the copy done.
import torch

import harness


def upload(dst, src):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(harness.spin())  # the side stream's earlier work
        dst.copy_(src, non_blocking=True)
    s.synchronize()


def body(v):
    dst = torch.zeros(harness.N, device="cuda")
    src = torch.full((harness.N,), v, device="cuda")
    upload(dst, src)
    return harness.differs(dst * 1, v)  # the caller's next use


harness.run("left_for_caller", "fixed", body)
