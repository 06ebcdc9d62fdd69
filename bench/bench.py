#!/usr/bin/env python3
"""The StreamSafe benchmark: what the streamsafe-* checks cost on top of the
parse that clang-tidy does anyway, how the analysis scales with function
size, and whole-project throughput. Method and results: docs/performance.md.
Run it through bench/run.sh.

Every figure is measured from outside on the finished process (wall clock,
user + system CPU and peak RSS from wait4(2), the numbers /usr/bin/time -v
prints) or read from clang-tidy's own per-check profile
(--enable-check-profile --store-check-profile). Comparisons run side by side
in one loop (A B A B ...) and are reported as the median of the pair-by-pair
ratios with min and max. Nothing here judges timing by its exit status: the
exit status is 1 only when a run cannot be made (the driver is missing, a
file does not parse, a check is not loaded).
"""

import argparse
import datetime
import glob
import hashlib
import json
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_scaling  # noqa: E402
import gen_tus  # noqa: E402

OURS = "-*,streamsafe-*"
# The checks built on the shared dataflow engine (one analysis per function,
# whichever of them asks first pays for it in the profile): every
# streamsafe-* check the driver lists except the AST-only ones. Filled in at
# start-up from --list-checks; these two must be there.
ENGINE_CHECKS = ("streamsafe-unsynchronized-access",
                 "streamsafe-missing-record-stream")
AST_CHECKS = ("streamsafe-default-stream-launch",)
PEERS = ("bugprone-use-after-move", "bugprone-unchecked-optional-access")
# A check that makes clang-tidy build the AST and walk it with a matcher
# (callExpr to setjmp/longjmp) but finds nothing in LibTorch code: the
# "parse only" baseline. The first one the driver knows is used.
BASELINE_CANDIDATES = ("modernize-avoid-setjmp-longjmp", "cert-err52-cpp")
SKIP_MESSAGE = "streamsafe: skipped '"


class BenchError(Exception):
    pass


# ---------------------------------------------------------------------------
# Running and measuring one process
# ---------------------------------------------------------------------------

def measure(argv, timeout=None, cwd=None):
    """Runs argv once; returns wall/user/sys/cpu seconds, peak RSS (KiB),
    exit code, whether it was killed at the timeout, and its stderr."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    result = {}

    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                            stderr=err, cwd=cwd, start_new_session=True)

    def reap():
        _, status, usage = os.wait4(proc.pid, 0)
        result["end"] = time.monotonic()
        result["status"] = status
        result["usage"] = usage

    waiter = threading.Thread(target=reap, daemon=True)
    waiter.start()
    waiter.join(timeout)
    timed_out = waiter.is_alive()
    if timed_out:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        waiter.join()
    proc.returncode = os.waitstatus_to_exitcode(result["status"])
    usage = result["usage"]
    err.seek(0)
    stderr = err.read().decode("utf-8", "replace")
    out.seek(0)
    stdout = out.read().decode("utf-8", "replace")
    out.close()
    err.close()
    return {
        "wall": result["end"] - start,
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_kib": usage.ru_maxrss,
        "rc": proc.returncode,
        "timed_out": timed_out,
        "stderr": stderr,
        "stdout": stdout,
    }


class Driver:
    """The streamsafe driver with the LibTorch flags of cmake/LibTorchFlags.cmake."""

    def __init__(self, path, torch_api_include, cuda_home, timeout, pch=None):
        self.path = path
        self.pch = pch
        self.timeout = timeout
        self.flags = ["-std=c++17", "-isystem", torch_api_include,
                      "-isystem", os.path.join(ROOT, "test", "shim"),
                      "-isystem", os.path.join(cuda_home, "include")]
        self.cuda_flags = ["-x", "cuda", "--cuda-host-only",
                           "--cuda-path=" + cuda_home,
                           "-I" + os.path.join(cuda_home, "include", "cccl"),
                           "-Wno-unknown-cuda-version"]
        self.profile_dir = tempfile.mkdtemp(prefix="streamsafe-bench-prof-")

    def compile_flags(self, source):
        flags = list(self.flags)
        if source.endswith(".cu"):
            flags += self.cuda_flags
        elif self.pch:
            # The headers' include guards make the file's own #includes of
            # LibTorch no-ops (as in the lit tests).
            flags += ["-include-pch", self.pch]
        return flags

    def argv(self, checks, source, profile=False, config="{}"):
        argv = [self.path, "--checks=" + checks, "--config=" + config,
                "--quiet"]
        if profile:
            argv += ["--enable-check-profile",
                     "--store-check-profile=" + self.profile_dir]
        return argv + [source, "--"] + self.compile_flags(source)

    def run(self, checks, source, profile=False, timeout=None, config="{}"):
        for stale in glob.glob(os.path.join(self.profile_dir, "*.json")):
            os.unlink(stale)
        r = measure(self.argv(checks, source, profile, config),
                    timeout=timeout or self.timeout)
        r["file"] = source
        r["checks"] = checks
        r["skipped_functions"] = [
            line for line in r["stderr"].splitlines()
            if line.startswith(SKIP_MESSAGE)]
        r["profile"] = self._read_profile() if profile else None
        if not r["timed_out"] and (r["rc"] != 0 or "error:" in r["stderr"]):
            tail = "\n".join(r["stderr"].splitlines()[-15:])
            raise BenchError(f"{os.path.basename(source)} with --checks={checks} "
                             f"failed (exit {r['rc']}):\n{tail}")
        return r

    def _read_profile(self):
        files = glob.glob(os.path.join(self.profile_dir, "*.json"))
        checks = {}
        for path in files:
            with open(path) as f:
                data = json.load(f).get("profile", {})
            for key, value in data.items():
                m = re.match(r"time\.clang-tidy\.(.+)\.(wall|user|sys)$", key)
                if m:
                    checks.setdefault(m.group(1), {})[m.group(2)] = value
            os.unlink(path)
        for c in checks.values():
            c["cpu"] = c.get("user", 0.0) + c.get("sys", 0.0)
        return checks

    def list_checks(self, pattern):
        r = subprocess.run([self.path, "--list-checks", "--checks=" + pattern],
                           capture_output=True, text=True)
        return [l.strip() for l in r.stdout.splitlines()
                if l.startswith("    ")]

    def cleanup(self):
        shutil.rmtree(self.profile_dir, ignore_errors=True)


def strip(run):
    """A run as stored in the JSON (without its output)."""
    keep = ("wall", "user", "sys", "cpu", "rss_kib", "rc", "timed_out")
    d = {k: (round(run[k], 4) if isinstance(run[k], float) else run[k])
         for k in keep}
    if run.get("profile"):
        d["profile"] = {c: {k: round(v, 5) for k, v in t.items()}
                        for c, t in sorted(run["profile"].items())}
    if run.get("skipped_functions"):
        d["skipped_functions"] = run["skipped_functions"]
    return d


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values)}


def check_time(profile, names):
    """Sum of the user+system seconds of the named checks in a profile."""
    if not profile:
        return None
    return sum(profile.get(n, {}).get("cpu", 0.0) for n in names)


def loglog_slope(points):
    """Least-squares slope of log(t) over log(n); points: [(n, t)]."""
    pts = [(math.log(n), math.log(t)) for n, t in points if n > 0 and t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def fmt_s(v, digits=3):
    if v is None:
        return "-"
    return f"{v:.{digits}f}"


def fmt_spread(s, digits=2, scale=1.0, suffix=""):
    if not s:
        return "-"
    return (f"{s['median'] * scale:.{digits}f}{suffix} "
            f"[{s['min'] * scale:.{digits}f}..{s['max'] * scale:.{digits}f}]")


def fmt_pct(ratio_spread):
    if not ratio_spread:
        return "-"
    m, lo, hi = (100 * (ratio_spread[k] - 1) for k in ("median", "min", "max"))
    return f"{m:+.1f}% [{lo:+.1f}..{hi:+.1f}]"


def fmt_frac(s):
    """A fraction (0.012) as a percentage with its spread."""
    if not s:
        return "-"
    return (f"{100 * s['median']:.2f}% "
            f"[{100 * s['min']:.2f}..{100 * s['max']:.2f}]")


def table(title, header, rows, log):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    log(f"\n{title}")
    line = "  ".join(str(h).ljust(w) for h, w in zip(header, widths))
    log(line)
    log("-" * len(line))
    for r in rows:
        log("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


# ---------------------------------------------------------------------------
# The sections
# ---------------------------------------------------------------------------

def paired(driver, source, checks_a, checks_b, rounds, log, profile=True):
    """A B A B ...: both configurations of one file, pair by pair."""
    runs_a, runs_b = [], []
    for i in range(rounds):
        runs_a.append(driver.run(checks_a, source, profile=profile))
        runs_b.append(driver.run(checks_b, source, profile=profile))
        log(f"    pair {i + 1}/{rounds}: A {runs_a[-1]['cpu']:.2f}s "
            f"B {runs_b[-1]['cpu']:.2f}s cpu")
    res = {"file": os.path.relpath(source, ROOT) if source.startswith(ROOT)
           else os.path.basename(source)}
    for metric in ("cpu", "wall"):
        res[metric + "_a"] = spread([r[metric] for r in runs_a])
        res[metric + "_b"] = spread([r[metric] for r in runs_b])
        res[metric + "_ratio"] = spread(
            [a[metric] / b[metric] for a, b in zip(runs_a, runs_b)])
    res["rss_kib_a"] = spread([r["rss_kib"] for r in runs_a])
    res["rss_kib_b"] = spread([r["rss_kib"] for r in runs_b])
    # clang-tidy's own account of our checks, per run of A.
    per_check = {}
    for r in runs_a:
        for name, t in (r["profile"] or {}).items():
            per_check.setdefault(name, []).append(t["cpu"])
    res["check_cpu_a"] = {n: spread(v) for n, v in sorted(per_check.items())}
    res["dataflow_cpu"] = spread([check_time(r["profile"], ENGINE_CHECKS)
                                  for r in runs_a])
    ours = [check_time(r["profile"], ENGINE_CHECKS + AST_CHECKS)
            for r in runs_a]
    res["streamsafe_cpu"] = spread(ours)
    # Profile-based overhead: our checks' CPU over the baseline run's CPU.
    res["profile_overhead"] = spread(
        [o / b["cpu"] for o, b in zip(ours, runs_b) if o is not None])
    res["skipped_functions"] = sorted(
        {s for r in runs_a for s in r["skipped_functions"]})
    res["runs_a"] = [strip(r) for r in runs_a]
    res["runs_b"] = [strip(r) for r in runs_b]
    return res


def peers_run(driver, source):
    checks = "-*," + ",".join(PEERS + ENGINE_CHECKS + AST_CHECKS)
    r = driver.run(checks, source, profile=True)
    return {name: round(t["cpu"], 5) for name, t in sorted(r["profile"].items())}


def section_overhead(cfg, driver, sources, log):
    log("\n[1] overhead on realistic translation units "
        f"(A = --checks={OURS}, B = --checks=-*,{cfg['baseline']}; "
        f"{cfg['rounds']} pairs each)")
    results = []
    for src in sources:
        log(f"  {os.path.basename(src)}")
        res = paired(driver, src, OURS, "-*," + cfg["baseline"],
                     cfg["rounds"], log)
        if cfg["peers"]:
            res["peers_profile_cpu"] = peers_run(driver, src)
        results.append(res)
    return results


def section_nostream(cfg, driver, source, log):
    log(f"\n[3] no-stream translation unit ({os.path.basename(source)}, "
        f"{cfg['rounds']} pairs)")
    res = paired(driver, source, OURS, "-*," + cfg["baseline"],
                 cfg["rounds"], log)
    if cfg["peers"]:
        res["peers_profile_cpu"] = peers_run(driver, source)
    return res


def section_scaling(cfg, driver, work, log):
    log("\n[2] scaling: one function of N statements")
    rows = []
    for shape, sizes in cfg["scaling"]:
        for n in sizes:
            path = os.path.join(work, f"scaling_{shape}_{n}.cpp")
            text, count = gen_scaling.generate(n, shape)
            with open(path, "w") as f:
                f.write(gen_scaling.HEADER.format(args=f"{n} --shape={shape}")
                        + text)
            row = {"shape": shape, "n_target": n, "statements": count}
            log(f"  {shape} N={count}")
            a = driver.run(OURS, path, profile=True,
                           timeout=cfg["scaling_timeout"])
            row["a"] = strip(a)
            if a["timed_out"]:
                # Our checks together ran past the timeout: time the engine
                # alone so the two parts are still reported.
                log(f"    streamsafe-* killed after {cfg['scaling_timeout']} s; "
                    "timing the dataflow checks alone")
                row["default_stream_launch_timed_out"] = True
                e = driver.run("-*," + ",".join(ENGINE_CHECKS), path,
                               profile=True, timeout=cfg["scaling_timeout"])
                row["engine_only"] = strip(e)
                prof = e["profile"]
                row["engine_cpu"] = (None if e["timed_out"]
                                     else check_time(prof, ENGINE_CHECKS))
                row["ast_cpu"] = None
                row["streamsafe_cpu"] = None
                row["rss_kib"] = e["rss_kib"]
                row["skipped_functions"] = e["skipped_functions"]
            else:
                runs = [a]
                # Cheap sizes run again: the median resists a neighbour's
                # burst of load (CPU time, too, inflates on a busy machine).
                while (len(runs) < cfg["scaling_repeats"]
                       and a["cpu"] < cfg["scaling_repeat_below_s"]):
                    runs.append(driver.run(OURS, path, profile=True,
                                           timeout=cfg["scaling_timeout"]))
                row["more_a"] = [strip(r) for r in runs[1:]]
                eng = [check_time(r["profile"], ENGINE_CHECKS) for r in runs]
                ast = [check_time(r["profile"], AST_CHECKS) for r in runs]
                row["engine_cpu"] = statistics.median(eng)
                row["ast_cpu"] = statistics.median(ast)
                row["streamsafe_cpu"] = statistics.median(
                    [e + t for e, t in zip(eng, ast)])
                row["streamsafe_cpu_spread"] = spread(
                    [e + t for e, t in zip(eng, ast)])
                row["rss_kib"] = statistics.median([r["rss_kib"] for r in runs])
                row["skipped_functions"] = sorted(
                    {s for r in runs for s in r["skipped_functions"]})
            if cfg["scaling_baseline"]:
                b = driver.run("-*," + cfg["baseline"], path,
                               timeout=cfg["scaling_timeout"])
                row["b"] = strip(b)
                row["rss_kib_baseline"] = b["rss_kib"]
                row["rss_kib_delta"] = row["rss_kib"] - b["rss_kib"]
            log(f"    dataflow {fmt_s(row['engine_cpu'])} s, "
                f"default-stream-launch {fmt_s(row['ast_cpu'])} s, "
                f"peak RSS {row['rss_kib'] / 1024:.0f} MiB"
                + (f" (+{row['rss_kib_delta'] / 1024:.0f} MiB over parse only)"
                   if "rss_kib_delta" in row else "")
                + (f", BUDGET: {row['skipped_functions']}"
                   if row["skipped_functions"] else ""))
            rows.append(row)
    fits = {}
    for shape in {s for s, _ in cfg["scaling"]}:
        pts = [r for r in rows if r["shape"] == shape]
        fits[shape] = {
            key: loglog_slope([(r["statements"], r[key]) for r in pts
                               if r["statements"] >= cfg["fit_from"]])
            for key in ("engine_cpu", "ast_cpu", "streamsafe_cpu")}
        if cfg["scaling_baseline"]:
            fits[shape]["rss_delta"] = loglog_slope(
                [(r["statements"], max(r["rss_kib_delta"], 1)) for r in pts
                 if r["statements"] >= cfg["fit_from"]])
    # Where the per-function budget kicks in: the same functions under a
    # smaller VisitsPerBlock (a check option; the default is 64). The lowest
    # budget without the message is the number of visits per block the
    # function really needs.
    probes = []
    files = []
    for depth in cfg["nest_probe"]:
        path = os.path.join(work, f"scaling_nest_{depth}.cpp")
        text, count = gen_scaling.generate(0, "scoped", depth, True)
        with open(path, "w") as f:
            f.write(gen_scaling.HEADER.format(args=f"--loop-depth={depth}")
                    + text)
        files.append((f"loop nest of depth {depth}", path, count))
    for r in rows:
        if (r["shape"], r["n_target"]) in cfg["budget_probe_rows"]:
            files.append((f"{r['shape']} N={r['statements']}",
                          os.path.join(work, f"scaling_{r['shape']}_"
                                       f"{r['n_target']}.cpp"),
                          r["statements"]))
    for label, path, count in files:
        probe = {"file": label, "statements": count, "budgets": []}
        for vpb in [None] + cfg["budget_probe_visits"]:
            config = ("{}" if vpb is None else
                      "{CheckOptions: {VisitsPerBlock: '%d'}}" % vpb)
            r = driver.run(OURS, path, profile=True, config=config,
                           timeout=cfg["scaling_timeout"])
            probe["budgets"].append({
                "visits_per_block": vpb or 64,
                "dataflow_cpu": check_time(r["profile"], ENGINE_CHECKS),
                "skipped_functions": r["skipped_functions"],
                "run": strip(r)})
        probes.append(probe)
        log(f"  {label}: budget message at VisitsPerBlock " + ", ".join(
            f"{b['visits_per_block']}: {'yes' if b['skipped_functions'] else 'no'}"
            for b in probe["budgets"]))
    return {"rows": rows, "fits": fits, "budget_probes": probes}


def write_compdb(driver, sources, directory):
    entries = []
    for src in sources:
        args = ["clang++"] + driver.compile_flags(src) + ["-fsyntax-only", src]
        entries.append({"directory": os.path.dirname(src), "file": src,
                        "arguments": args})
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def section_project(cfg, driver, sources, work, log):
    ci = os.path.join(ROOT, "tools", "streamsafe-ci")
    db = os.path.join(work, "project")
    os.makedirs(db, exist_ok=True)
    write_compdb(driver, sources, db)
    res = {"files": [os.path.relpath(s, ROOT) if s.startswith(ROOT)
                     else os.path.basename(s) for s in sources], "runs": []}
    if os.path.exists(ci):
        res["mode"] = "tools/streamsafe-ci"
        log(f"\n[5] whole project: tools/streamsafe-ci over {len(sources)} "
            "translation units")
        for jobs in cfg["jobs"]:
            argv = [sys.executable, ci, "-p", db, "-j", str(jobs),
                    "--driver", driver.path, "--root", ROOT, "-f", "jsonl",
                    "-o", os.path.join(db, f"findings-j{jobs}.jsonl"),
                    "--progress", "never", "-q"]
            r = measure(argv)
            if r["rc"] not in (0, 1):
                raise BenchError("streamsafe-ci failed (exit %d):\n%s"
                                 % (r["rc"], r["stderr"][-2000:]))
            res["runs"].append(_project_row(jobs, len(sources), r))
            log(f"  -j {jobs}: {r['wall']:.1f} s wall, "
                f"{len(sources) / r['wall']:.2f} TU/s")
    else:
        res["mode"] = "xargs -P (tools/streamsafe-ci not found)"
        log(f"\n[5] whole project: xargs -P over {len(sources)} translation "
            "units (tools/streamsafe-ci not found)")
        listing = os.path.join(db, "files.txt")
        with open(listing, "w") as f:
            f.write("\n".join(sources) + "\n")
        for jobs in cfg["jobs"]:
            # One driver per file, flags from the compile database.
            r = measure(["xargs", "-a", listing, "-P", str(jobs), "-n", "1",
                         driver.path, "-p", db, "--checks=" + OURS,
                         "--quiet"])
            if r["rc"] != 0:
                raise BenchError("xargs -P %d over the driver failed (exit %d):\n%s"
                                 % (jobs, r["rc"], r["stderr"][-2000:]))
            res["runs"].append(_project_row(jobs, len(sources), r))
            log(f"  -P {jobs}: {r['wall']:.1f} s wall, "
                f"{len(sources) / r['wall']:.2f} TU/s")
    return res


def _project_row(jobs, count, r):
    return {"jobs": jobs, "tus": count, "wall": round(r["wall"], 3),
            "cpu": round(r["cpu"], 3), "tus_per_s": round(count / r["wall"], 4),
            "rc": r["rc"]}


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args),
                              capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def environment(driver):
    with open(driver.path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    version = subprocess.run([driver.path, "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()
    mem_gib = None
    try:
        with open("/proc/meminfo") as f:
            mem_gib = round(int(f.readline().split()[1]) / 2**20, 1)
    except OSError:
        pass
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "host": platform.node(), "cpus": os.cpu_count(), "mem_gib": mem_gib,
        "python": platform.python_version(),
        "load_avg_start": os.getloadavg(),
        "driver": getattr(driver, "origin", driver.path),
        "driver_sha256": digest,
        "driver_version": [v.strip() for v in version if v.strip()],
        "git_commit": git("rev-parse", "HEAD"),
        "git_dirty_tracked": bool(git("status", "--porcelain",
                                      "--untracked-files=no")),
        "flags": driver.flags, "cuda_flags": driver.cuda_flags,
        "pch": driver.pch,
    }


def main():
    p = argparse.ArgumentParser(
        description="StreamSafe benchmark (see docs/performance.md)")
    p.add_argument("--quick", action="store_true",
                   help="smoke test: one file per section, one pair, small N "
                        "(well under a minute); never fails on timing")
    p.add_argument("--driver", default=os.environ.get(
        "STREAMSAFE", os.path.join(ROOT, "build", "bin", "streamsafe")))
    p.add_argument("--json", help="where to write the results (default: "
                   "bench/results/<date>[-quick].json)")
    p.add_argument("--work", help="directory for generated sources "
                   "(default: a temporary directory, removed at the end)")
    p.add_argument("--rounds", type=int, help="A/B pairs per file "
                   "(default 3; --quick 1)")
    p.add_argument("--sections", default="1,2,3,4,5",
                   help="comma-separated subset of 1..5")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds before one run is killed (default 600)")
    p.add_argument("--scaling-timeout", type=float,
                   help="seconds before a scaling run is killed "
                        "(default 60; --quick 60)")
    p.add_argument("--pch", help="precompiled LibTorch headers for the .cpp "
                   "files (default with --quick: build/test/pch/libtorch-cxx.pch "
                   "when it exists; none otherwise)")
    p.add_argument("--no-pch", action="store_true",
                   help="parse the headers in every run, also with --quick")
    p.add_argument("--torch-include", default=os.environ.get(
        "STREAMSAFE_TORCH_API_INCLUDE", "/usr/include/torch/csrc/api/include"))
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME")
                   or "/usr/local/cuda")
    a = p.parse_args()

    sections = {int(s) for s in a.sections.split(",") if s.strip()}
    if not os.access(a.driver, os.X_OK):
        print(f"bench: no streamsafe driver at {a.driver} (build first, or "
              "pass --driver / set STREAMSAFE)", file=sys.stderr)
        return 1
    pch = a.pch
    if a.quick and not pch and not a.no_pch:
        default_pch = os.path.join(os.path.dirname(os.path.dirname(
            os.path.abspath(a.driver))), "test", "pch", "libtorch-cxx.pch")
        if os.path.exists(default_pch):
            pch = default_pch
    if a.no_pch:
        pch = None
    work = a.work or tempfile.mkdtemp(prefix="streamsafe-bench-")
    os.makedirs(work, exist_ok=True)
    # Run a private copy: a rebuild of build/bin/streamsafe during the run
    # (other people build on this machine) must not mix two binaries.
    snapshot = os.path.join(work, "streamsafe")
    shutil.copy2(os.path.abspath(a.driver), snapshot)
    driver = Driver(snapshot, a.torch_include, a.cuda_home, a.timeout, pch)
    driver.origin = os.path.abspath(a.driver)
    try:
        return run(a, sections, driver, work)
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    finally:
        driver.cleanup()
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)


def run(a, sections, driver, work):
    global ENGINE_CHECKS
    loaded = driver.list_checks(OURS)
    if not set(ENGINE_CHECKS + AST_CHECKS) <= set(loaded):
        print(f"bench: the driver does not list the streamsafe checks: "
              f"{loaded}", file=sys.stderr)
        return 1
    ENGINE_CHECKS = tuple(c for c in loaded if c not in AST_CHECKS)
    known = driver.list_checks("-*," + ",".join(BASELINE_CANDIDATES))
    baseline = next((c for c in BASELINE_CANDIDATES if c in known), None)
    if not baseline:
        print("bench: the driver knows none of the baseline checks "
              f"{BASELINE_CANDIDATES}", file=sys.stderr)
        return 1
    peers_known = set(driver.list_checks("-*," + ",".join(PEERS)))

    quick = a.quick
    cfg = {
        "quick": quick,
        "baseline": baseline,
        "rounds": a.rounds or (1 if quick else 3),
        "peers": not quick and set(PEERS) <= peers_known and 4 in sections,
        "scaling": ([("scoped", [100, 1000]), ("flat", [1000]),
                     ("unsynced", [1000])] if quick else
                    [("scoped", [100, 1000, 10000, 50000]),
                     ("flat", [1000, 3000, 10000, 50000]),
                     ("unsynced", [1000, 10000, 50000])]),
        "scaling_baseline": not quick,
        "scaling_repeats": 1 if quick else 3,
        "scaling_repeat_below_s": 10.0,
        "scaling_timeout": a.scaling_timeout or 60,
        "fit_from": 1000,
        "nest_probe": [] if quick else [128],
        "budget_probe_rows": [] if quick else [("scoped", 1000)],
        "budget_probe_visits": [1, 2, 4, 8],
        "jobs": [2] if quick else [1, 2],
    }

    lines = []

    def log(msg=""):
        print(msg, flush=True)
        lines.append(msg)

    def gen(kind, name, functions):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(gen_tus.generate(kind, functions))
        return path

    case = lambda name: os.path.join(ROOT, "integration", "cases", name)
    if quick:
        realistic = [case("missing_record_stream_bug.cpp")]
        nostream = gen("nostream", "nostream_ops.cpp", 60)
        project = [case("missing_record_stream_fixed.cpp"),
                   case("clone_after_side_compute_fixed.cpp")]
    else:
        realistic = [case("missing_record_stream_bug.cpp"),
                     os.path.join(ROOT, "test", "checkers",
                                  "unsynchronized-access-events.cpp"),
                     gen("extension", "extension_ops.cpp", 40),
                     gen("kernels", "extension_kernels.cu", 24)]
        nostream = gen("nostream", "nostream_ops.cpp", 400)
        project = [case(n) for n in (
            "clone_after_side_compute_fixed.cpp",
            "cross_thread_default_stream_fixed.cpp",
            "default_stream_launch_fixed.cu",
            "fresh_alloc_side_write_fixed.cpp",
            "missing_record_stream_fixed.cpp",
            "unrestored_current_stream_fixed.cpp")]
    for f in realistic + project:
        if not os.path.exists(f):
            print(f"bench: missing source {f}", file=sys.stderr)
            return 1

    env = environment(driver)
    cfg["dataflow_checks"] = list(ENGINE_CHECKS)
    cfg["ast_checks"] = list(AST_CHECKS)
    results = {"environment": env, "config": {
        k: v for k, v in cfg.items()}, "method": {
        "a": f"--checks={OURS}",
        "b": f"--checks=-*,{baseline} (parse + one AST matcher that finds "
             "nothing: the parse-only baseline)",
        "peers": list(PEERS),
        "timing": "wall clock and user+sys CPU of the whole process "
                  "(wait4), peak RSS (ru_maxrss, as /usr/bin/time -v)",
        "check_time": "clang-tidy --enable-check-profile "
                      "(--store-check-profile), user+sys per check",
        "ratios": "median of pair-by-pair A/B ratios, runs interleaved "
                  "A B A B",
    }}
    log(f"StreamSafe benchmark{' (quick)' if quick else ''}: "
        f"{env['date']}, {env['cpus']} CPUs, load {env['load_avg_start'][0]:.1f}")
    log(f"driver {driver.origin} ({env['driver_version'][-1] if env['driver_version'] else '?'}), "
        f"commit {(env['git_commit'] or '?')[:10]}"
        f"{' + local changes' if env['git_dirty_tracked'] else ''}")
    log(f"baseline B: --checks=-*,{baseline}")
    if driver.pch:
        log(f"LibTorch headers of the .cpp files from the PCH {driver.pch}: "
            "smoke-test figures, not comparable with a full run")
    t0 = time.monotonic()
    load = results["environment"]["load_avg_per_section"] = {}

    def mark(name):
        load[name] = round(os.getloadavg()[0], 2)

    if 1 in sections:
        results["overhead"] = section_overhead(cfg, driver, realistic, log)
        mark("overhead")
    if 2 in sections:
        results["scaling"] = section_scaling(cfg, driver, work, log)
        mark("scaling")
    if 3 in sections:
        results["nostream"] = section_nostream(cfg, driver, nostream, log)
        mark("nostream")
    if 5 in sections:
        results["project"] = section_project(cfg, driver, project, work, log)
        mark("project")
    results["environment"]["load_avg_end"] = os.getloadavg()
    results["environment"]["duration_s"] = round(time.monotonic() - t0, 1)

    path = a.json or os.path.join(
        HERE, "results",
        datetime.date.today().isoformat() + ("-quick" if quick else "") + ".json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def save():
        results["log"] = lines
        with open(path, "w") as f:
            json.dump(results, f, indent=1, default=_json_default)
            f.write("\n")

    save()  # the measurements survive a bug in the report below
    results["summary"] = report(results, cfg, log)
    save()
    print(f"\nresults: {os.path.relpath(path)} "
          f"({results['environment']['duration_s']:.0f} s)")
    return 0


def _json_default(o):
    if isinstance(o, (set, tuple)):
        return list(o)
    raise TypeError(type(o))


# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------

TARGETS = {
    "realistic_overhead": 0.05,
    "nostream_overhead": 0.01,
    "fn10k_s": 0.2,
    "fn50k_s": 1.0,
    "slope_max": 1.15,  # "linear", with room for noise and cache effects
}


def verdict(ok):
    return "met" if ok else "MISSED"


def report(results, cfg, log):
    summary = {"targets": TARGETS, "verdicts": {}}
    v = summary["verdicts"]
    names = {n: n.replace("streamsafe-", "").replace("bugprone-", "")
             for n in ENGINE_CHECKS + AST_CHECKS + PEERS}

    if "overhead" in results:
        rows = []
        worst = None
        for r in results["overhead"]:
            name = os.path.basename(r["file"])
            rows.append([name, fmt_spread(r["cpu_b"]), fmt_spread(r["cpu_a"]),
                         fmt_pct(r["cpu_ratio"]), fmt_pct(r["wall_ratio"]),
                         fmt_frac(r["profile_overhead"])])
            ratio = r["cpu_ratio"]["median"] - 1
            worst = ratio if worst is None else max(worst, ratio)
        table("[1] overhead: streamsafe-* (A) over parse-only (B); "
              "seconds median [min..max], overhead = A/B - 1",
              ["file", "B cpu s", "A cpu s", "cpu A/B", "wall A/B",
               "profile (ours/B)"], rows, log)
        rows = []
        for r in results["overhead"]:
            cells = [os.path.basename(r["file"]),
                     fmt_spread(r["dataflow_cpu"], 1, 1000)]
            for n in AST_CHECKS:
                cells.append(fmt_spread(r["check_cpu_a"].get(n), 1, 1000))
            for n in PEERS:
                t = r.get("peers_profile_cpu", {}).get(n)
                cells.append(f"{t * 1000:.1f}" if t is not None else "-")
            rows.append(cells)
        table("[1,4] per-check time from --enable-check-profile, user+sys ms "
              "(ours: median [min..max] over the A runs; dataflow = the "
              f"{len(ENGINE_CHECKS)} checks sharing one analysis; peers: one "
              "run with them and ours)",
              ["file", "dataflow", *(names[n] for n in AST_CHECKS),
               *(names[n] for n in PEERS)], rows, log)
        summary["realistic_worst_cpu_overhead"] = worst
        worst_profile = max(r["profile_overhead"]["median"]
                            for r in results["overhead"])
        summary["realistic_worst_profile_overhead"] = worst_profile
        v["realistic_overhead"] = verdict(
            worst <= TARGETS["realistic_overhead"]
            and worst_profile <= TARGETS["realistic_overhead"])

    if "scaling" in results:
        sc = results["scaling"]
        rows = []
        for r in sc["rows"]:
            rows.append([r["shape"], r["statements"],
                         fmt_s(r["engine_cpu"]), fmt_s(r["ast_cpu"]),
                         (fmt_s(r["streamsafe_cpu"]) + (
                             " [%s..%s]" % (fmt_s(r["streamsafe_cpu_spread"]["min"]),
                                            fmt_s(r["streamsafe_cpu_spread"]["max"]))
                             if r.get("streamsafe_cpu_spread", {}).get("n", 1) > 1
                             else ""))
                         if not r.get("default_stream_launch_timed_out")
                         else f"> {cfg['scaling_timeout']:.0f}",
                         f"{r['rss_kib'] / 1024:.0f}",
                         f"{r['rss_kib_delta'] / 1024:+.0f}"
                         if "rss_kib_delta" in r else "-",
                         "yes" if r["skipped_functions"] else "no"])
        table("[2] scaling: analysis time (user+sys s, --enable-check-profile; "
              "median of up to 3 runs [min..max]) and peak RSS per function size",
              ["shape", "statements", "dataflow",
               "default-stream-launch", "streamsafe-* total", "peak MiB",
               "MiB over parse", "budget msg"], rows, log)
        label = {"engine_cpu": "dataflow", "ast_cpu": "default-stream-launch",
                 "streamsafe_cpu": "total", "rss_delta": "RSS over parse"}
        for shape, fit in sorted(sc["fits"].items(), reverse=True):
            log(f"  log-log slope ({shape}, N >= {cfg['fit_from']}; 1 = linear): "
                + ", ".join(f"{label[k]} {fmt_s(s, 2)}" for k, s in fit.items()))
        for p in sc["budget_probes"]:
            seen = [b["visits_per_block"] for b in p["budgets"]
                    if b["skipped_functions"]]
            fine = [b["visits_per_block"] for b in p["budgets"]
                    if not b["skipped_functions"]]
            msg = (p["budgets"][-1]["skipped_functions"] or
                   [s for b in p["budgets"] for s in b["skipped_functions"]]
                   or ["-"])[0]
            log(f"  budget, {p['file']}: message printed at VisitsPerBlock "
                f"{seen or 'none'}, not at {fine}; e.g. {msg}")
        by = {(r["shape"], r["n_target"]): r for r in sc["rows"]}
        for shape in sorted({s for s, _ in by}):
            for n, key in ((10000, "fn10k_s"), (50000, "fn50k_s")):
                r = by.get((shape, n))
                if not r:
                    continue
                name = key if shape == "scoped" else f"{key}_{shape}"
                total = r["streamsafe_cpu"]
                v[name] = verdict(total is not None and total < TARGETS[key])
                v[name + "_dataflow_only"] = verdict(
                    r["engine_cpu"] is not None
                    and r["engine_cpu"] < TARGETS[key])
        for shape, fit in sc["fits"].items():
            for k, name in (("engine_cpu", "dataflow"), ("streamsafe_cpu", "total")):
                if fit.get(k) is not None:
                    v[f"linear_{shape}_{name}"] = verdict(
                        fit[k] <= TARGETS["slope_max"])
        summary["budget_message_at_default"] = any(
            r["skipped_functions"] for r in sc["rows"]) or any(
            b["skipped_functions"] for p in sc["budget_probes"]
            for b in p["budgets"] if b["visits_per_block"] == 64)
        summary["budget_message_when_lowered"] = any(
            b["skipped_functions"] for p in sc["budget_probes"]
            for b in p["budgets"] if b["visits_per_block"] != 64)

    if "nostream" in results:
        r = results["nostream"]
        rows = [[os.path.basename(r["file"]), fmt_spread(r["cpu_b"]),
                 fmt_spread(r["cpu_a"]), fmt_pct(r["cpu_ratio"]),
                 fmt_pct(r["wall_ratio"]), fmt_frac(r["profile_overhead"])]]
        table("[3] no-stream translation unit", ["file", "B cpu s", "A cpu s",
              "cpu A/B", "wall A/B", "profile (ours/B)"], rows, log)
        log(f"  per check (ms): dataflow {fmt_spread(r['dataflow_cpu'], 1, 1000)}"
            + "".join(f", {names[n]} {fmt_spread(r['check_cpu_a'].get(n), 1, 1000)}"
                      for n in AST_CHECKS))
        if r.get("peers_profile_cpu"):
            log("  peers: " + ", ".join(
                f"{names[n]} {r['peers_profile_cpu'].get(n, 0) * 1000:.1f} ms"
                for n in PEERS))
        # 1% is below the whole-process noise of a shared machine: the
        # profile is the measure; the paired runs only refute it when every
        # pair shows more than 1%.
        v["nostream_overhead"] = verdict(
            r["profile_overhead"]["median"] <= TARGETS["nostream_overhead"]
            and r["cpu_ratio"]["min"] - 1 <= TARGETS["nostream_overhead"])

    if "project" in results:
        pr = results["project"]
        rows = [[r["jobs"], r["tus"], f"{r['wall']:.1f}", f"{r['cpu']:.1f}",
                 f"{r['tus_per_s']:.2f}"] for r in pr["runs"]]
        table(f"[5] whole project ({pr['mode']})",
              ["-j", "TUs", "wall s", "cpu s", "TU/s"], rows, log)

    if cfg["quick"]:
        summary["verdicts"] = {}
        log("\ntargets: not judged with --quick (one pair, small N)")
    else:
        log("\ntargets: " + ", ".join(f"{k} {s}" for k, s in v.items()))
    return summary


if __name__ == "__main__":
    sys.exit(main())
