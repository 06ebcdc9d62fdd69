# Twin of a bug found in the wild: dgl python/dgl/distributed/optim/pytorch/
# sparse_optim.py, SparseAdam.update with its state on the CPU (dmlc/dgl at
# edf2d526, the fix of dgl#2760, and still so at the newest snapshot). The
# update is copied to the host with .to('cpu', non_blocking=True), an event
# is recorded after the copy, and `event.wait()` is taken to wait for it
# before the host's index_put into the CPU state. Event.wait() makes the
# current stream wait (cudaStreamWaitEvent); the host goes on at once and
# reads the pinned buffer the DMA has not written yet.
import torch

import harness

ROWS = 1 << 12
DIM = 256


def update(state_mem, state_idx, update_mem):
    update_mem_dst = update_mem.to(torch.device("cpu"), non_blocking=True)
    update_event = torch.cuda.Event()
    update_event.record()
    update_event.wait()  # the current stream waits; the host does not
    state_mem[state_idx] = update_mem_dst  # EXPECT: streamsafe-host-read-before-sync


STATE = torch.zeros(ROWS, DIM)
INDEX = torch.arange(ROWS)


def body(v):
    # The optimizer's math, still running on the current stream.
    torch.cuda._sleep(harness.spin())
    new_rows = torch.full((ROWS, DIM), v, device="cuda")
    update(STATE, INDEX, new_rows)
    return harness.differs_value(STATE[-1, -1], v)


harness.run("dgl_event_wait_host_read", "bug", body)
