# Side-stream mistakes, the Python twin of side_stream.cpp: a tensor made on
# the current stream is read on a pool stream without a wait, and dies
# without record_stream; the result is cloned back on the current stream
# while the side stream may still be computing it.
#
#   streamsafe-py examples/side_stream.py
import torch


def side_sum(like: torch.Tensor) -> torch.Tensor:
    side = torch.cuda.Stream()
    # Allocated and filled on the current stream.
    a = torch.empty(100, 100, device=like.device).normal_(0.0, 1.0)
    with torch.cuda.stream(side):
        # Missing: side.wait_stream(torch.cuda.current_stream()) — sum() may
        # read a before normal_() has written it.
        b = torch.sum(a)
    # Missing: torch.cuda.current_stream().wait_stream(side) — clone() may
    # copy b before sum() has produced it.
    return b.clone()
    # `a` dies at the return without a.record_stream(side): the allocator
    # may hand its memory out again while `side` still reads it.
