# The Python rendering of Inputs/left-for-caller.cpp (cross-language.test):
# a write into the caller's tensor left in flight at the return, on a
# stream the caller cannot wait for (docs/checks/unsynchronized-access.md).
import torch


def upload(dst: torch.Tensor, src: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)


def upload_synced(dst: torch.Tensor, src: torch.Tensor):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)
    s.synchronize()


def upload_on(dst: torch.Tensor, src: torch.Tensor, s: torch.cuda.Stream):
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dst.copy_(src, non_blocking=True)
