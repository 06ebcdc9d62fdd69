# The Python rendering of Inputs/same-program.cpp (cross-language.test).
import threading
import torch


def side_stream_without_wait(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        z = y * 2
    return z


def wait_on_unrecorded_event():
    s = torch.cuda.Stream()
    e = torch.cuda.Event()
    s.wait_event(e)


def clone_without_wait(x: torch.Tensor):
    s = torch.cuda.Stream()
    ready = torch.cuda.Event()
    ready.record()
    ready.wait(s)
    with torch.cuda.stream(s):
        b = x.mm(x)
    c = b.clone()
    x.record_stream(s)
    b.record_stream(torch.cuda.current_stream())
    return c


def host_read_before_sync(d: torch.Tensor):
    h = d.to("cpu", non_blocking=True)
    return h.item()


def thread_on_default_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(100, device="cuda")

        def work():
            t.add_(1)

        th = threading.Thread(target=work)
        th.join()
