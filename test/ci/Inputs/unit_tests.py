#!/usr/bin/env python3
"""Unit tests of streamsafe-ci's pure parts: the export-fixes YAML reader,
the nvcc translation, globs, shards, fingerprints, SARIF rule metadata, the
dependency output reader and the result cache's entries."""
import gzip
import json
import os
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, os.pardir, "tools"))

from streamsafe_ci import cache, compdb, findings, rules, runner  # noqa: E402
from streamsafe_ci import pyrunner, selection, tidyyaml  # noqa: E402


class TidyYaml(unittest.TestCase):
    def test_clang_tidy_output(self):
        text = r"""---
MainSourceFile:  '/p/m.cpp'
Diagnostics:
  - DiagnosticName:  bugprone-use-after-move
    DiagnosticMessage:
      Message:         '''a'' used after it was moved'
      FilePath:        '/p/m.cpp'
      FileOffset:      125
      Replacements:    []
    Notes:
      - Message:         move occurred here
        FilePath:        '/p/m.cpp'
        FileOffset:      105
        Replacements:    []
    Level:           Warning
    BuildDirectory:  '/p'
  - DiagnosticName:  readability-braces-around-statements
    DiagnosticMessage:
      Message:         "variable 'é' \"x\"\ttab\x41\u00e9"
      FilePath:        '/p/u.cpp'
      FileOffset:      23
      Replacements:
        - FilePath:        '/p/u.cpp'
          Offset:          37
          Length:          0
          ReplacementText: "\n}"
      Ranges:
        - FilePath:        '/p/u.cpp'
          FileOffset:      17
          Length:          16
    Level:           Error
    BuildDirectory:  '/p'
...
"""
        doc = tidyyaml.loads(text)
        d0, d1 = doc["Diagnostics"]
        self.assertEqual(d0["DiagnosticMessage"]["Message"],
                         "'a' used after it was moved")
        self.assertEqual(d0["Notes"][0]["Message"], "move occurred here")
        self.assertEqual(d0["Notes"][0]["FileOffset"], "105")
        self.assertEqual(d0["DiagnosticMessage"]["Replacements"], [])
        self.assertEqual(d1["DiagnosticMessage"]["Message"],
                         "variable 'é' \"x\"\ttabAé")
        self.assertEqual(d1["DiagnosticMessage"]["Replacements"][0]
                         ["ReplacementText"], "\n}")
        self.assertEqual(d1["Level"], "Error")

    def test_rejects_what_it_does_not_know(self):
        for bad in ("Diagnostics: |\n  x\n", "A: 'unterminated\n",
                    "A:\n  - B: 1\n   C: 2\n"):
            with self.assertRaises(tidyyaml.YamlError, msg=bad):
                tidyyaml.loads(bad)


def translate(command, file="/p/a.cu", cuda_path="/opt/cuda"):
    cmd = compdb.CompileCommand("/p/build", file, command.split())
    return compdb.translate(cmd, cuda_path)


class Nvcc(unittest.TestCase):
    def test_cmake_entry(self):
        t = translate("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                      "-DX=1 -I/inc -isystem=/sys -O3 "
                      "--generate-code=arch=compute_90,code=[compute_90,sm_90] "
                      "-Xcompiler=-fPIC -std=c++17 -x cu -c /p/a.cu -o a.o")
        self.assertEqual(t.arguments, [
            "clang++", "-DX=1", "-I/inc", "-isystem", "/sys", "-O3",
            "-std=c++17", "-x", "cuda", "-c", "/p/a.cu", "-o", "a.o",
            "--cuda-host-only", "--cuda-path=/opt/cuda",
            "-Wno-unknown-cuda-version"])
        self.assertTrue(t.cuda)

    def test_option_spellings(self):
        t = translate("nvcc --define-macro A --undefine-macro=B --include-path I "
                      "--system-include S --pre-include P.h --optimize 2 "
                      "--std c++20 --compile --output-file o.o -arch sm_90 "
                      "-arch=sm_80 --gpu-architecture=sm_70 -code=sm_90 "
                      "-t 4 --threads=2 -maxrregcount=32 -ftz=true "
                      "--machine 64 -Xptxas -v -Xptxas=-O3 -Xlinker -z "
                      "-Xnvlink --suppress-stack-size-warning -cudart shared "
                      "--relocatable-device-code true -dc -G -lineinfo "
                      "--disable-warnings --diag-suppress 177 "
                      "-Werror=cross-execution-space-call -Werror=unused "
                      "-Werror -Wall -default-stream=legacy "
                      "--keep-dir tmp --expt-relaxed-constexpr "
                      "-static-global-template-stub=true a.cu")
        self.assertEqual(t.arguments[:-3], [
            "clang++", "-DA", "-UB", "-II", "-isystem", "S", "-include", "P.h",
            "-O2", "-std=c++20", "-c", "-o", "o.o", "-m64", "-w",
            "-Werror=unused", "-Werror", "-Wall", "a.cu"])

    def test_xcompiler_keeps_what_parsing_needs(self):
        t = translate("nvcc -Xcompiler -fPIC,-DHOST=1,-isystem,/h,-fopenmp,"
                      "-fno-gnu-unique,-std=c++17 -x cu -c a.cu")
        self.assertEqual(t.arguments[1:6],
                         ["-DHOST=1", "-isystem", "/h", "-fopenmp", "-std=c++17"])
        self.assertIn("-Xcompiler=-fno-gnu-unique", t.dropped)

    def test_options_file(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "inc.rsp"), "w") as f:
                f.write('-I"/with space" -isystem=/sys\n--expt-extended-lambda')
            cmd = compdb.CompileCommand(d, "/p/a.cu", [
                "nvcc", "--options-file", "inc.rsp", "-optf=missing.rsp",
                "-c", "/p/a.cu"])
            t = compdb.translate(cmd, "/opt/cuda")
        self.assertEqual(t.arguments[:6],
                         ["clang++", "-I/with space", "-isystem", "/sys", "-c",
                          "/p/a.cu"])
        self.assertIn("-optf=missing.rsp (unreadable)", t.dropped)

    def test_per_thread_default_stream(self):
        t = translate("nvcc --default-stream per-thread -c a.cu")
        self.assertIn("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", t.arguments)

    def test_launcher_and_clang_cuda(self):
        t = translate("ccache clang++ -x cuda --cuda-gpu-arch=sm_90 "
                      "--cuda-path=/mine -c a.cu")
        self.assertEqual(t.arguments, [
            "clang++", "-x", "cuda", "--cuda-path=/mine", "-c", "a.cu",
            "--cuda-host-only", "-Wno-unknown-cuda-version"])
        self.assertEqual(t.dropped, ["ccache", "--cuda-gpu-arch=sm_90"])

    def test_cpp_untouched(self):
        t = translate("g++ -O2 -fno-gnu-unique -c a.cpp", file="/p/a.cpp")
        self.assertEqual(t.arguments, ["g++", "-O2", "-fno-gnu-unique", "-c",
                                       "a.cpp"])
        self.assertFalse(t.cuda)

    def test_cuda_path_from_nvcc_location(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "include"))
            open(os.path.join(d, "include", "cuda_runtime.h"), "w").close()
            self.assertEqual(compdb.default_cuda_path(None, d + "/bin/nvcc"), d)


class Selection(unittest.TestCase):
    def test_globs(self):
        r = selection.glob_to_regex("/p/src/**/*.cu")
        self.assertTrue(r.match("/p/src/a.cu"))
        self.assertTrue(r.match("/p/src/x/y/a.cu"))
        self.assertFalse(r.match("/p/src/a.cpp"))
        r = selection.glob_to_regex("/p/src/*.cu")
        self.assertFalse(r.match("/p/src/x/a.cu"))
        self.assertTrue(selection.glob_to_regex("/p/[ab].c?").match("/p/b.cc"))

    def test_shards_partition(self):
        units = [f"u{i:02}" for i in range(23)]
        parts = [selection.shard(units, k, 4) for k in range(1, 5)]
        self.assertEqual(sorted(sum(parts, [])), units)
        self.assertEqual(selection.shard(units, 2, 4), parts[1])
        for bad in ("0/2", "3/2", "1/0", "1-2", ""):
            with self.assertRaises(selection.SelectionError):
                selection.parse_shard(bad)


class Fingerprints(unittest.TestCase):
    def test_line_shift_and_occurrence(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.cu")

            def prints(text, lines):
                with open(path, "w") as f:
                    f.write(text)
                src = findings.SourceCache()
                fs = [findings.Finding("c", "warning", "m",
                                       findings.Location(path, n, 3, 0), [], [])
                      for n in lines]
                findings.assign_fingerprints(fs, d, src)
                return [f.fingerprint for f in fs]

            a = prints("x;\n  k<<<1,1>>>();\n  k<<<1,1>>>();\n", [2, 3])
            b = prints("\n\n// new\nx;\n    k<<<1, 1>>>();\n  k<<<1,1>>>();\n",
                       [5, 6])
            self.assertEqual(a, b)
            self.assertNotEqual(a[0], a[1])


class Rules(unittest.TestCase):
    def test_doc_page(self):
        full, help_md = rules.parse_doc(
            "# streamsafe-x\n\nFinds `foo` calls. More text\nhere.\n\n"
            "```cpp\ncode\n```\n\n## Options\nnone\n")
        self.assertEqual(full, "Finds foo calls. More text here.")
        self.assertIn("```cpp", help_md)
        self.assertNotIn("Options", help_md)

    def test_descriptor(self):
        cat = rules.RuleCatalog([], "https://example.org/docs")
        r = cat.describe("streamsafe-missing-record-stream")
        self.assertEqual(r["helpUri"],
                         "https://example.org/docs/missing-record-stream.md")
        self.assertTrue(r["shortDescription"]["text"].endswith("."))
        r = cat.describe("bugprone-use-after-move")
        self.assertEqual(r["helpUri"], "https://clang.llvm.org/extra/"
                         "clang-tidy/checks/bugprone/use-after-move.html")


class DepFile(unittest.TestCase):
    def test_make_syntax(self):
        text = ("streamsafe: /p/src/a.cpp ../include/x\\ y.h \\\n"
                "  /usr/include/c++/12/../../../include/c++/12/vector \\\n"
                "  /p/$$dollar.h /p/hash\\#.h\n")
        self.assertEqual(runner.parse_depfile(text, "/p/build"), [
            "/p/src/a.cpp", "/p/include/x y.h", "/usr/include/c++/12/vector",
            "/p/$dollar.h", "/p/hash#.h"])

    def test_no_rule(self):
        with self.assertRaises(ValueError):
            runner.parse_depfile("", "/p")

    def test_arguments_survive_clang_tidy(self):
        # clang-tidy drops every argument that starts with -M.
        for a in runner.depfile_args("/t/u.d"):
            self.assertTrue(a.startswith("-Xclang="), a)


class _Unit:
    def __init__(self, file, commands, kind="c++"):
        self.file, self.commands, self.kind = file, commands, kind


class _Result:
    def __init__(self, unit, findings, inputs, failed=False):
        self.unit, self.findings, self.inputs = unit, findings, inputs
        self.dropped, self.failed, self.cached = [], failed, False
        self.started = time.time()


class ResultCache(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.warnings = []
        self.src = os.path.join(self.dir, "src")
        os.makedirs(self.src)
        self.file = self.write("src/a.cpp", "int a;")
        self.header = self.write("src/a.h", "int h;")
        cmd = compdb.CompileCommand(self.src, self.file, ["c++", "-c", "a.cpp"])
        self.unit = _Unit(self.file, [cmd])
        loc = findings.Location(self.file, 1, 5, 4)
        self.finding = findings.Finding(
            "streamsafe-x", "warning", "msg", loc,
            [findings.Note("n", loc)],
            [findings.Replacement(self.file, 4, 0, ", s")])

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text, mtime=None):
        path = os.path.join(self.dir, rel)
        with open(path, "w") as f:
            f.write(text)
        if mtime is not None:
            os.utime(path, (mtime, mtime))
        return path

    def open(self, tool="tool-1", options=None, max_size=1 << 20):
        return cache.ResultCache(os.path.join(self.dir, "cache"), max_size,
                                 tool, options or {}, self.warnings.append)

    def analysed(self, c, failed=False):
        r = _Result(self.unit, [self.finding], [self.file, self.header],
                    failed)
        r.started = time.time() + 1   # the inputs are older than the run
        c.store(c.key(self.unit), r)

    def test_round_trip_and_changed_input(self):
        c = self.open()
        self.assertIsNone(c.lookup(c.key(self.unit)))
        self.analysed(c)
        c = self.open()
        found, dropped = c.lookup(c.key(self.unit))
        f = found[0]
        self.assertEqual((f.check, f.message, f.location.key(),
                          f.notes[0].message, f.fixes[0].text),
                         ("streamsafe-x", "msg", (self.file, 1, 5), "n", ", s"))
        self.write("src/a.h", "int h2;")
        c = self.open()
        self.assertIsNone(c.lookup(c.key(self.unit)))
        self.assertEqual((c.stats.hits, c.stats.changed), (0, 1))

    def test_variants(self):
        # Switching a header back and forth (branches) keeps both results.
        c = self.open()
        self.analysed(c)
        self.write("src/a.h", "int other;")
        c = self.open()
        self.analysed(c)
        self.write("src/a.h", "int h;")
        c = self.open()
        self.assertIsNotNone(c.lookup(c.key(self.unit)))

    def test_key_covers_tool_options_config_command(self):
        key = self.open().key(self.unit)
        self.assertNotEqual(key, self.open(tool="tool-2").key(self.unit))
        self.assertNotEqual(key, self.open(options={"checks": "x"}).key(
            self.unit))
        self.write("src/.clang-tidy", "Checks: '-*'")
        self.assertNotEqual(key, self.open().key(self.unit))
        other = _Unit(self.file, [compdb.CompileCommand(
            self.src, self.file, ["c++", "-DX", "-c", "a.cpp"])])
        self.assertNotEqual(self.open().key(self.unit),
                            self.open().key(other))

    def test_not_stored(self):
        c = self.open()
        self.analysed(c, failed=True)
        r = _Result(self.unit, [], [self.file, self.header])
        r.started = time.time() - 60     # an input changed during the run
        c.store(c.key(self.unit), r)
        self.assertEqual((c.stats.stored, c.stats.not_stored), (0, 2))
        self.assertIsNone(self.open().lookup(c.key(self.unit)))

    def test_corrupted_entries(self):
        c = self.open()
        self.analysed(c)
        path = c._path(c.key(self.unit))
        with open(path, "rb") as f:
            good = f.read()
        text = gzip.decompress(good).decode()
        for bad in (good[:len(good) // 2], b"not gzip",
                    gzip.compress(b"not json"), gzip.compress(b"[]"),
                    gzip.compress(b'{"format": 99}'),
                    gzip.compress(text.replace('"check"', '"chekc"')
                                  .encode())):
            with open(path, "wb") as f:
                f.write(bad)
            c = self.open()
            self.assertIsNone(c.lookup(c.key(self.unit)))
            self.assertEqual(c.stats.corrupt, 1)
            self.assertIn("ignoring corrupted cache entry", self.warnings[-1])
            self.analysed(c)                   # rewritten whole
            self.assertIsNotNone(self.open().lookup(c.key(self.unit)))

    def test_lru_eviction(self):
        c = self.open()
        paths = []
        for i in range(3):
            p = os.path.join(c.dir, "aa", f"{i}{cache.SUFFIX}")
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write("x" * 1000)
            os.utime(p, (1000 + i, 1000 + i))
            paths.append(p)
        os.utime(paths[0], (5000, 5000))      # a hit refreshed the oldest
        c.max_size = 2500
        self.assertEqual(c.evict(), (2, 2000))
        self.assertEqual([os.path.exists(p) for p in paths],
                         [True, False, True])
        c.max_size = 1500                      # down to 80 %: one left
        self.assertEqual(c.evict(), (1, 1000))
        self.assertTrue(os.path.exists(paths[0]))

    def test_concurrent_writers(self):
        # Jobs sharing the cache: every reader sees a whole entry.
        c = self.open()
        key = c.key(self.unit)
        errors = []

        def job():
            mine = self.open()
            for _ in range(20):
                self.analysed(mine)
                if mine.lookup(key) is None:
                    errors.append("miss")
        threads = [threading.Thread(target=job) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(self.warnings, [])
        left = [n for _, _, files in os.walk(c.dir) for n in files]
        self.assertEqual(left, [os.path.basename(c._path(key))])
        with gzip.open(c._path(key)) as f:
            self.assertEqual(len(json.load(f)["variants"]), 1)

    def test_sizes(self):
        self.assertEqual(cache.parse_size("512M"), 512 << 20)
        self.assertEqual(cache.parse_size("2G"), 2 << 30)
        self.assertEqual(cache.parse_size("1.5k"), 1536)
        self.assertEqual(cache.parse_size("100"), 100)
        with self.assertRaises(cache.CacheError):
            cache.parse_size("lots")


class PythonFiles(unittest.TestCase):
    """streamsafe-py's text output -> Findings; Python globs on disk; the
    cache key of a Python file."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.realpath(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_parse_output(self):
        path = self.write("a:b/t.py", "x = 1\n  y = é + z\n")
        out = (f"{path}:2:8: warning: a: b [c] [streamsafe-x]\n"
               f"{path}:1:1: note: first\n"
               "elsewhere.py:1:1: warning: not ours [streamsafe-x]\n"
               f"{path}:2:3: warning: second [streamsafe-y]\n")
        found = pyrunner.parse_output(path, out, findings.SourceCache())
        self.assertEqual([(f.check, f.message, f.location.key(),
                           f.location.offset, len(f.notes)) for f in found],
                         [("streamsafe-x", "a: b [c]", (path, 2, 8), 13, 1),
                          ("streamsafe-y", "second", (path, 2, 3), 8, 0)])
        self.assertEqual(found[0].notes[0].location.key(), (path, 1, 1))
        err = f"{path}:2:3: error: invalid Python syntax; the file is not analysed\n"
        e = pyrunner.parse_output(path, err, findings.SourceCache())[0]
        self.assertEqual((e.level, e.check), ("error", "python-syntax-error"))

    def test_globs(self):
        a = self.write("src/a.py", "")
        b = self.write("src/deep/b.py", "")
        self.write("src/c.cpp", "")
        self.write("src/.venv/d.py", "")
        is_py = pyrunner.is_python
        self.assertEqual(selection.glob_files("src/**/*.py", self.dir, is_py),
                         [a, b])
        self.assertEqual(selection.glob_files("src/*.py", self.dir, is_py),
                         [a])
        self.assertEqual(selection.glob_files("*/deep/?.py", self.dir, is_py),
                         [b])

    def test_cache_key(self):
        path = self.write("t.py", "")
        c = cache.ResultCache(os.path.join(self.dir, "cache"), 1 << 20,
                              "tool", {}, lambda w: None)
        c.python_tool = "py-1"
        key = c.key(_Unit(path, [], "python"))
        self.assertNotEqual(key, c.key(_Unit(path, [])))
        c.python_tool = "py-2"
        self.assertNotEqual(key, c.key(_Unit(path, [], "python")))


if __name__ == "__main__":
    unittest.main()
