# Fixed twin of a real bug: lmdeploy lmdeploy/pytorch/engine/logits_process.py:368
# (FusedLogitsProcessor.accept_guided_tokens). The forward loop makes its
# own stream current, and three calls down sampling writes the token ids on
# it; accept_guided_tokens hands them to asyncio.to_thread, whose worker
# reads them (tolist()) on its own current stream: the default stream, which
# never waited for the forward stream. The fix records an event on the
# caller's stream and synchronizes it in the worker before the read. Here
# sampling is slow (a sleep before it on the forward stream), so the worker
# copies the ids before they are written.
import asyncio

import torch

import harness


class Processor:
    def _accept(self, ids, ready):
        if ready is not None:
            ready.synchronize()
        return ids.tolist()

    async def accept(self, ids):
        ready = None
        if ids.is_cuda:
            ready = torch.cuda.Event()
            ready.record()
        return await asyncio.to_thread(self._accept, ids, ready)


class Agent:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    async def sample(self, v):
        torch.cuda._sleep(harness.spin())  # the forward pass takes a while
        ids = torch.full((4096,), v, device="cuda")
        return await Processor().accept(ids)

    async def step(self, v):
        return await self.sample(v)

    async def loop(self, v):
        with torch.cuda.stream(self.stream):
            return await self.step(v)


AGENT = Agent()


def body(v):
    got = asyncio.run(AGENT.loop(v))
    return any(x != v for x in got)


harness.run("lmdeploy_guided_tokens", "fixed", body)
