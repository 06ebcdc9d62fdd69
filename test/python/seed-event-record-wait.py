# RUN: %check_streamsafe_py %s

# The seed's §1.1, as written (module level): B is made on s1; an event
# recorded on s1, waited on by s2, orders its use on s2. Right: silent.
import torch

s1 = torch.cuda.Stream()  # Stream A
s2 = torch.cuda.Stream()  # Stream B

# work on stream A
with torch.cuda.stream(s1):
    A = torch.randn(100, 100, device="cuda")
    B = A @ A

# record the event on s1
event = torch.cuda.Event()
event.record(s1)

# stream B waits for the event (for everything s1 did before it)
s2.wait_event(event)
with torch.cuda.stream(s2):
    C = B @ B  # B is certainly computed here
