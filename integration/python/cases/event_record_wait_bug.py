# Seed §1.1, event record/wait, with the event recorded too early: it marks
# s1's progress before B is computed, so s2's wait does not cover B.
import torch

import harness


def chain(v):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    event = torch.cuda.Event()
    event.record(s1)  # too early: before the work on s1
    with torch.cuda.stream(s1):
        torch.cuda._sleep(harness.spin())  # s1 is busy with earlier work
        A = torch.full((harness.N,), v, device="cuda")
        B = A * 2
    s2.wait_event(event)
    with torch.cuda.stream(s2):
        C = B + 1  # EXPECT: streamsafe-unsynchronized-access
    B.record_stream(s2)
    torch.cuda.current_stream().wait_stream(s2)
    return C


harness.run("event_record_wait", "bug", lambda v: harness.differs(chain(v), 2 * v + 1))
