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
import traceback

import torch

N = 1 << 20  # elements per tensor (4 MiB of floats)
# Tensors of the two-rank cases: 64 MiB, well over NCCL's 4 MiB staging
# buffer, so a send cannot finish before its receiver is there.
RANK_N = 1 << 24
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


def run_on_two_ranks(case, variant, body):
    """Runs body(rank, v) on two processes, one per GPU, in one NCCL process
    group (docs/integration.md, "Two ranks"); rank 0 prints run()'s JSON
    line, and a run counts as wrong when either rank saw a wrong result.
    The processes are forked before CUDA starts (a forked child cannot use
    its parent's CUDA context). With fewer than two GPUs it prints an
    "error" line saying so. Returns the worse exit status of the two."""
    import torch.distributed as dist
    for k, v in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                 ("NVSHMEM_DISABLE_NVLS", "1")):
        os.environ.setdefault(k, v)
    path = "/tmp/streamsafe-ranks-store-%d" % os.getpid()
    if os.path.exists(path):
        os.unlink(path)
    sys.stdout.flush()
    children = []
    for rank in range(2):
        pid = os.fork()
        if pid:
            children.append(pid)
            continue
        code = 1
        try:
            if rank:
                sys.stdout = open(os.devnull, "w")
            found = torch.cuda.device_count()
            if found < 2:
                if rank == 0:
                    print(json.dumps({"case": case, "variant": variant,
                                      "error": "needs 2 CUDA devices, found %d" % found}),
                          flush=True)
                code = 0
            else:
                torch.cuda.set_device(rank)
                dist.init_process_group("nccl", store=dist.FileStore(path, 2), rank=rank,
                                        world_size=2)

                def agreed(v):
                    # Both ranks reach the all-reduce, even when CSAN raised
                    # on one of them, so that neither waits for the other.
                    error, bad = None, False
                    try:
                        bad = body(rank, v)
                    except Exception as e:
                        error = e
                    flag = torch.tensor([1.0 if bad else 0.0], device="cuda")
                    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
                    if error is not None:
                        raise error
                    return bool(flag.item())

                code = run(case, variant, agreed)
                sys.stdout.flush()
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)  # no teardown: every collective has been waited for
    # A rank that fails leaves its peer waiting in a collective for ever:
    # both are killed after $STREAMSAFE_RANKS_TIMEOUT_S seconds (default 300).
    deadline = time.monotonic() + int(os.environ.get("STREAMSAFE_RANKS_TIMEOUT_S", 300))
    worst, left, killed = 0, set(children), False
    while left:
        for pid in list(left):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                left.discard(pid)
                rc = os.waitstatus_to_exitcode(status)
                worst = max(worst, rc if rc >= 0 else 128 - rc)
        if left and not killed and time.monotonic() > deadline:
            for pid in left:
                os.kill(pid, 9)
            print(json.dumps({"case": case, "variant": variant,
                              "error": "a rank did not finish in time"}), flush=True)
            killed = True
        if left:
            time.sleep(0.1)
    if os.path.exists(path):
        os.unlink(path)
    return 124 if killed else worst
