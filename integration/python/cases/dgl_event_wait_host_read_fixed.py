# The fix of dgl_event_wait_host_read_bug: the host synchronizes the event
# recorded after the non_blocking copy (event.synchronize(), not
# event.wait()) before it reads the pinned buffer.
import torch

import harness

ROWS = 1 << 12
DIM = 256


def update(state_mem, state_idx, update_mem):
    update_mem_dst = update_mem.to(torch.device("cpu"), non_blocking=True)
    update_event = torch.cuda.Event()
    update_event.record()
    update_event.synchronize()  # the host waits for the copy
    state_mem[state_idx] = update_mem_dst


STATE = torch.zeros(ROWS, DIM)
INDEX = torch.arange(ROWS)


def body(v):
    # The optimizer's math, still running on the current stream.
    torch.cuda._sleep(harness.spin())
    new_rows = torch.full((ROWS, DIM), v, device="cuda")
    update(STATE, INDEX, new_rows)
    return harness.differs_value(STATE[-1, -1], v)


harness.run("dgl_event_wait_host_read", "fixed", body)
