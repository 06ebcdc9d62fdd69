# RUN: %check_streamsafe_py %s

# The seed's subtle case, as written: a fresh allocation written on a side
# stream still needs the wait (its memory may be reused from a tensor the
# default stream still uses). Right: silent.
import torch

cuda = torch.device('cuda')
s = torch.cuda.Stream()
A = torch.empty((100, 100), device=cuda)
s.wait_stream(torch.cuda.default_stream(cuda))  # still needed!
with torch.cuda.stream(s):
    A.normal_(0.0, 1.0)  # A written on s
    A.record_stream(s)    # the allocator is told A is used on s
