#!/usr/bin/env python3
"""Compares two outputs (the C++ driver's and streamsafe-py's) without their
locations: the same warnings with the same check names, the same notes, in
the same order. Prints both sides' lines where they differ."""
import re
import sys

LINE = re.compile(r"^.*?:\d+:\d+: (warning|note): (.*)$")


def findings(path):
    with open(path, encoding="utf-8") as f:
        return [m.group(1) + ": " + m.group(2)
                for m in map(LINE.match, f.read().splitlines()) if m]


cpp, py = findings(sys.argv[1]), findings(sys.argv[2])
print("%d lines from C++, %d from Python" % (len(cpp), len(py)))
if not cpp:
    sys.exit("no findings from C++: the test compares nothing")
if cpp != py:
    for a, b in zip(cpp + [""] * len(py), py + [""] * len(cpp)):
        if a != b:
            print("C++:    " + a)
            print("Python: " + b)
    sys.exit(1)
