#!/bin/sh
# StreamSafe benchmark: overhead over clang-tidy's own parse, scaling with
# function size, no-stream code, peer checks, whole-project throughput.
# Method and results: docs/performance.md.
#
#   bench/run.sh            full run (about 9 minutes on 2 shared cores), writes
#                           bench/results/<date>.json
#   bench/run.sh --quick    smoke test (well under a minute), writes
#                           bench/results/<date>-quick.json; its exit status
#                           never depends on timing (CI may run it)
#   bench/run.sh --help     all options (--driver, --json, --sections, ...)
#
# The driver is build/bin/streamsafe unless --driver or $STREAMSAFE says
# otherwise; build it first (cmake --build build).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "${PYTHON:-python3}" "$here/bench.py" "$@"
