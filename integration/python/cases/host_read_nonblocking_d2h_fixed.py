# The fix: wait for the current stream (the copy's) before reading the host copy.
import torch

import harness


def copy_to_host_and_read(v):
    torch.cuda._sleep(harness.spin())  # earlier work still runs on the current stream
    a = torch.full((harness.N,), v, device="cuda")
    h = a.to("cpu", non_blocking=True)
    torch.cuda.current_stream().synchronize()
    return h.numpy()[-1]


harness.run("host_read_nonblocking_d2h", "fixed",
            lambda v: harness.differs_value(copy_to_host_and_read(v), v))
