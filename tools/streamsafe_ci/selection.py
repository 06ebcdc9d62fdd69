"""Which translation units to analyse, and which lines to report.

- Path arguments: a source file, a directory (every source below it), or a
  glob (`*` and `?` stay within one path component, `**` spans any number);
  relative to the current directory. A header argument selects the
  translation units that include it, directly or through other project
  headers (found by scanning `#include` lines), as *context*: from those only
  the findings in headers are kept.
- `--diff REV`: the files git reports as changed between REV and the working
  tree (plus untracked files), with their changed line numbers.
- `--shard K/N`: the sorted list of units, every N-th starting at the K-th.
"""

import os
import re
import subprocess

HEADER_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inc",
                     ".inl", ".ipp", ".tcc", ".tpp")


SOURCE_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".cu",
                     ".m", ".mm")


class SelectionError(Exception):
    pass


def is_header(path):
    return path.lower().endswith(HEADER_EXTENSIONS)


def is_source(path):
    return path.lower().endswith(SOURCE_EXTENSIONS)


def glob_to_regex(pattern):
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def has_glob(text):
    return any(c in text for c in "*?[")


def match_paths(patterns, cwd):
    """Turns path arguments into matchers: a list of
    (argument, predicate(abs_path) -> bool, explicit file or None)."""
    cwd = os.path.realpath(cwd)
    matchers = []
    for arg in patterns:
        full = os.path.normpath(os.path.join(cwd, arg))
        if has_glob(arg):
            regex = glob_to_regex(full)
            matchers.append((arg, lambda p, r=regex: bool(r.match(p)), None))
            continue
        full = os.path.realpath(full)
        if os.path.isdir(full):
            prefix = full.rstrip("/") + "/"
            matchers.append((arg, lambda p, d=prefix: p.startswith(d), None))
        elif os.path.exists(full):
            matchers.append((arg, lambda p, f=full: p == f, full))
        else:
            raise SelectionError(f"no such file or directory: '{arg}'")
    return matchers


def glob_files(arg, cwd, keep):
    """Files on disk that the glob `arg` matches and `keep(path)` accepts,
    as canonical paths. The walk starts at the glob's longest literal
    directory and skips hidden directories (.git, .venv, ...)."""
    full = os.path.normpath(os.path.join(os.path.realpath(cwd), arg))
    regex = glob_to_regex(full)
    parts = full.split("/")
    literal = []
    for part in parts[:-1]:
        if has_glob(part):
            break
        literal.append(part)
    base = "/".join(literal) or "/"
    found = []
    for top, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            path = os.path.join(top, name)
            if keep(path) and regex.match(path):
                found.append(os.path.realpath(path))
    return sorted(set(found))


# --- includes --------------------------------------------------------------

_INCLUDE = re.compile(rb'^\s*#\s*(?:include|import|include_next)\s*[<"]([^>"]+)[>"]',
                      re.M)


_INCLUDE_FLAGS = ("-isystem", "-iquote", "-idirafter", "-I")


def _include_dirs(cmd):
    dirs = []
    args = cmd.arguments
    i = 0
    while i < len(args):
        a = args[i]
        for flag in _INCLUDE_FLAGS:
            if a == flag:
                if i + 1 < len(args):
                    dirs.append(args[i + 1])
                    i += 1
                break
            if a.startswith(flag):
                dirs.append(a[len(flag):])
                break
        i += 1
    return [os.path.realpath(os.path.join(cmd.directory, d)) for d in dirs]


class IncludeScanner:
    """Over-approximates the project headers each unit includes (conditional
    includes count as taken), without running the preprocessor."""

    def __init__(self, root):
        self.root = root.rstrip("/") + "/"
        self._includes = {}

    def _direct(self, path):
        if path not in self._includes:
            try:
                with open(path, "rb") as f:
                    self._includes[path] = [m.group(1).decode("utf-8", "replace")
                                            for m in _INCLUDE.finditer(f.read())]
            except OSError:
                self._includes[path] = []
        return self._includes[path]

    def headers_of(self, cmd):
        dirs = _include_dirs(cmd)
        seen = set()
        todo = [cmd.file]
        while todo:
            cur = todo.pop()
            for inc in self._direct(cur):
                for base in [os.path.dirname(cur)] + dirs:
                    cand = os.path.realpath(os.path.join(base, inc))
                    if os.path.isfile(cand):
                        if cand.startswith(self.root) and cand not in seen:
                            seen.add(cand)
                            todo.append(cand)
                        break
        return seen


# --- git diff --------------------------------------------------------------

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def git_toplevel(cwd):
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd,
                             capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return os.path.realpath(out.stdout.strip())


def _c_unquote(text):
    """Undoes git's C-style quoting of a path (bytes in, bytes out)."""
    out = bytearray()
    i = 0
    simple = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92,
              ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(text):
        c = text[i]
        if c == 92 and i + 1 < len(text):
            n = text[i + 1]
            if 48 <= n <= 55:
                out.append(int(text[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(simple.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def changed_lines(rev, cwd):
    """{abs_path: set of changed line numbers} between `rev` and the working
    tree; untracked (not ignored) files count as entirely changed."""
    top = git_toplevel(cwd)
    if top is None:
        raise SelectionError("--diff needs a git repository")
    try:
        diff = subprocess.run(
            ["git", "-c", "core.quotepath=off", "diff", "-U0", "--no-color",
             "--no-ext-diff", "--no-renames", rev, "--"],
            cwd=top, capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        raise SelectionError(
            f"git diff {rev} failed: {e.stderr.decode(errors='replace').strip()}")
    result = {}
    current = None
    for raw in diff.splitlines():
        if raw.startswith(b"+++ "):
            name = raw[4:]
            if name == b"/dev/null":
                current = None
                continue
            if name.startswith(b'"') and name.endswith(b'"'):
                name = _c_unquote(name[1:-1])
            if name.startswith(b"b/"):
                name = name[2:]
            current = os.path.realpath(os.path.join(
                top, name.decode("utf-8", "surrogateescape")))
            result.setdefault(current, set())
        elif raw.startswith(b"@@") and current is not None:
            m = _HUNK.match(raw.decode("ascii", "replace"))
            if m:
                start = int(m.group(1))
                count = 1 if m.group(2) is None else int(m.group(2))
                result[current].update(range(start, start + count))
    untracked = subprocess.run(
        ["git", "ls-files", "-z", "--others", "--exclude-standard"],
        cwd=top, capture_output=True).stdout
    for name in untracked.split(b"\0"):
        if not name:
            continue
        path = os.path.realpath(os.path.join(
            top, name.decode("utf-8", "surrogateescape")))
        try:
            with open(path, "rb") as f:
                n = f.read().count(b"\n") + 1
        except OSError:
            continue
        result[path] = set(range(1, n + 1))
    return {p: lines for p, lines in result.items() if lines}


# --- shards ----------------------------------------------------------------

def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text or "")
    if not m:
        raise SelectionError(f"--shard expects K/N (e.g. 1/4), got '{text}'")
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1 or not 1 <= k <= n:
        raise SelectionError(f"--shard {text}: K must be between 1 and N")
    return k, n


def shard(units, k, n):
    """`units` must already be sorted; every file goes to exactly one shard."""
    return [u for i, u in enumerate(units) if i % n == k - 1]
