#!/usr/bin/env python3
"""Unit tests of streamsafe-ci's pure parts: the export-fixes YAML reader,
the nvcc translation, globs, shards, fingerprints and SARIF rule metadata."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, os.pardir, "tools"))

from streamsafe_ci import compdb, findings, rules, selection, tidyyaml  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
