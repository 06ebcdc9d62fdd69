# RUN: %check_streamsafe_py %s

# The seed's §1.2 two-step fix, as written: s waits for the default stream,
# then A is recorded on s. Right: silent.
import torch

cuda = torch.device('cuda')
s = torch.cuda.Stream()

# 1. A is made and initialised on the default stream
A = torch.empty((100, 100), device=cuda).normal_(0.0, 1.0)

# 2. s waits for the default stream: normal_() before sum()
s.wait_stream(torch.cuda.default_stream(cuda))

# 3. A is used on s
with torch.cuda.stream(s):
    B = torch.sum(A)

# 4. the allocator is told A is used on s
A.record_stream(s)
