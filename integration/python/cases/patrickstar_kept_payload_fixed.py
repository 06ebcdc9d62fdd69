# The fix of patrickstar_kept_payload_bug.py, as PatrickStar's (541d1ce):
# the payload is copied on the compute stream, so its block is that
# stream's, and freeing it orders after the compute stream's kernels.
import torch

import harness


class Chunk:
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()
        self.payload = None

    def load(self, host):
        pinned = host.pin_memory()
        self.payload = pinned.to("cuda")

    def offload(self):
        self.payload = None  # the GPU payload goes back to the allocator

    def doubled(self):
        return self.payload * 2


CHUNK = Chunk()


def body(v):
    CHUNK.load(torch.full((harness.N,), v))  # a blocking copy: done on return
    torch.cuda._sleep(harness.spin())  # the compute stream is busy
    out = CHUNK.doubled()  # queued behind the sleep
    CHUNK.offload()
    with torch.cuda.stream(CHUNK.copy_stream):
        # The next chunk's payload: another block of the copy stream's pool.
        torch.full((harness.N,), -1.0, device="cuda")
    return harness.differs(out, 2 * v)


harness.run("patrickstar_kept_payload", "fixed", body)
