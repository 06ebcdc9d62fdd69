# RUN: %check_streamsafe_py %s

# Counter loops (docs/python.md, "Loops that alternate streams"): the body of
# a loop whose counter steps by one is lowered once per parity, so
# `streams[i % 2]` and `streams[(i - 1) % 2]` name the streams they name;
# the elements a loop indexes by its counter plus a constant shift by one
# each iteration (what `lse[i]` held is `lse[i - 1]` in the next); tests of
# the counter against constants are decided in the first iterations, lowered
# one by one, and `i < n` of `range(n + 1)` fails in the last one only.
import torch


# Wrong (TransformerEngine's context-parallel attention, reduced): step i
# runs on streams[i % 2], the side stream when i is odd; its result is
# transposed in the next iteration on the current stream, before the `with`
# of streams[(i - 1) % 2], so nothing orders it after the odd steps. The
# corrections are chained by an event from one stream to the other.
def attention_steps(x: torch.Tensor, n):
    side = torch.cuda.Stream()
    streams = [torch.cuda.current_stream(), side]
    lse = [None for _ in range(n)]
    done = torch.cuda.Event()
    out = torch.zeros_like(x)
    side.wait_stream(torch.cuda.current_stream())
    for i in range(n + 1):
        if i < n:
            with torch.cuda.stream(streams[i % 2]):
                lse[i] = x * 2
        if i > 0:
            if i > 1:
                streams[(i - 1) % 2].wait_event(done)
            # (squeeze_ changes the sizes only: no kernel reads or writes.)
            lse[i - 1].squeeze_(-1)
            lse[i - 1] = lse[i - 1].transpose(0, 1).contiguous()
            # CHECK-NOTES: :[[@LINE-1]]:26: warning: tensor 'lse' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-8]]:31: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
            # CHECK-NOTES: :[[@LINE-9]]:26: note: 'lse' is written on pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-11]]:18: note: the current stream was set to pool stream 'side' here
            with torch.cuda.stream(streams[(i - 1) % 2]):
                out.add_(lse[i - 1])
            if i < n:
                streams[(i - 1) % 2].record_event(done)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Right (the fix): the transpose runs inside the `with` of the stream that
# wrote the element.
def attention_steps_fixed(x: torch.Tensor, n):
    side = torch.cuda.Stream()
    streams = [torch.cuda.current_stream(), side]
    lse = [None for _ in range(n)]
    done = torch.cuda.Event()
    out = torch.zeros_like(x)
    side.wait_stream(torch.cuda.current_stream())
    for i in range(n + 1):
        if i < n:
            with torch.cuda.stream(streams[i % 2]):
                lse[i] = x * 2
        if i > 0:
            if i > 1:
                streams[(i - 1) % 2].wait_event(done)
            with torch.cuda.stream(streams[(i - 1) % 2]):
                lse[i - 1] = lse[i - 1].transpose(0, 1).contiguous()
                out.add_(lse[i - 1])
            if i < n:
                streams[(i - 1) % 2].record_event(done)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Wrong: the corrections alternate streams with nothing between them, so
# one stream's add may run while the other's is still running.
def accumulate_unchained(x: torch.Tensor, n, start):
    side = torch.cuda.Stream()
    streams = [torch.cuda.current_stream(), side]
    out = torch.zeros_like(x)
    side.wait_stream(torch.cuda.current_stream())
    for i in range(start, n):
        with torch.cuda.stream(streams[i % 2]):
            out.add_(x)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'out' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-3]]:14: note: the current stream is set to pool stream 'side' here
            # CHECK-NOTES: :[[@LINE-3]]:13: note: 'out' is written on the caller's current stream here
            # CHECK-NOTES: :[[@LINE-5]]:14: note: the current stream was set to the caller's current stream here
    torch.cuda.current_stream().wait_stream(side)
    return out


# Right: each step waits for the stream of the step before it.
def accumulate_chained(x: torch.Tensor, n, start):
    side = torch.cuda.Stream()
    streams = [torch.cuda.current_stream(), side]
    out = torch.zeros_like(x)
    for i in range(start, n):
        streams[i % 2].wait_stream(streams[(i + 1) % 2])
        with torch.cuda.stream(streams[i % 2]):
            out.add_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out


# Wrong: the next buffer is loaded on the side stream while the current
# one is used on the current stream, which never waits for the load.
def prefetch(batches, model, n):
    side = torch.cuda.Stream()
    bufs = [None for _ in range(n + 1)]
    bufs[0] = batches[0].cuda()
    for i in range(n):
        with torch.cuda.stream(side):
            bufs[i + 1] = torch.empty(1024, device="cuda")
        model(bufs[i].sum())
        # CHECK-NOTES: :[[@LINE-1]]:15: warning: tensor 'bufs' is read on the caller's current stream while its allocation on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:59: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
        # CHECK-NOTES: :[[@LINE-4]]:27: note: 'bufs' is allocated on pool stream 'side' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: the current stream was set to pool stream 'side' here


# Right: the current stream waits for the load before the use.
def prefetch_waited(batches, model, n):
    side = torch.cuda.Stream()
    bufs = [None for _ in range(n + 1)]
    bufs[0] = batches[0].cuda()
    for i in range(n):
        with torch.cuda.stream(side):
            bufs[i + 1] = torch.empty(1024, device="cuda")
        torch.cuda.current_stream().wait_stream(side)
        model(bufs[i].sum())


# Right (TransformerEngine's context-parallel max_logit, reduced): a value
# carried from one step to the next under a flag, rebound on alternating
# streams, ordered by the event chain: no access races. The value the
# current stream made is read and let go on 'side', but the current stream
# waits for 'side' (the chain's event, or after the loop) before it
# allocates again, so the free is harmless
# (docs/checks/missing-record-stream.md, "When a free is judged").
def max_logit_chained(q: torch.Tensor, n, side, fused, ret):
    streams = [torch.cuda.current_stream(), side]
    done = torch.cuda.Event()
    mx = [None for _ in range(n)]
    max_logit = None
    for i in range(n + 1):
        if i < n:
            with torch.cuda.stream(streams[i % 2]):
                if fused:
                    mx[i] = q * 2
                else:
                    mx[i] = q * 3
        if i > 0:
            if i > 1:
                streams[(i - 1) % 2].wait_event(done)
            with torch.cuda.stream(streams[(i - 1) % 2]):
                if ret:
                    if i == 1:
                        max_logit = torch.clone(mx[0])
                    else:
                        max_logit = torch.maximum(max_logit, mx[i - 1])
            if i < n:
                streams[(i - 1) % 2].record_event(done)
    torch.cuda.current_stream().wait_stream(side)
    return max_logit
