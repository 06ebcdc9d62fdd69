"""Command line of streamsafe-ci. See docs/ci.md for the user guide."""

import argparse
import concurrent.futures
import os
import shutil
import sys
import tempfile
import time

from . import __version__, cache as rcache, compdb, findings as fmod
from . import pyrunner, report, rules, runner, selection

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

DESCRIPTION = """\
Runs the StreamSafe checks over a compile database and reports findings as
clang-style text, SARIF 2.1.0 or JSON lines.

exit codes:
  0  no findings (after --diff and --baseline filtering)
  1  findings
  2  at least one file could not be analysed, or misuse: no
     compile_commands.json, unknown check, StreamSafe checks not loaded,
     bad option (the other files are still analysed and reported)

Python files (*.py) named by path or glob, or changed under --diff, are
analysed by streamsafe-py; they need no compile command.
"""


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def build_parser():
    p = argparse.ArgumentParser(
        prog="streamsafe-ci", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="source files, headers, directories or globs to "
                        "analyse (default: every file of the compile "
                        "database); Python files by name or glob")
    p.add_argument("-p", "--build-path", metavar="DIR",
                   help="directory holding compile_commands.json "
                        "(default: build, else the current directory)")
    p.add_argument("-j", "--jobs", type=int, default=_cpu_count(), metavar="N",
                   help="files analysed in parallel (default: %(default)s, "
                        "the number of cores)")
    p.add_argument("--diff", metavar="REV",
                   help="analyse only files changed since git revision REV and "
                        "report only findings on changed lines")
    p.add_argument("--shard", metavar="K/N",
                   help="analyse only the K-th of N deterministic shards")
    p.add_argument("-f", "--format", choices=sorted(report.RENDERERS),
                   default="text", help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report to FILE instead of standard output")
    p.add_argument("--sarif-output", metavar="FILE",
                   help="also write a SARIF report to FILE")
    p.add_argument("--baseline", metavar="FILE",
                   help="do not report findings whose fingerprint is in FILE")
    p.add_argument("--write-baseline", metavar="FILE",
                   help="record the current findings in FILE; findings then "
                        "do not fail the run")
    p.add_argument("--checks", default="-*,streamsafe-*", metavar="GLOBS",
                   help="checks to run, in clang-tidy syntax "
                        "(default: %(default)s)")
    p.add_argument("--config-file", metavar="FILE",
                   help="clang-tidy configuration file for the driver "
                        "(default: the .clang-tidy files of the project)")
    p.add_argument("--header-filter", metavar="REGEX",
                   help="headers to report findings from (default: headers "
                        "under --root)")
    p.add_argument("--root", metavar="DIR",
                   help="project root; reported paths and fingerprints are "
                        "relative to it (default: git top level, else the "
                        "current directory)")
    p.add_argument("--driver", metavar="PROGRAM",
                   help="the streamsafe driver, or a clang-tidy used with "
                        "--load (default: streamsafe next to this tool, in "
                        "the build tree, then on PATH)")
    p.add_argument("--py-driver", metavar="PROGRAM",
                   help="streamsafe-py, for Python files (default: next to "
                        "the --driver, next to this tool, in the build tree, "
                        "next to the driver found, then on PATH)")
    p.add_argument("--load", action="append", default=[], metavar="PLUGIN",
                   help="clang-tidy plugin to load (libStreamSafe.so)")
    p.add_argument("--cuda-path", metavar="DIR",
                   help="CUDA toolkit for .cu files (default: the toolkit of "
                        "the nvcc in the compile command, $CUDA_HOME, "
                        "$CUDA_PATH, /usr/local/cuda)")
    p.add_argument("--extra-arg", action="append", default=[], metavar="ARG",
                   help="compiler argument to append (like clang-tidy's)")
    p.add_argument("--extra-arg-before", action="append", default=[],
                   metavar="ARG", help="compiler argument to prepend")
    p.add_argument("--timeout", type=float, default=0, metavar="SECONDS",
                   help="fail a file whose analysis takes longer (default: "
                        "no limit)")
    p.add_argument("--doc-base-url", default=rules.DEFAULT_DOC_BASE_URL,
                   metavar="URL",
                   help="where the check pages live: the help URI of "
                        "streamsafe-foo is URLfoo.md (default: %(default)s)")
    p.add_argument("--cache", metavar="DIR",
                   help="reuse the findings of files whose inputs (the file, "
                        "every header it read, the compile command, the "
                        "check configuration, the tool) are unchanged since "
                        "an earlier run with the same DIR; DIR may be shared "
                        "by parallel jobs")
    p.add_argument("--cache-max-size", default="256M", metavar="SIZE",
                   help="evict the least recently used cache entries beyond "
                        "SIZE (default: %(default)s; suffixes K, M, G)")
    p.add_argument("--cache-stats", action="store_true",
                   help="print the cache's hits and misses on standard error")
    p.add_argument("--progress", choices=["auto", "always", "never"],
                   default="auto",
                   help="progress on standard error (default: auto, only "
                        "when it is a terminal)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no summary on standard error")
    p.add_argument("--dump-commands", action="store_true",
                   help="print the translated compile commands of the "
                        "selected files, with the options dropped from each, "
                        "as JSON and exit")
    p.add_argument("--export-compile-commands", metavar="DIR",
                   help="write the translated compile commands of the "
                        "selected files to DIR/compile_commands.json (a "
                        "database clang-tidy, streamsafe and editors can use "
                        "directly) and exit")
    p.add_argument("--version", action="version",
                   version=f"streamsafe-ci {__version__}")
    return p


class Unit:
    """A source file with all its compile commands, or a Python file (kind
    "python", no commands) for streamsafe-py."""
    __slots__ = ("file", "commands", "context", "kind")

    def __init__(self, file, commands, kind="c++"):
        self.file = file
        self.commands = commands
        self.context = False   # analysed only for its headers' findings
        self.kind = kind


def _err(msg):
    sys.stderr.write(f"streamsafe-ci: error: {msg}\n")


def _warn(msg):
    sys.stderr.write(f"streamsafe-ci: warning: {msg}\n")


def find_driver(explicit, launcher):
    if explicit:
        found = shutil.which(explicit) if os.sep not in explicit else explicit
        return found or explicit
    here = os.path.dirname(os.path.abspath(launcher))
    real = os.path.dirname(os.path.realpath(launcher))
    for cand in (os.path.join(here, "streamsafe"),
                 os.path.join(real, "streamsafe"),
                 os.path.join(real, os.pardir, "build", "bin", "streamsafe")):
        if os.access(cand, os.X_OK) and os.path.isfile(cand):
            return os.path.normpath(cand)
    return shutil.which("streamsafe") or "streamsafe"


def doc_dirs(launcher):
    """The check pages: the source tree's docs/checks, an installation's
    share/streamsafe/docs/checks, or the wheel's copy inside this package."""
    real = os.path.dirname(os.path.realpath(launcher))
    return [os.path.normpath(os.path.join(real, os.pardir, "docs", "checks")),
            os.path.normpath(os.path.join(real, os.pardir, "share",
                                          "streamsafe", "docs", "checks")),
            os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs",
                         "checks")]


CPP_TOOLS_MISSING = (
    "C++ and CUDA files need StreamSafe's C++ tools, and none was found: no "
    "streamsafe driver next to streamsafe-ci, in a build tree or on PATH. "
    "Install the Debian package or build StreamSafe (see its README), or name "
    "the driver with --driver (or a clang-tidy-22 with --load="
    "libStreamSafe.so). Python files need only streamsafe-py, which the "
    "wheel installs: name them by path or glob (streamsafe-ci "
    "'src/**/*.py').")


def _may_match_python(glob):
    """False for a glob that cannot match a *.py name (`src/**/*.cu`): no
    walk over the disk for it."""
    tail = glob.rsplit("/", 1)[-1][-3:]
    return selection.has_glob(tail) or tail.lower() == ".py"


def select_units(args, units, root, cwd):
    """-> (units to analyse, changed lines or None, skipped [(path, why)])."""
    by_file = {u.file: u for u in units}
    matchers = selection.match_paths(args.paths, cwd) if args.paths else None
    changed = None
    wanted_files = set()      # explicit or changed files that are not units
    direct = set()
    python = set()            # .py files outside the compile database
    if args.diff:
        changed = selection.changed_lines(args.diff, cwd)
        for path in changed:
            if matchers and not any(m(path) for _, m, _ in matchers):
                continue
            if path in by_file:
                direct.add(path)
            elif pyrunner.is_python(path) and \
                    path.startswith(root.rstrip("/") + "/"):
                python.add(path)
            elif (selection.is_header(path) or selection.is_source(path)) \
                    and path.startswith(root.rstrip("/") + "/"):
                wanted_files.add(path)
    elif matchers:
        for arg, match, explicit in matchers:
            hits = [f for f in by_file if match(f)]
            direct.update(hits)
            py_hits = []
            if explicit and explicit not in by_file:
                if pyrunner.is_python(explicit):
                    py_hits = [explicit]
            elif selection.has_glob(arg) and _may_match_python(arg):
                py_hits = [f for f in selection.glob_files(
                    arg, cwd, pyrunner.is_python) if f not in by_file]
            python.update(py_hits)
            if explicit and explicit not in by_file and not py_hits:
                wanted_files.add(explicit)
            elif not hits and not explicit and not py_hits:
                _warn(f"'{arg}' matches no file of the compile database")
    else:
        direct = set(by_file)
    skipped = []
    context = set()
    headers = sorted(f for f in wanted_files if selection.is_header(f))
    for f in sorted(wanted_files - set(headers)):
        skipped.append((f, "not in the compile database"))
    if headers:
        scanner = selection.IncludeScanner(root)
        includers = {h: [] for h in headers}
        for u in units:
            found = set()
            for c in u.commands:
                found |= scanner.headers_of(c)
            for h in headers:
                if h in found:
                    includers[h].append(u.file)
        for h in headers:
            if includers[h]:
                context.update(includers[h])
            else:
                skipped.append((h, "no file of the compile database "
                                   "includes it"))
    selected = []
    for f in direct | context:
        u = by_file[f]
        u.context = f not in direct
        selected.append(u)
    selected += [Unit(f, [], kind="python") for f in python]
    selected.sort(key=lambda u: u.file)
    return selected, changed, sorted(skipped)


class Progress:
    def __init__(self, enabled, total, root):
        self.enabled = enabled and total > 0
        self.total = total
        self.done = 0
        self.root = root

    def step(self, unit):
        self.done += 1
        if self.enabled:
            name = fmod.relpath(unit.file, self.root)
            sys.stderr.write(f"\r\x1b[K[{self.done}/{self.total}] {name}")
            sys.stderr.flush()

    def finish(self):
        if self.enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def main(argv=None, launcher=None):
    launcher = launcher or sys.argv[0]
    parser = build_parser()
    args = parser.parse_args(argv)
    start = time.monotonic()
    cwd = os.getcwd()
    if args.jobs < 1:
        _err("-j must be at least 1")
        return EXIT_ERROR
    root = os.path.realpath(args.root) if args.root else (
        selection.git_toplevel(cwd) or os.path.realpath(cwd))

    try:
        shard = selection.parse_shard(args.shard) if args.shard else None
    except selection.SelectionError as e:
        _err(str(e))
        return EXIT_ERROR

    build_path = args.build_path
    if build_path is None:
        build_path = "build" if os.path.isfile(
            os.path.join("build", "compile_commands.json")) else "."
    try:
        commands = compdb.load(build_path)
    except compdb.CompDbError as e:
        # Python files alone need no compile database.
        if not args.paths or not all(pyrunner.is_python(p)
                                     for p in args.paths):
            _err(str(e))
            return EXIT_ERROR
        commands = []
    commands = [compdb.translate(c, args.cuda_path) for c in commands]
    groups = {}
    for c in commands:
        groups.setdefault(c.file, []).append(c)
    units = [Unit(f, groups[f]) for f in sorted(groups)]

    try:
        selected, changed, skipped = select_units(args, units, root, cwd)
    except selection.SelectionError as e:
        _err(str(e))
        return EXIT_ERROR
    if shard:
        selected = selection.shard(selected, *shard)

    if args.dump_commands:
        import json
        entries = []
        for u in selected:
            for c in u.commands:
                e = c.to_json()
                e["dropped"] = c.dropped
                entries.append(e)
        sys.stdout.write(json.dumps(entries, indent=2) + "\n")
        return EXIT_CLEAN
    if args.export_compile_commands:
        exported = [c for u in selected for c in u.commands]
        try:
            compdb.write(exported, args.export_compile_commands)
        except OSError as e:
            _err(f"cannot write {args.export_compile_commands}: {e}")
            return EXIT_ERROR
        if not args.quiet:
            sys.stderr.write(
                f"streamsafe-ci: wrote {len(exported)} compile command(s) to "
                f"{os.path.join(args.export_compile_commands, 'compile_commands.json')}\n")
        return EXIT_CLEAN

    driver_argv = [find_driver(args.driver, launcher)] + \
        [f"--load={os.path.abspath(p)}" for p in args.load]
    py_argv = [pyrunner.find_py_driver(args.py_driver, driver_argv[0],
                                       launcher, bool(args.driver))]
    config_args = ([f"--config-file={os.path.abspath(args.config_file)}"]
                   if args.config_file else [])
    has_py = any(u.kind == "python" for u in selected)
    has_cpp = any(u.kind != "python" for u in selected)
    version_text = py_version_text = ""
    version = None
    try:
        # The C++ driver is checked unless only Python files are selected.
        if has_cpp or not has_py:
            # find_driver's last resort is the bare name: nothing was found.
            if not args.driver and os.sep not in driver_argv[0]:
                raise runner.DriverError(CPP_TOOLS_MISSING)
            runner.verify_checks(driver_argv, args.checks, config_args, cwd)
            version_text = runner.version_output(driver_argv)
            version = runner.driver_version(version_text)
        if has_py:
            pyrunner.verify(py_argv, args.checks, cwd)
            py_version_text = runner.version_output(py_argv)
            version = version or pyrunner.tool_version(py_version_text)
    except runner.DriverError as e:
        _err(str(e))
        return EXIT_ERROR
    version = version or __version__
    if has_py and args.config_file:
        _warn("--config-file does not apply to Python files: streamsafe-py "
              "reads the .clang-tidy files above each of them")
    baseline = None
    if args.baseline:
        try:
            baseline = fmod.read_baseline(args.baseline)
        except fmod.BaselineError as e:
            _err(str(e))
            return EXIT_ERROR

    header_filter = args.header_filter
    if header_filter is None:
        header_filter = "^" + runner.ere_escape(root.rstrip("/") + "/")
    extra = ([f"--extra-arg={a}" for a in args.extra_arg] +
             [f"--extra-arg-before={a}" for a in args.extra_arg_before])
    cache = None
    if args.cache:
        try:
            cache = open_cache(args, driver_argv, version_text, header_filter,
                               extra)
            cache.python_tool = rcache.tool_identity(
                py_argv, py_version_text, __version__) if has_py else None
        except rcache.CacheError as e:
            _err(str(e))
            return EXIT_ERROR
    sources = fmod.SourceCache()
    show_progress = (args.progress == "always" or
                     (args.progress == "auto" and sys.stderr.isatty()))
    progress = Progress(show_progress, len(selected), root)

    with tempfile.TemporaryDirectory(prefix="streamsafe-ci-") as work:
        db_dir = os.path.join(work, "db")
        compdb.write([c for u in selected for c in u.commands], db_dir)
        run = runner.Runner(driver_argv, args.checks, header_filter,
                            config_args, extra, sources, args.timeout, work,
                            record_inputs=cache is not None)
        pyrun = pyrunner.PyRunner(py_argv, args.checks, sources,
                                  args.timeout)

        def analyse(i):
            u = selected[i]
            if u.kind == "python":
                return pyrun.run_unit(u)
            return run.run_unit(u, db_dir, i)

        results = [None] * len(selected)
        keys = {}
        todo = []
        for i, u in enumerate(selected):
            if cache:
                keys[i] = cache.key(u)
                hit = cache.lookup(keys[i])
                if hit:
                    results[i] = runner.cached_result(u, *hit)
                    progress.step(u)
                    continue
            todo.append(i)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(analyse, i): i for i in todo}
            for fut in concurrent.futures.as_completed(futures):
                i = futures[fut]
                results[i] = r = fut.result()
                if cache:
                    cache.store(keys[i], r)
                progress.step(selected[i])
        progress.finish()
    cache_left = cache.evict() if cache else None

    # Collect, deduplicate (headers seen from several units), sort.
    unique = {}
    for r in results:
        for f in r.findings:
            if r.unit.context and f.location.path == r.unit.file:
                continue
            unique.setdefault(f.identity(), f)
    all_findings = sorted(unique.values(), key=lambda f: f.sort_key())
    fmod.assign_fingerprints(all_findings, root, sources)

    reported = all_findings
    outside_diff = 0
    if changed is not None:
        reported = [f for f in all_findings
                    if f.location.line in changed.get(f.location.path, ())]
        outside_diff = len(all_findings) - len(reported)
    if args.write_baseline:
        fmod.write_baseline(args.write_baseline, reported, root)
    suppressed = 0
    if baseline is not None:
        kept = [f for f in reported if f.fingerprint not in baseline]
        suppressed = len(reported) - len(kept)
        reported = kept

    failures = sorted((r for r in results if r.failed),
                      key=lambda r: r.unit.file)
    by_check = {}
    for f in reported:
        by_check[f.check] = by_check.get(f.check, 0) + 1
    summary = {"files": len(selected), "findings": len(reported),
               "by_check": dict(sorted(by_check.items())),
               "failed": len(failures), "skipped": len(skipped),
               "suppressed_by_baseline": suppressed,
               "outside_diff": outside_diff}
    rep = report.Report(root, reported, failures, skipped, sources, version,
                        rules.RuleCatalog(doc_dirs(launcher),
                                          args.doc_base_url),
                        baseline is not None, summary)
    try:
        report.write_output(args.output, report.RENDERERS[args.format](rep))
        if args.sarif_output:
            report.write_output(args.sarif_output, report.render_sarif(rep))
    except OSError as e:
        _err(f"cannot write the report: {e}")
        return EXIT_ERROR

    if not args.quiet:
        _print_summary(summary, failures, skipped, results, root,
                       time.monotonic() - start, args)
    if args.cache_stats:
        if cache:
            sys.stderr.write(f"streamsafe-ci: {cache.summary(*cache_left)}\n")
        else:
            _warn("--cache-stats without --cache: no cache was used")
    if failures:
        return EXIT_ERROR
    if reported and not args.write_baseline:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def console_main():
    """The console script of the wheel (scripts/wheel.sh)."""
    try:
        return main()
    except KeyboardInterrupt:
        return 130


def open_cache(args, driver_argv, version_text, header_filter, extra):
    """The result cache of --cache, keyed on the tool and the options that
    change findings; raises rcache.CacheError."""
    max_size = rcache.parse_size(args.cache_max_size)
    config = None
    if args.config_file:
        try:
            config = rcache.file_sha256(args.config_file)
        except OSError as e:
            raise rcache.CacheError(
                f"cannot read {args.config_file}: {e}") from e
    options = {"checks": args.checks, "header_filter": header_filter,
               "config_file": config, "extra": extra}
    return rcache.ResultCache(
        args.cache, max_size,
        rcache.tool_identity(driver_argv, version_text, __version__),
        options, _warn)


def _print_summary(summary, failures, skipped, results, root, seconds, args):
    w = sys.stderr.write
    rel = lambda p: fmod.relpath(p, root)  # noqa: E731
    for r in sorted((r for r in results if r.dropped),
                    key=lambda r: r.unit.file):
        w(f"streamsafe-ci: note: {rel(r.unit.file)}: dropped compiler "
          f"arguments clang does not know: {' '.join(r.dropped)}\n")
    for path, reason in skipped:
        w(f"streamsafe-ci: warning: {rel(path)} not analysed: {reason}\n")
    w(f"streamsafe-ci: {summary['files']} file"
      f"{'' if summary['files'] == 1 else 's'} analysed in {seconds:.1f} s "
      f"(-j {args.jobs}): {summary['findings']} finding"
      f"{'' if summary['findings'] == 1 else 's'}, "
      f"{summary['failed']} failed\n")
    for check, n in summary["by_check"].items():
        w(f"  {n:5}  {check}\n")
    if summary["suppressed_by_baseline"]:
        w(f"streamsafe-ci: {summary['suppressed_by_baseline']} known "
          f"finding(s) suppressed by the baseline {args.baseline}\n")
    if summary["outside_diff"]:
        w(f"streamsafe-ci: {summary['outside_diff']} finding(s) on unchanged "
          f"lines not reported (--diff {args.diff})\n")
    if args.write_baseline:
        w(f"streamsafe-ci: wrote {summary['findings']} finding(s) to the "
          f"baseline {args.write_baseline}\n")
    for r in failures:
        w(f"streamsafe-ci: FAILED: {rel(r.unit.file)}: {r.message}\n")
