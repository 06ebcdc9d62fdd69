#!/bin/bash
# Sets up, builds and runs the whole test suite with lit: the checks' tests
# (through the plugin and the driver), the tools' tests, the unit tests, the
# meta tests (docs, formatting) and the other suites under test/. Extra
# arguments go to lit (e.g. --filter default-stream). The last line is
# "N passed, N failed"; the exit status is non-zero on any failure.
#
# --offline (first argument; CI uses it): after the set-up, which may use the
# network, lit runs with the proxy variables pointing at a closed port and
# npm set offline (lit --param offline=1): the suite must pass without
# reaching the network.
set -uo pipefail
cd "$(dirname "$0")/.."

lit_params=()
if [[ ${1:-} == --offline ]]; then
  shift
  lit_params+=(--param offline=1)
fi

scripts/setup.sh || exit 1
scripts/build.sh || exit 1

results=build/test-results.json
rm -f "$results"
start=$(date +%s)
/usr/lib/llvm-22/bin/lit -sv --time-tests -o "$results" "${lit_params[@]}" build/test "$@"
lit_status=$?
echo "test: lit ran in $(($(date +%s) - start)) s"

python3 - "$results" "$lit_status" <<'PY'
import json, sys
path, lit_status = sys.argv[1], int(sys.argv[2])
try:
    tests = json.load(open(path))["tests"]
except (OSError, ValueError, KeyError):
    tests = []
PASSED = {"PASS", "XFAIL"}
SKIPPED = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}
passed = sum(t["code"] in PASSED for t in tests)
skipped = sum(t["code"] in SKIPPED for t in tests)
failed = len(tests) - passed - skipped
if lit_status != 0 and failed == 0:
    failed = 1  # lit itself failed (e.g. a broken configuration)
if skipped:
    print("%d skipped" % skipped)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
