# The callers of pkg/proc.py (callers-stream.test): a forward loop that
# makes its own stream current and calls down to the processor.
import torch

from .proc import Processor, accept_mixed, accept_callback, accept_under


class Agent:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    async def sample(self, logits):
        p = Processor()
        ids = logits.argmax(-1)
        await p.accept(ids)
        await p.accept_ready(ids)
        await p.accept_maybe(ids)
        await p.accept_tested(ids)
        await accept_mixed(ids)
        return ids

    async def step(self, logits):
        return await self.sample(logits)

    async def loop(self, batches):
        with torch.cuda.stream(self.stream):
            for logits in batches:
                await self.step(logits)


async def plain(ids):
    # Not under any stream: accept_mixed's callers disagree.
    await accept_mixed(ids)


async def with_callback(ids, run):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        await run(accept_callback, ids)


async def under_given(ids, s):
    # A stream the caller hands in may be the default stream.
    with torch.cuda.stream(s):
        await accept_under(ids)


class Other:
    # Its own 'step': `self.step()` here is not Agent.step.
    def step(self):
        return None

    def once(self):
        return self.step()


def sample(x):
    return x


# A bare name is another def than the method Agent.sample.
sample(1)
