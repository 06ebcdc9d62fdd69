#!/usr/bin/env python3
"""Compares the findings of the parity test's program pair.

    compare_parity.py parity.json CPP_OUTPUT PY_OUTPUT

parity.json is gen_parity.py's index of scenarios (their lines in both
files, the rows they cover, the checks they are expected to report).
CPP_OUTPUT is the streamsafe driver's output on parity.cpp, PY_OUTPUT
streamsafe-py's on parity.py. Fails when, for any scenario, the two differ
in a warning or a note (line, check, text; columns are not compared), when
a scenario's warnings are not the checks it expects, or when the C++ file
did not compile. A known disagreement (gen_parity.py's KNOWN_DISAGREEMENTS)
must still differ, with Python giving what the scenario expects: when the
two agree, it is time to move it into the generator's tables. Prints each difference with the scenario and its rows.
"""
import json
import re
import sys

LINE = re.compile(r"^(.*?):(\d+):(\d+): (warning|note|error): (.*)$")


# Words lib/report gives each language on purpose (its advice names the
# language's own API): Python's are read as C++'s.
LANGUAGE_WORDS = [
    ("use a `with torch.cuda.stream(...)` block to set the stream for a scope",
     "use a c10::cuda::CUDAStreamGuard to set the stream for a scope"),
]


def same_words(text):
    for py, cpp in LANGUAGE_WORDS:
        text = text.replace(py, cpp)
    return text


def findings(path, source_suffix):
    """[(warning line, warning text, ((note line, note text), ...))], and the
    errors. A note in another file than the analysed one keeps its file."""
    groups, errors = [], []
    with open(path, encoding="utf-8") as f:
        for m in map(LINE.match, f.read().splitlines()):
            if not m:
                continue
            file, line, kind, text = m.group(1), int(m.group(2)), \
                m.group(4), same_words(m.group(5))
            if kind == "error":
                errors.append(m.group(0))
                continue
            where = line if file.endswith(source_suffix) else "%s:%d" % (
                file, line)
            if kind == "warning" or not groups:
                groups.append([where, text, []])
            else:
                groups[-1][2].append((where, text))
    return [(w, t, tuple(n)) for w, t, n in groups], errors


def check_of(text):
    m = re.search(r"\[streamsafe-([a-z-]+)\]$", text)
    return m.group(1) if m else text


def by_scenario(index, groups):
    out = {sc["name"]: [] for sc in index}
    stray = []
    for g in groups:
        for sc in index:
            if isinstance(g[0], int) and sc["first"] <= g[0] <= sc["last"]:
                out[sc["name"]].append(g)
                break
        else:
            stray.append(g)
    for v in out.values():
        v.sort(key=lambda g: (g[0], g[1], g[2]))
    return out, stray


def show(g):
    lines = ["    %s: warning: %s" % g[:2]]
    lines += ["    %s: note: %s" % n for n in g[2]]
    return "\n".join(lines)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: compare_parity.py parity.json CPP_OUTPUT PY_OUTPUT")
    with open(sys.argv[1], encoding="utf-8") as f:
        index = json.load(f)
    cpp, cpp_errors = findings(sys.argv[2], ".cpp")
    py, py_errors = findings(sys.argv[3], ".py")
    bad = 0
    for e in cpp_errors + py_errors:
        print("error in the generated program: " + e)
        bad += 1
    cpp_by, cpp_stray = by_scenario(index, cpp)
    py_by, py_stray = by_scenario(index, py)
    for lang, stray in (("C++", cpp_stray), ("Python", py_stray)):
        for g in stray:
            print("%s finding outside every scenario:\n%s" % (lang, show(g)))
            bad += 1
    rows = set()
    known = 0
    for sc in index:
        if not sc.get("known_disagreement"):
            rows.update(sc["rows"])
        a, b = cpp_by[sc["name"]], py_by[sc["name"]]
        what = "%s (%s)" % (sc["name"], ", ".join(sc["rows"]) or
                            "twin of %s" % sc["twin_of"] if sc["twin_of"]
                            else ", ".join(sc["rows"]) or "naming convention")
        if sc.get("known_disagreement"):
            # Expected to differ, with the C++ side wrong; when both agree
            # the pair belongs in the generator's tables.
            if a == b:
                bad += 1
                print("AGREES NOW: %s, a known disagreement (lines %d-%d): "
                      "move it from KNOWN_DISAGREEMENTS into the tables of "
                      "gen_parity.py" % (what, sc["first"], sc["last"]))
            else:
                known += 1
            if sorted(check_of(g[1]) for g in b) != sc["expect"]:
                bad += 1
                print("UNEXPECTED: %s: Python reports [%s], the scenario "
                      "expects [%s]" % (what, ", ".join(
                          sorted(check_of(g[1]) for g in b)),
                          ", ".join(sc["expect"])))
            continue
        if a != b:
            bad += 1
            print("DIFFERENT: %s, lines %d-%d" % (what, sc["first"],
                                                  sc["last"]))
            for g in a:
                if g not in b:
                    print("  only C++:\n" + show(g))
            for g in b:
                if g not in a:
                    print("  only Python:\n" + show(g))
        got = sorted(check_of(g[1]) for g in a)
        if got != sc["expect"]:
            bad += 1
            print("UNEXPECTED: %s: C++ reports [%s], the scenario expects [%s]"
                  % (what, ", ".join(got), ", ".join(sc["expect"])))
        got_py = sorted(check_of(g[1]) for g in b)
        if got_py != sc["expect"] and a != b:
            print("UNEXPECTED: %s: Python reports [%s]" % (
                what, ", ".join(got_py)))
    print("%d scenarios covering %d rows; %d warnings from C++, %d from Python;"
          " %d known disagreements; %d problems"
          % (len(index), len(rows), len(cpp), len(py), known, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
