#!/usr/bin/env python3
"""Compares two outputs (the C++ driver's and streamsafe-py's) without their
locations: the same warnings with the same check names, each with the same
notes in the same order. The order of the findings themselves is not
compared: clang-tidy 19 sorts two findings on one line by check name, later
versions keep the order they were reported in. The advice that names each
language's scoped guard is compared as one. Prints both sides' findings
where they differ."""
import re
import sys

LINE = re.compile(r"^.*?:\d+:\d+: (warning|note): (.*)$")
# "(use a c10::cuda::CUDAStreamGuard ...)", "(use a `with torch.cuda.stream(
# ...)` block ...)": the same advice, in each language's words.
GUARD_ADVICE = re.compile(r"\(use a .* to set the stream for a scope\)")


def findings(path):
    """The lines of each finding (a warning and its notes), sorted."""
    groups = []
    with open(path, encoding="utf-8") as f:
        for m in map(LINE.match, f.read().splitlines()):
            if not m:
                continue
            if m.group(1) == "warning" or not groups:
                groups.append([])
            text = GUARD_ADVICE.sub("(use a scoped guard)", m.group(2))
            groups[-1].append(m.group(1) + ": " + text)
    return sorted(groups)


cpp, py = findings(sys.argv[1]), findings(sys.argv[2])
print("%d lines from C++, %d from Python"
      % (sum(map(len, cpp)), sum(map(len, py))))
if not cpp:
    sys.exit("no findings from C++: the test compares nothing")
if cpp != py:
    for a, b in zip(cpp + [[]] * len(py), py + [[]] * len(cpp)):
        if a != b:
            print("C++:    " + " | ".join(a))
            print("Python: " + " | ".join(b))
    sys.exit(1)
