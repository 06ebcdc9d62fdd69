#!/bin/bash
# Sets up, builds and runs the whole test suite with lit: the checks' tests
# (through the plugin and the driver), the tools' tests, the unit tests, the
# meta tests (docs, formatting) and the other suites under test/. Extra
# arguments go to lit (e.g. --filter default-stream). The last line is
# "N passed, N failed"; the exit status is non-zero on any failure.
#
# --offline (CI uses it): after the set-up, which may use the network, lit
# runs with the proxy variables pointing at a closed port and npm set
# offline (lit --param offline=1): the suite must pass without reaching the
# network. --llvm N (default 22): set up, build and test against LLVM N, in
# build-llvmN/ (tested: 22 and 19; CI runs test/checkers with 19).
# Both options come before the lit arguments.
set -uo pipefail
cd "$(dirname "$0")/.."

lit_params=()
llvm=22
while (($#)); do
  case $1 in
    --offline) lit_params+=(--param offline=1); shift ;;
    --llvm) llvm=${2:?--llvm needs a version}; shift 2 ;;
    *) break ;;
  esac
done
dir=build
[[ $llvm == 22 ]] || dir=build-llvm$llvm

scripts/setup.sh --llvm "$llvm" || exit 1
scripts/build.sh --llvm "$llvm" || exit 1

results=$dir/test-results.json
rm -f "$results"
start=$(date +%s)
# lit itself is Python and the same for every LLVM; the tools the tests run
# (clang-tidy, FileCheck, not) are the build's LLVM's (lit.site.cfg.py).
/usr/lib/llvm-22/bin/lit -sv --time-tests -o "$results" "${lit_params[@]}" "$dir/test" "$@"
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
