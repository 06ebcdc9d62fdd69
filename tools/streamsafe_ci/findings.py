"""Findings: what the driver reported, located, fingerprinted and ordered.

A fingerprint identifies a finding across unrelated edits: it hashes the
check name, the file (relative to the project root), the text of the flagged
line with all whitespace removed, and the occurrence index among findings of
that check on identical lines of that file. Line numbers are not part of it,
so inserting or deleting lines elsewhere keeps it; reformatting the line keeps
it; editing the flagged line itself changes it (the finding is then new).
"""

import hashlib
import json
import os

FINGERPRINT_KEY = "streamsafe/v1"


class SourceCache:
    """File contents, read once, for offsets -> line/column and snippets."""

    def __init__(self):
        self._files = {}

    def _load(self, path):
        if path not in self._files:
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                data = None
            starts = None
            if data is not None:
                starts = [0]
                pos = data.find(b"\n")
                while pos >= 0:
                    starts.append(pos + 1)
                    pos = data.find(b"\n", pos + 1)
            self._files[path] = (data, starts)
        return self._files[path]

    def line_col(self, path, offset):
        """1-based line and byte column, like clang prints them."""
        data, starts = self._load(path)
        if data is None:
            return 0, 0
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - starts[lo] + 1

    def offset(self, path, line, column):
        """1-based line and byte column -> byte offset (0 if unknown)."""
        data, starts = self._load(path)
        if data is None or not 1 <= line <= len(starts):
            return 0
        return starts[line - 1] + max(column - 1, 0)

    def line_text(self, path, line):
        data, starts = self._load(path)
        if data is None or not 1 <= line <= len(starts):
            return ""
        end = starts[line] - 1 if line < len(starts) else len(data)
        return data[starts[line - 1]:end].decode("utf-8", "replace").rstrip("\r")

    def char_column(self, path, line, byte_col):
        """Byte column -> 1-based Unicode code point column (for SARIF)."""
        data, starts = self._load(path)
        if data is None or not 1 <= line <= len(starts):
            return byte_col
        prefix = data[starts[line - 1]:starts[line - 1] + byte_col - 1]
        return len(prefix.decode("utf-8", "replace")) + 1


class Location:
    __slots__ = ("path", "line", "column", "offset")

    def __init__(self, path, line, column, offset):
        self.path = path      # canonical absolute path, or "" if none
        self.line = line
        self.column = column  # bytes, 1-based
        self.offset = offset

    def key(self):
        return (self.path, self.line, self.column)


class Note:
    __slots__ = ("message", "location")

    def __init__(self, message, location):
        self.message = message
        self.location = location


class Replacement:
    __slots__ = ("path", "offset", "length", "text")

    def __init__(self, path, offset, length, text):
        self.path, self.offset, self.length, self.text = path, offset, length, text


class Finding:
    __slots__ = ("check", "level", "message", "location", "notes", "fixes",
                 "fingerprint", "context_only")

    def __init__(self, check, level, message, location, notes, fixes):
        self.check = check
        self.level = level          # "warning" or "error"
        self.message = message
        self.location = location
        self.notes = notes
        self.fixes = fixes
        self.fingerprint = None
        self.context_only = False

    def sort_key(self):
        return (self.location.path, self.location.line, self.location.column,
                self.check, self.message,
                tuple((n.location.key(), n.message) for n in self.notes))

    def identity(self):
        """Equal for the same finding reported by several units (headers)."""
        return self.sort_key()


def relpath(path, root):
    if not path:
        return ""
    if path == root or path.startswith(root.rstrip("/") + "/"):
        return os.path.relpath(path, root)
    return path


def normalized_line(text):
    return "".join(text.split())


def assign_fingerprints(findings, root, sources):
    """Sets Finding.fingerprint; `findings` must be sorted."""
    seen = {}
    for f in findings:
        rel = relpath(f.location.path, root)
        text = normalized_line(sources.line_text(f.location.path,
                                                 f.location.line))
        base = (f.check, rel, text)
        index = seen.get(base, 0)
        seen[base] = index + 1
        h = hashlib.sha256("\0".join([f.check, rel, text, str(index)])
                           .encode("utf-8"))
        f.fingerprint = h.hexdigest()[:32]


# --- baselines -------------------------------------------------------------

class BaselineError(Exception):
    pass


def write_baseline(path, findings, root):
    entries = sorted(({"fingerprint": f.fingerprint, "check": f.check,
                       "file": relpath(f.location.path, root),
                       "message": f.message} for f in findings),
                     key=lambda e: (e["file"], e["check"], e["fingerprint"]))
    data = {"version": 1, "tool": "streamsafe-ci",
            "fingerprint": FINGERPRINT_KEY, "findings": entries}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=2, sort_keys=True, ensure_ascii=False)
        out.write("\n")


def read_baseline(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("fingerprint") != FINGERPRINT_KEY:
            raise BaselineError(
                f"{path}: fingerprints of kind '{data.get('fingerprint')}', "
                f"expected '{FINGERPRINT_KEY}'; rewrite it with --write-baseline")
        return {e["fingerprint"] for e in data["findings"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise BaselineError(f"cannot read baseline {path}: {e}") from e
