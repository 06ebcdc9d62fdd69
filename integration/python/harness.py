"""Shared harness of the Python twins (docs/integration.md, "Python twins").

Each case calls harness.run() with a body that does the stream work once and
returns True when the result is wrong. run() warms up, runs the body N times
and prints one JSON line:
  {"case": ..., "variant": ..., "runs": N, "wrong": K, "csan_errors": E, "seconds": T}

As in integration/harness.h: torch.cuda._sleep(spin()) keeps the producing
(or reading) stream busy for 1e8 cycles (~50 ms on an H200), so the
unsynchronized consumer, enqueued microseconds later, runs first every time;
every call gets a new value V so stale data never looks right; 33 uncounted
warm-up calls with a short spin fill the caching allocator for every pool
stream and the pinned host cache first.

Under PyTorch's CUDA Sanitizer (TORCH_CUDA_SANITIZER=1) a detected race raises
CUDASanitizerErrors from the racing op; the harness counts it (csan_errors)
and goes on with the next call, so the wall time stays comparable.
"""
import json
import os
import sys
import time

import torch

N = 1 << 20  # elements per tensor (4 MiB of floats)
_cycles = [1000]


def spin():
    return _cycles[0]


def differs(t, want):
    """Waits for the device, then checks every element of t against want."""
    torch.cuda.synchronize()
    return not bool((t == want).all())


def differs_value(got, want):
    return abs(float(got) - want) > 1e-3 * abs(want) + 1e-6


def single_rank_group():
    """A one-process NCCL process group (world size 1) on this GPU: its
    collectives run on the group's internal stream as with more ranks.
    NVLink multicast stays off (the device tool's rule)."""
    import torch.distributed as dist
    for k, v in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                 ("NVSHMEM_DISABLE_NVLS", "1")):
        os.environ.setdefault(k, v)
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)


def run(case, variant, body):
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("STREAMSAFE_RUNS", 20))
    warm = int(os.environ.get("STREAMSAFE_WARMUP", 33))
    cycles = int(os.environ.get("STREAMSAFE_SPIN", 100_000_000))
    csan = [0]
    value = [0.0]

    def once():
        value[0] += 1
        bad = False
        # Every call starts on the default stream, whatever a buggy case leaked.
        with torch.cuda.stream(torch.cuda.default_stream()):
            try:
                bad = body(value[0])
            except Exception as e:  # CSAN's report
                if type(e).__name__ != "CUDASanitizerErrors":
                    raise
                csan[0] += 1
                bad = None
        torch.cuda.synchronize()
        return bad

    _cycles[0] = 1000
    for _ in range(warm):
        once()
    csan[0] = 0
    _cycles[0] = cycles
    wrong = 0
    start = time.perf_counter()
    for _ in range(runs):
        wrong += 1 if once() else 0
    seconds = time.perf_counter() - start
    print(json.dumps({"case": case, "variant": variant, "runs": runs, "wrong": wrong,
                      "csan_errors": csan[0], "seconds": round(seconds, 3),
                      "sanitizer": "TORCH_CUDA_SANITIZER" in os.environ,
                      "detail": "spin %d cycles" % cycles}), flush=True)
    return 0
