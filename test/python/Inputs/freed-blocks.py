# The Python rendering of Inputs/freed-blocks.cpp (cross-language.test): a
# freed block is judged at the next allocation on its stream, or at the
# exit (TensorState::Freed, docs/checks/missing-record-stream.md).
import torch


def waits_too_late(x: torch.Tensor):
    side = torch.cuda.Stream()
    done = torch.cuda.Event()
    tmp = x + 1
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        tmp.mul_(2)
        done.record()
    del tmp
    out = torch.empty_like(x)
    torch.cuda.current_stream().wait_event(done)
    return out


def waits_first(x: torch.Tensor):
    side = torch.cuda.Stream()
    done = torch.cuda.Event()
    tmp = x + 1
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        tmp.mul_(2)
        done.record()
    del tmp
    torch.cuda.current_stream().wait_event(done)
    return torch.empty_like(x)
