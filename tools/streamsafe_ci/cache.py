"""The result cache (--cache DIR): a unit whose inputs are unchanged since an
earlier analysis gets that analysis's findings without running the driver.

What a unit's result depends on, in two parts (ccache's direct mode, ctcache
for clang-tidy):

- its *key*: the tool (SHA-256 of the driver's and the plugins' files and the
  driver's `--version` output, this package's version and the entry format),
  the analysis options (checks, header filter, `--config-file` contents,
  extra compiler arguments), the `.clang-tidy` files that can apply to the
  unit's file (present or absent, in its directory and every parent), and
  the unit's translated compile commands (directory, arguments, file); for
  a Python file, streamsafe-py's identity instead of the driver's and the
  file's path instead of compile commands;
- its *inputs*: the main file and every file the compiler read for it, system
  headers included, as the compiler's dependency output listed them at the
  analysis (runner.depfile_args), or the Python file alone, and one SHA-256
  over their paths and contents.

An entry, DIR/<key[:2]>/<key>.json.gz (gzip-compressed JSON: a LibTorch
file has some 3,000 inputs), holds the results of up to MAX_VARIANTS
sets of inputs (newest first). A lookup hits when the inputs of a variant
still have its digest, so a changed header re-analyses exactly the units that
included it. Failed analyses are not stored.

Sharing between jobs: an entry is written to a temporary file next to it and
renamed over the old one, so a reader sees a whole entry; two writers of one
key lose one of their variants and nothing else. An entry that cannot be read
(truncated, not JSON, another format) is a miss with a warning and is
rewritten. A hit refreshes the entry's modification time; `evict()` deletes
the least recently used entries until the cache is below 80 % of its limit.
"""

import gzip
import hashlib
import json
import os
import re
import tempfile
import time
import zlib

from .findings import Finding, Location, Note, Replacement

FORMAT = 1
SUFFIX = ".json.gz"
MAX_VARIANTS = 4
DEFAULT_MAX_SIZE = 256 << 20
_STALE_TEMP_SECONDS = 3600


class CacheError(Exception):
    pass


def parse_size(text):
    """'512M', '2G', '100k', '1048576' -> bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)i?[bB]?\s*", text)
    if not m:
        raise CacheError(f"bad size '{text}' (e.g. 500M, 2G)")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30,
             "t": 1 << 40}[m.group(2).lower()]
    return int(float(m.group(1)) * scale)


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _digest(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode(
        "utf-8", "surrogateescape")).hexdigest()


class Hasher:
    """SHA-256 of files, each read once per run (headers are shared)."""

    def __init__(self):
        self._known = {}

    def get(self, path):
        """The file's hash, or None when it cannot be read."""
        if path not in self._known:
            try:
                self._known[path] = file_sha256(path)
            except OSError:
                self._known[path] = None
        return self._known[path]


def tool_identity(driver_argv, version_output, package_version):
    """What makes another tool give other findings: the files of the driver
    and the plugins (by content, wherever they are) and its version text."""
    parts = {"format": FORMAT, "streamsafe-ci": package_version,
             "version": version_output, "files": []}
    for arg in driver_argv:
        path = arg.split("=", 1)[1] if arg.startswith("--load=") else arg
        try:
            parts["files"].append(file_sha256(os.path.realpath(path)))
        except OSError:
            parts["files"].append(None)
    return _digest(parts)


def _finding_to_json(f):
    loc = lambda l: [l.path, l.line, l.column, l.offset]  # noqa: E731
    return {"check": f.check, "level": f.level, "message": f.message,
            "location": loc(f.location),
            "notes": [[n.message, loc(n.location)] for n in f.notes],
            "fixes": [[r.path, r.offset, r.length, r.text] for r in f.fixes]}


def _finding_from_json(d):
    loc = lambda l: Location(str(l[0]), int(l[1]), int(l[2]), int(l[3]))  # noqa: E731
    return Finding(str(d["check"]), str(d["level"]), str(d["message"]),
                   loc(d["location"]),
                   [Note(str(m), loc(l)) for m, l in d["notes"]],
                   [Replacement(str(p), int(o), int(n), str(t))
                    for p, o, n, t in d["fixes"]])


class Stats:
    def __init__(self):
        self.hits = 0
        self.misses = 0          # no entry for the key
        self.changed = 0         # an entry, but some input changed
        self.corrupt = 0         # an entry that cannot be read: a miss
        self.stored = 0
        self.not_stored = 0      # failed analyses, or no dependency output
        self.evicted = 0


class ResultCache:
    def __init__(self, directory, max_size, tool_id, options, warn):
        self.dir = os.path.abspath(directory)
        self.max_size = max_size
        self.warn = warn
        self.stats = Stats()
        self.hasher = Hasher()
        self._base = {"tool": tool_id, "options": options}
        self._config_files = {}
        self.python_tool = None   # tool_identity() of streamsafe-py
        try:
            os.makedirs(self.dir, exist_ok=True)
        except OSError as e:
            raise CacheError(f"cannot create the cache directory "
                             f"{self.dir}: {e}") from e

    # --- keys ------------------------------------------------------------

    def _clang_tidy_files(self, directory):
        """[(path, hash or None)] of .clang-tidy from `directory` up to /."""
        if directory not in self._config_files:
            path = os.path.join(directory, ".clang-tidy")
            here = [(path, self.hasher.get(path)
                     if os.path.isfile(path) else None)]
            parent = os.path.dirname(directory)
            rest = (self._clang_tidy_files(parent)
                    if parent != directory else [])
            self._config_files[directory] = here + rest
        return self._config_files[directory]

    def key(self, unit):
        parts = dict(
            self._base,
            config=self._clang_tidy_files(os.path.dirname(unit.file)),
            commands=[[c.directory, c.arguments, c.file]
                      for c in unit.commands])
        if getattr(unit, "kind", "c++") == "python":
            # Analysed by streamsafe-py: its identity instead of the C++
            # driver's, and the file itself.
            parts.update(tool=self.python_tool, file=unit.file)
        return _digest(parts)

    def _path(self, key):
        return os.path.join(self.dir, key[:2], key + SUFFIX)

    # --- lookup and store ------------------------------------------------

    _CORRUPT = object()

    def _read(self, path, quiet=False):
        """The entry's variants; None when there is none, _CORRUPT when it
        cannot be used."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            return None
        except OSError as e:
            if not quiet:
                self.warn(f"cannot read cache entry {path}: {e}")
            return self._CORRUPT
        try:
            data = json.loads(gzip.decompress(raw).decode(
                "utf-8", "surrogateescape"))
            if data.get("format") != FORMAT:
                raise ValueError(f"format {data.get('format')!r}, "
                                 f"expected {FORMAT}")
            variants = data["variants"]
            for v in variants:   # the whole entry must be usable
                if not all(isinstance(p, str) for p in v["inputs"]) or \
                        not isinstance(v["digest"], str):
                    raise TypeError("inputs are not paths and a digest")
                for f in v["findings"]:
                    _finding_from_json(f)
                list(v["dropped"])
            return variants
        except (ValueError, KeyError, TypeError, IndexError, AttributeError,
                EOFError, OSError, zlib.error) as e:
            if not quiet:
                self.warn(f"ignoring corrupted cache entry {path} "
                          f"({type(e).__name__}: {e})")
            return self._CORRUPT

    def _digest_of(self, inputs):
        """One hash of the inputs' paths and contents (None if one is
        missing): an entry stores it instead of a hash per input."""
        h = hashlib.sha256()
        for p in inputs:
            content = self.hasher.get(p)
            if content is None:
                return None
            h.update(f"{p}\0{content}\n".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def lookup(self, key):
        """-> (findings, dropped) of a variant whose inputs are unchanged,
        or None."""
        path = self._path(key)
        variants = self._read(path)
        if variants is self._CORRUPT:
            self.stats.corrupt += 1
            return None
        if not variants:
            self.stats.misses += 1
            return None
        for v in variants:
            if self._digest_of(v["inputs"]) == v["digest"]:
                self.stats.hits += 1
                try:
                    os.utime(path)       # recently used: evicted last
                except OSError:
                    pass
                return ([_finding_from_json(f) for f in v["findings"]],
                        list(v["dropped"]))
        self.stats.changed += 1
        return None

    def store(self, key, result):
        """Records a unit's successful analysis (a runner.UnitResult with
        the files it read); failed ones and hits are not stored."""
        if result.cached:
            return
        if result.failed or result.inputs is None:
            self.stats.not_stored += 1
            return
        inputs = result.inputs
        for p in inputs:
            # Gone, or changed while the driver ran: cannot vouch for it.
            if self.hasher.get(p) is None or _mtime(p) > result.started:
                self.stats.not_stored += 1
                return
        digest = self._digest_of(inputs)
        findings, dropped = result.findings, result.dropped
        variant = {"inputs": inputs, "digest": digest,
                   "findings": [_finding_to_json(f) for f in findings],
                   "dropped": list(dropped)}
        path = self._path(key)
        old = self._read(path, quiet=True)
        old = [v for v in old if v["digest"] != digest] if isinstance(
            old, list) else []
        data = {"format": FORMAT, "variants": [variant] +
                old[:MAX_VARIANTS - 1]}
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            blob = gzip.compress(json.dumps(data, separators=(",", ":")).encode(
                "utf-8", "surrogateescape"), compresslevel=6, mtime=0)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX,
                                       dir=os.path.dirname(path))
            try:
                with os.fdopen(fd, "wb") as f:
                    os.fchmod(f.fileno(), 0o644)   # for jobs of other users
                    f.write(blob)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as e:
            self.warn(f"cannot write cache entry {path}: {e}")
            self.stats.not_stored += 1
            return
        self.stats.stored += 1

    # --- size ------------------------------------------------------------

    def _entries(self):
        """[(mtime, size, path)] of the entries; drops stale temp files."""
        found = []
        now = time.time()
        for base, _, files in os.walk(self.dir):
            for name in files:
                path = os.path.join(base, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if name.startswith(".tmp-"):
                    if now - st.st_mtime > _STALE_TEMP_SECONDS:
                        _remove(path)
                    continue
                if name.endswith(SUFFIX):
                    found.append((st.st_mtime, st.st_size, path))
        return found

    def evict(self):
        """Deletes least recently used entries while the cache is over its
        limit; -> (entries, bytes) left."""
        entries = self._entries()
        total = sum(size for _, size, _ in entries)
        if total <= self.max_size:
            return len(entries), total
        target = self.max_size * 0.8
        left = len(entries)
        for _, size, path in sorted(entries):
            if total <= target:
                break
            if _remove(path):
                self.stats.evicted += 1
                left -= 1
                total -= size
        return left, total

    def summary(self, entries, size):
        s = self.stats
        missed = s.misses + s.changed + s.corrupt
        text = (f"cache: {s.hits} hit{'' if s.hits == 1 else 's'}, {missed} "
                f"miss{'' if missed == 1 else 'es'} ({s.misses} new, "
                f"{s.changed} with changed inputs, {s.corrupt} corrupted), "
                f"{s.stored} stored, {s.not_stored} not stored (failed); "
                f"{entries} entries, {_mib(size)} of {_mib(self.max_size)}")
        if s.evicted:
            text += f", {s.evicted} evicted"
        return text


def _remove(path):
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def _mtime(path):
    try:
        return os.stat(path).st_mtime
    except OSError:
        return float("inf")


def _mib(n):
    if n < 1 << 20:
        return f"{n >> 10} KiB"
    return f"{n / (1 << 20):.1f} MiB"
