# A non_blocking copy to the host returns pinned memory at once; the copy runs
# later on the current stream. Reading it before a sync sees stale data.
import torch

import harness


def copy_to_host_and_read(v):
    torch.cuda._sleep(harness.spin())  # earlier work still runs on the current stream
    a = torch.full((harness.N,), v, device="cuda")
    h = a.to("cpu", non_blocking=True)
    return h.numpy()[-1]  # EXPECT: streamsafe-host-read-before-sync


harness.run("host_read_nonblocking_d2h", "bug",
            lambda v: harness.differs_value(copy_to_host_and_read(v), v))
