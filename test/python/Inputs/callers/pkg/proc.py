# Checked by test/python/callers-stream.test.
#
# Every caller in the project runs these defs with a side stream current
# (agent.py: the forward loop's `with torch.cuda.stream(self.stream)`,
# three calls up): the caller's current stream is not the default stream,
# and work handed to a worker thread runs on another stream.
import asyncio

import torch


class Processor:
    def _accept(self, ids):
        return ids.tolist()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'ids' is read on the default stream, but it is only known to be ready on the caller's current stream; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE+14]]:15: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE+12]]:28: note: 'ids' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: agent.py:15:15: note: 'accept' is called here, with that stream current
        # CHECK-NOTES: agent.py:23:22: note: 'sample' is called here, with that stream current
        # CHECK-NOTES: agent.py:28:23: note: 'step' is called here, with that stream current
        # CHECK-NOTES: agent.py:26:14: note: every caller of 'accept' in the project runs it with a side stream current; this one makes it current here
        # CHECK-NOTES: :[[@LINE-8]]:16: warning: this work runs on the default stream, not on the caller's current stream that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE+7]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: agent.py:15:15: note: 'accept' is called here, with that stream current
        # CHECK-NOTES: agent.py:23:22: note: 'sample' is called here, with that stream current
        # CHECK-NOTES: agent.py:28:23: note: 'step' is called here, with that stream current
        # CHECK-NOTES: agent.py:26:14: note: every caller of 'accept' in the project runs it with a side stream current; this one makes it current here

    async def accept(self, ids):
        await asyncio.to_thread(self._accept, ids)

    # The twin: the worker waits on the host for an event recorded on the
    # caller's stream before it reads.
    def _accept_ready(self, ids, ready):
        ready.synchronize()
        return ids.tolist()

    async def accept_ready(self, ids):
        ready = torch.cuda.Event()
        ready.record()
        await asyncio.to_thread(self._accept_ready, ids, ready)

    # The twin with the event made only for a device tensor: where
    # `ids.is_cuda` fails, ids is on the host and its read is no device work.
    def _accept_maybe(self, ids, ready):
        if ready is not None:
            ready.synchronize()
        return ids.tolist()

    async def accept_maybe(self, ids):
        ready = None
        if ids.is_cuda:
            ready = torch.cuda.Event()
            ready.record()
        await asyncio.to_thread(self._accept_maybe, ids, ready)

    # tests/test_proc.py calls it with no stream set: test code is no caller.
    async def accept_tested(self, ids: torch.Tensor):
        await asyncio.to_thread(lambda: ids.tolist())
        # CHECK-NOTES: :[[@LINE-1]]:41: warning: tensor 'ids' is read on the default stream, but it is only known to be ready on the caller's current stream; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-2]]:15: note: the current stream is thread-local: the thread started here runs on the default stream
        # CHECK-NOTES: :[[@LINE-4]]:35: note: 'ids' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: agent.py:18:15: note: 'accept_tested' is called here, with that stream current
        # CHECK-NOTES: agent.py:23:22: note: 'sample' is called here, with that stream current
        # CHECK-NOTES: agent.py:28:23: note: 'step' is called here, with that stream current
        # CHECK-NOTES: agent.py:26:14: note: every caller of 'accept_tested' in the project runs it with a side stream current; this one makes it current here
        # CHECK-NOTES: :[[@LINE-8]]:41: warning: this work runs on the default stream, not on the caller's current stream that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
        # CHECK-NOTES: :[[@LINE-9]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
        # CHECK-NOTES: agent.py:18:15: note: 'accept_tested' is called here, with that stream current
        # CHECK-NOTES: agent.py:23:22: note: 'sample' is called here, with that stream current
        # CHECK-NOTES: agent.py:28:23: note: 'step' is called here, with that stream current
        # CHECK-NOTES: agent.py:26:14: note: every caller of 'accept_tested' in the project runs it with a side stream current; this one makes it current here


# Called under the forward stream and with none (agent.py, plain): the
# callers disagree, nothing is known.
async def accept_mixed(ids: torch.Tensor):
    await asyncio.to_thread(lambda: ids.tolist())


# Handed on as a value (agent.py, with_callback): it may run anywhere.
async def accept_callback(ids: torch.Tensor):
    await asyncio.to_thread(lambda: ids.tolist())


# Called under a stream the caller was handed, which may be the default one.
async def accept_under(ids: torch.Tensor):
    await asyncio.to_thread(lambda: ids.tolist())
