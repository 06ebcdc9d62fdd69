# Twin of a real bug the kept-by-the-object rule finds: Tencent/PatrickStar
# patrickstar/core/chunk_data.py:267 (bd6e52a1; fixed in 541d1ce). Chunk.move
# to the GPU copies the payload under `with torch.cuda.stream(copy_stream)`,
# so the new GPU payload is a block of the copy stream's pool, and keeps it
# in self.payload for the compute stream. Nothing records it there: when the
# chunk lets go of it, the block goes back to the copy stream's pool at
# once, and the copy stream's next allocation overwrites it while the
# compute stream's kernels still read it.
import torch

import harness


class Chunk:
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()
        self.payload = None

    def load(self, host):
        pinned = host.pin_memory()
        with torch.cuda.stream(self.copy_stream):
            self.payload = pinned.to("cuda")  # EXPECT: streamsafe-missing-record-stream

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
        # The next chunk's payload: the freed block, written at once.
        torch.full((harness.N,), -1.0, device="cuda")
    return harness.differs(out, 2 * v)


harness.run("patrickstar_kept_payload", "bug", body)
