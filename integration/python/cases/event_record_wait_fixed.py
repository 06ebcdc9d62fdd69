# Seed §1.1, event record/wait, as written: the event is recorded on s1
# after B is computed, and s2 waits for it.
import torch

import harness


def chain(v):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    event = torch.cuda.Event()
    with torch.cuda.stream(s1):
        torch.cuda._sleep(harness.spin())  # s1 is busy with earlier work
        A = torch.full((harness.N,), v, device="cuda")
        B = A * 2
    event.record(s1)
    s2.wait_event(event)
    with torch.cuda.stream(s2):
        C = B + 1
    B.record_stream(s2)
    torch.cuda.current_stream().wait_stream(s2)
    return C


harness.run("event_record_wait", "fixed", lambda v: harness.differs(chain(v), 2 * v + 1))
