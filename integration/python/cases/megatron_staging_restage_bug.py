# Twin of a real fixed bug: Megatron-LM megatron/core/inference/contexts/
# dynamic_context.py:2475 (transfer_bookkeeping_to_gpu). Every step re-stages
# request metadata into views of one pinned bookkeeping buffer on the host,
# then copies the whole buffer to the GPU with copy_(non_blocking=True). The
# next step's host writes may land while the previous step's copy is still
# queued behind the forward's kernels, so the GPU gets the next step's
# values. The fix made the copy blocking. Here the current stream is busy (a
# sleep) when the copy is enqueued; the GPU's snapshot of what was copied is
# taken, in stream order, right after the copy.
import torch

import harness


class Bookkeeping:
    def __init__(self, n):
        self.buf = torch.empty(4 * n, dtype=torch.uint8, device="cpu", pin_memory=True)
        self.lengths = self.buf[0 : 4 * n].view(torch.int32)
        self.gpu = torch.empty(4 * n, dtype=torch.uint8, device="cuda")

    def transfer(self, v: int):
        self.lengths[:] = v  # EXPECT: streamsafe-host-read-before-sync
        self.gpu.copy_(self.buf, non_blocking=True)


BK = Bookkeeping(harness.N)


def body(v):
    torch.cuda._sleep(harness.spin())  # the forward's kernels
    BK.transfer(int(v))
    snapshot = BK.gpu.view(torch.int32).clone()  # after the copy, in order
    BK.transfer(int(v) + 1)  # the next step re-stages at once
    return harness.differs(snapshot, int(v))


harness.run("megatron_staging_restage", "bug", body)
