"""Running the driver: check verification and one process per unit.

The driver is `streamsafe` (clang-tidy with our checks built in) or any
clang-tidy with `--load` of the StreamSafe plugin. A plugin that fails to load
makes clang-tidy print "-load request ignored" and carry on, so before
analysing anything the gate asks the driver for its enabled checks
(`--list-checks`): no streamsafe-* check among them is a hard error (exit 2),
and so is a check pattern on our command line that matches no check.

Each unit runs as `<driver> -p <translated db> --export-fixes=<yaml> <file>`;
its findings come from that YAML (warnings with their notes and fix-its).
A unit *fails* when the driver exits non-zero, reports an error, or leaves no
readable YAML; its compiler errors are kept for the report. When the only
errors are "unknown argument" (GCC-only flags in a GCC compile database), the
unit is rerun once without those arguments, which are then listed as dropped.

With the result cache (--cache), every command of a unit also asks the
compiler for its dependency output (DEPFILE_ARGS: the main file and every file
it read, system headers included); a successful unit's `inputs` are those
files, which the cache records with their hashes.
"""

import os
import re
import subprocess
import tempfile
import time

from . import compdb, tidyyaml
from .findings import Finding, Location, Note, Replacement


class DriverError(Exception):
    pass


def _run(argv, cwd=None, timeout=None):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                          errors="replace", timeout=timeout)


def version_output(driver_argv):
    """What `<driver> --version` prints (the cache keys on it)."""
    try:
        out = _run(driver_argv + ["--version"])
    except OSError as e:
        raise DriverError(f"cannot run {driver_argv[0]}: {e}") from e
    return out.stdout + out.stderr


def driver_version(output):
    """StreamSafe's version in the output of version_output(), or None."""
    m = re.search(r"StreamSafe version (\S+)", output)
    return m.group(1) if m else None


def depfile_args(path):
    """Compiler arguments that write the dependency output to `path`.

    Spelled -Xclang=...: clang-tidy strips -MD/-MF/-MT and every other -M*
    argument from compile commands (with `-Xclang -MT` it would leave a
    dangling -Xclang), and -dependency-file needs a target."""
    return ["-Xclang=-dependency-file", f"-Xclang={path}",
            "-Xclang=-MTstreamsafe", "-Xclang=-sys-header-deps"]


def parse_depfile(text, base):
    """The prerequisites of a Makefile rule as clang writes it, as canonical
    absolute paths (relative ones are relative to `base`)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    colon = re.search(r":(\s|$)", text)
    if colon is None:
        raise ValueError("no rule in the dependency output")
    body = text[colon.end():]
    paths, cur, i = [], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] in " #\\":
            cur.append(body[i + 1])
            i += 2
            continue
        if c == "$" and body.startswith("$$", i):
            cur.append("$")
            i += 2
            continue
        if c.isspace():
            if cur:
                paths.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        paths.append("".join(cur))
    return [os.path.realpath(os.path.join(base, p)) for p in paths]


def _listed(output):
    return [line.strip() for line in output.splitlines()
            if line.startswith("    ") and line.strip()]


def check_patterns(checks):
    return [p.strip() for p in checks.split(",") if p.strip()]


def verify_checks(driver_argv, checks, config_args, cwd):
    """Returns the enabled checks; raises DriverError when our checks are not
    loaded or a positive pattern of `checks` names no check."""
    try:
        all_checks = _run(driver_argv + ["--checks=*", "--list-checks"] +
                          config_args, cwd=cwd)
        enabled = _run(driver_argv + [f"--checks={checks}", "--list-checks"] +
                       config_args, cwd=cwd)
    except OSError as e:
        raise DriverError(f"cannot run {driver_argv[0]}: {e}") from e
    available = set(_listed(all_checks.stdout))
    detail = "\n".join(line for line in (all_checks.stderr.strip() +
                                         "\n" + enabled.stderr.strip())
                       .splitlines() if line.strip())
    if not any(c.startswith("streamsafe-") for c in available):
        raise DriverError(
            f"the StreamSafe checks are not loaded into '{driver_argv[0]}' "
            "(no streamsafe-* check in --list-checks; use the streamsafe "
            "driver, or --load the plugin built for this clang-tidy)" +
            (f":\n{detail}" if detail else ""))
    for pattern in check_patterns(checks):
        if pattern.startswith("-") or pattern.startswith("clang-diagnostic-"):
            continue
        regex = re.compile(".*".join(re.escape(p) for p in pattern.split("*"))
                           + r"\Z")
        if not any(regex.match(c) for c in available):
            raise DriverError(f"unknown check '{pattern}' in --checks "
                              "(see --list-checks of the driver)")
    listed = _listed(enabled.stdout)
    if not any(c.startswith("streamsafe-") for c in listed):
        raise DriverError(
            f"no streamsafe-* check is enabled by --checks='{checks}'" +
            (f":\n{detail}" if detail else ""))
    return listed


def ere_escape(text):
    """Escapes text for a POSIX extended regex (clang-tidy's llvm::Regex)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


class UnitResult:
    __slots__ = ("unit", "findings", "errors", "failed", "exit_code",
                 "message", "dropped", "stderr", "inputs", "started",
                 "cached")

    def __init__(self, unit):
        self.unit = unit
        self.findings = []
        self.errors = []      # compiler errors as Findings (level "error")
        self.failed = False
        self.exit_code = 0
        self.message = ""
        self.dropped = []
        self.stderr = ""
        self.inputs = None    # files the analysis read (with --cache)
        self.started = 0.0    # time.time() when the analysis started
        self.cached = False   # findings from the result cache


def cached_result(unit, findings, dropped):
    """A UnitResult made of a cache hit."""
    result = UnitResult(unit)
    result.findings = findings
    result.dropped = dropped
    result.cached = True
    return result


_UNKNOWN_ARG = re.compile(r"unknown argument:? '([^']+)'")


class Runner:
    def __init__(self, driver_argv, checks, header_filter, config_args,
                 extra_args, sources, timeout, workdir, record_inputs=False):
        self.driver_argv = driver_argv
        self.record_inputs = record_inputs
        self.checks = checks
        self.header_filter = header_filter
        self.config_args = config_args
        self.extra_args = extra_args
        self.sources = sources
        self.timeout = timeout or None
        self.workdir = workdir

    def _invoke(self, file, db_dir, yaml_path):
        argv = (self.driver_argv +
                ["--quiet", "--use-color=false", f"-p={db_dir}",
                 f"--export-fixes={yaml_path}", f"--checks={self.checks}",
                 "--warnings-as-errors=-*",
                 f"--header-filter={self.header_filter}"] +
                self.config_args + self.extra_args + [file])
        return _run(argv, timeout=self.timeout)

    def run_unit(self, unit, db_dir, index):
        """Analyses one unit (a source file with all its compile commands)."""
        result = UnitResult(unit)
        result.started = time.time()
        commands, depfiles = unit.commands, []
        if self.record_inputs:
            depfiles = [os.path.join(self.workdir, f"unit-{index}-{k}.d")
                        for k in range(len(commands))]
            commands = [compdb.with_arguments(c, depfile_args(d))
                        for c, d in zip(commands, depfiles)]
            db_dir = os.path.join(self.workdir, f"unit-{index}")
            compdb.write(commands, db_dir)
        yaml_path = os.path.join(self.workdir, f"unit-{index}.yaml")
        self._attempt(result, unit.file, db_dir, yaml_path)
        unknown = self._only_unknown_arguments(result)
        if unknown:
            for d in depfiles:
                _remove(d)
            retry_dir = tempfile.mkdtemp(prefix=f"retry-{index}-",
                                         dir=self.workdir)
            commands = [compdb.remove_arguments(c, unknown) for c in commands]
            compdb.write(commands, retry_dir)
            started = result.started
            result = UnitResult(unit)
            result.started = started
            result.dropped = sorted(unknown)
            self._attempt(result, unit.file, retry_dir, yaml_path + ".retry")
        if depfiles and not result.failed:
            result.inputs = self._read_inputs(depfiles, commands)
        return result

    @staticmethod
    def _read_inputs(depfiles, commands):
        """Every file the commands read, or None when a dependency output
        is missing or unreadable (the result is then not cached)."""
        inputs = set()
        for path, cmd in zip(depfiles, commands):
            try:
                with open(path, encoding="utf-8",
                          errors="surrogateescape") as f:
                    inputs.update(parse_depfile(f.read(), cmd.directory))
            except (OSError, ValueError):
                return None
        return sorted(inputs)

    @staticmethod
    def _only_unknown_arguments(result):
        if not result.failed or not result.errors:
            return None
        unknown = set()
        for e in result.errors:
            m = _UNKNOWN_ARG.search(e.message)
            if not m or e.location.path:
                return None
            unknown.add(m.group(1))
        return unknown

    def _attempt(self, result, file, db_dir, yaml_path):
        try:
            proc = self._invoke(file, db_dir, yaml_path)
        except subprocess.TimeoutExpired:
            result.failed = True
            result.exit_code = -1
            result.message = f"timed out after {self.timeout} s"
            return
        except OSError as e:
            result.failed = True
            result.exit_code = -1
            result.message = f"cannot run {self.driver_argv[0]}: {e}"
            return
        result.exit_code = proc.returncode
        result.stderr = proc.stderr
        text = None
        try:
            with open(yaml_path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            pass
        if text is None:
            if proc.returncode == 0:
                # No diagnostics at all: clang-tidy writes no file then.
                return
            result.failed = True
            result.message = self._failure_text(proc, None)
            return
        try:
            doc = tidyyaml.loads(text)
            diags = doc.get("Diagnostics") or []
        except (tidyyaml.YamlError, AttributeError) as e:
            result.failed = True
            result.message = f"cannot read the driver's --export-fixes output: {e}"
            return
        for d in diags:
            finding = self._finding(d)
            if finding.level == "error":
                result.errors.append(finding)
            else:
                result.findings.append(finding)
        if proc.returncode != 0 or result.errors:
            result.failed = True
            result.message = self._failure_text(proc, result.errors)

    @staticmethod
    def _failure_text(proc, errors):
        code = proc.returncode
        how = (f"killed by signal {-code}" if code < 0 else f"exit code {code}")
        if errors:
            first = errors[0]
            return f"{how}: {first.message}"
        lines = [line.strip() for line in (proc.stderr or "").splitlines()
                 if line.strip()]
        interesting = [line for line in lines if "error" in line.lower()]
        tail = (interesting or lines)[-1:] if lines else []
        return how + (f": {tail[0]}" if tail else "")

    def _location(self, path, offset, base):
        if not path:
            return Location("", 0, 0, 0)
        path = compdb.canonical(path, base)
        offset = int(offset or 0)
        line, col = self.sources.line_col(path, offset)
        return Location(path, line, col, offset)

    def _finding(self, d):
        # Paths are as the compile command spelled them: relative ones are
        # relative to the command's directory.
        base = d.get("BuildDirectory") or None
        msg = d.get("DiagnosticMessage") or {}
        loc = self._location(msg.get("FilePath"), msg.get("FileOffset"), base)
        notes = []
        for n in d.get("Notes") or []:
            notes.append(Note(n.get("Message") or "",
                              self._location(n.get("FilePath"),
                                             n.get("FileOffset"), base)))
        fixes = []
        for r in msg.get("Replacements") or []:
            fixes.append(Replacement(
                compdb.canonical(r.get("FilePath") or "", base),
                int(r.get("Offset") or 0), int(r.get("Length") or 0),
                r.get("ReplacementText") or ""))
        level = "error" if (d.get("Level") or "").lower() == "error" else "warning"
        return Finding(d.get("DiagnosticName") or "unknown", level,
                       msg.get("Message") or "", loc, notes, fixes)


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass
