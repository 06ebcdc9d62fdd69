"""Python files: the second kind of unit, analysed by `streamsafe-py`.

A Python unit is a `.py` file alone (no compile command). It runs as
`streamsafe-py --quiet --checks=<checks> <file>`; the tool prints clang's
text format (`file:line:col: warning: message [check]`, then `note:` lines)
on standard output and `file:line:col: error: ...` on standard error, and
exits 0 (clean), 1 (findings) or 2 (the file could not be analysed: a
syntax error, an unreadable file). Its findings become the same Finding
objects as the C++ driver's, so fingerprints, baselines, --diff filtering,
the reports and the cache treat both kinds alike. streamsafe-py reads the
nearest `.clang-tidy` itself (its `Checks:` and analysis options).
"""

import os
import re
import shutil
import subprocess
import time

from .findings import Finding, Location, Note
from .runner import DriverError, UnitResult

PYTHON_EXTENSIONS = (".py",)

_LINE = re.compile(r"(\d+):(\d+): (warning|note|error): (.*)\Z")
_CHECK = re.compile(r"(.*) \[([A-Za-z0-9_.-]+)\]\Z")


def is_python(path):
    return path.lower().endswith(PYTHON_EXTENSIONS)


def find_py_driver(explicit, driver, launcher, driver_named=True):
    """`--py-driver`, else streamsafe-py next to the C++ driver when it was
    named (--driver), next to this tool (or in its build tree), next to a
    driver found elsewhere (on PATH), then on PATH. So a streamsafe-ci
    installed with streamsafe-py (the wheel, a build tree) runs its own."""
    if explicit:
        found = shutil.which(explicit) if os.sep not in explicit else explicit
        return found or explicit
    driver_dirs = []
    if driver and os.sep in driver:
        driver_dirs = [os.path.dirname(driver),
                       os.path.dirname(os.path.realpath(driver))]
    here = os.path.dirname(os.path.abspath(launcher))
    real = os.path.dirname(os.path.realpath(launcher))
    own = [here, real, os.path.join(real, os.pardir, "build", "bin")]
    dirs = driver_dirs + own if driver_named else own + driver_dirs
    for d in dirs:
        cand = os.path.join(d, "streamsafe-py")
        if os.access(cand, os.X_OK) and os.path.isfile(cand):
            return os.path.normpath(cand)
    return shutil.which("streamsafe-py") or "streamsafe-py"


def verify(py_argv, checks, cwd):
    """Raises DriverError when streamsafe-py cannot run or rejects --checks
    (it knows the streamsafe-* names; other checks are C++-only)."""
    try:
        out = subprocess.run(py_argv + [f"--checks={checks}",
                                        "--list-checks"],
                             cwd=cwd, capture_output=True, text=True,
                             errors="replace")
    except OSError as e:
        raise DriverError(f"cannot run {py_argv[0]}: {e}") from e
    if out.returncode != 0:
        detail = out.stderr.strip().replace("streamsafe-py: error: ", "")
        raise DriverError(f"{py_argv[0]}: {detail or 'exit code %d' % out.returncode}")


def tool_version(output):
    """The version in `streamsafe-py --version` output, or None."""
    m = re.search(r"streamsafe-py (\S+)", output)
    return m.group(1) if m else None


def _finding(path, line, sources):
    m = _LINE.match(line[len(path) + 1:])
    if m is None:
        return None
    lineno, col = int(m.group(1)), int(m.group(2))
    loc = Location(path, lineno, col, sources.offset(path, lineno, col))
    kind, message = m.group(3), m.group(4)
    if kind == "note":
        return Note(message, loc)
    check = _CHECK.match(message)
    if check:
        message, name = check.group(1), check.group(2)
    elif kind == "error":
        name = ("python-syntax-error" if "invalid Python syntax" in message
                else "streamsafe-py-error")
    else:
        return None
    return Finding(name, "error" if kind == "error" else "warning", message,
                   loc, [], [])


def parse_output(path, stdout, sources):
    """The warnings (with their notes) streamsafe-py printed for `path`."""
    found = []
    for line in stdout.splitlines():
        if not line.startswith(path + ":"):
            continue
        item = _finding(path, line, sources)
        if isinstance(item, Note):
            if found:
                found[-1].notes.append(item)
        elif item is not None:
            found.append(item)
    return found


class PyRunner:
    def __init__(self, py_argv, checks, sources, timeout):
        self.py_argv = py_argv
        self.checks = checks
        self.sources = sources
        self.timeout = timeout or None

    def run_unit(self, unit):
        result = UnitResult(unit)
        result.started = time.time()
        argv = self.py_argv + ["--quiet", f"--checks={self.checks}",
                               "--", unit.file]
        try:
            proc = subprocess.run(argv, capture_output=True, text=True,
                                  errors="replace", timeout=self.timeout)
        except subprocess.TimeoutExpired:
            result.failed, result.exit_code = True, -1
            result.message = f"timed out after {self.timeout} s"
            return result
        except OSError as e:
            result.failed, result.exit_code = True, -1
            result.message = f"cannot run {self.py_argv[0]}: {e}"
            return result
        result.exit_code = proc.returncode
        result.stderr = proc.stderr
        result.findings = parse_output(unit.file, proc.stdout, self.sources)
        result.errors = [e for e in parse_output(unit.file, proc.stderr,
                                                 self.sources)
                         if e.level == "error"]
        if proc.returncode not in (0, 1) or result.errors:
            result.failed = True
            code = proc.returncode
            how = (f"killed by signal {-code}" if code < 0
                   else f"exit code {code}")
            lines = [s.strip() for s in proc.stderr.splitlines() if s.strip()]
            detail = (result.errors[0].message if result.errors else
                      lines[-1] if lines else "")
            result.message = how + (f": {detail}" if detail else "")
        else:
            # Its only input: the file (the .clang-tidy files are in the key).
            result.inputs = [unit.file]
        return result
