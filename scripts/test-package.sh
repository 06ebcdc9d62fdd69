#!/bin/bash
# Tests the Debian package that scripts/package.sh builds: lintian finds no
# error in it; extracted with dpkg-deb -x into a temporary directory (not
# installed), its driver finds the bugs of examples/side_stream.cpp, its
# plugin loads into clang-tidy-22 and finds the same, its streamsafe-py finds
# the bugs of examples/side_stream.py, its streamsafe-ci runs with the
# driver and streamsafe-py next to it; its man pages, hook file and Depends
# (no tree-sitter or zlib package: streamsafe-py has them linked in) are
# there.
# CI runs it before the suite (.ci/run). Ends "package: N passed, N failed".
set -uo pipefail
# Under pipefail, `cmd | grep -q` fails at random: grep quits at the first
# match and cmd (or tee) dies of SIGPIPE. So grep reads all and prints to
# /dev/null.
cd "$(dirname "$0")/.."

if ! out=$(scripts/package.sh 2>&1); then
  printf '%s\n' "$out"
  echo "package: 0 passed, 1 failed"
  exit 1
fi
printf '%s\n' "$out" | grep '^package:'
deb=$(printf '%s\n' "$out" | sed -n 's/^package: \(.*\.deb\) (.*/\1/p' | tail -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
example=examples/side_stream.cpp
py_example=examples/side_stream.py
llvm_major=$(build/bin/streamsafe --version | sed -n 's/.*LLVM version \([0-9]*\)\..*/\1/p')
passed=0
failed=0

check() {
  local name=$1
  shift
  if "$@" >"$tmp/log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS: package: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: package: $name"
    tail -n 40 "$tmp/log" | sed 's/^/    /'
  fi
}

lintian_clean() {
  # --fail-on error is lintian's default; warnings are shown, not fatal.
  lintian --fail-on error --display-level '>=warning' "$deb"
  local status=$?
  echo "lintian exit status $status"
  return $status
}

extract() {
  dpkg-deb -x "$deb" "$root" && ls -R "$root" >/dev/null
}

# The warnings of a run, without paths, for comparisons.
warnings() { grep -o 'warning: .*\[streamsafe-[a-z-]*\]' | sort; }

driver_finds_bugs() {
  readelf -d "$root/usr/bin/streamsafe" | grep RUNPATH >/dev/null &&
    { echo "the installed driver has a RUNPATH"; return 1; }
  "$root/usr/bin/streamsafe" -p build/examples --quiet "$example" >"$tmp/driver.txt" 2>&1
  cat "$tmp/driver.txt"
  grep -q 'warning: .*\[streamsafe-missing-record-stream\]' "$tmp/driver.txt" &&
    grep -q 'warning: .*\[streamsafe-unsynchronized-access\]' "$tmp/driver.txt"
}

plugin_loads() {
  local plugin
  plugin=$(find "$root/usr/lib" -name libStreamSafe.so)
  [[ $plugin == "$root"/usr/lib/*/streamsafe/libStreamSafe.so ]] ||
    { echo "no plugin in /usr/lib/<multiarch>/streamsafe: $plugin"; return 1; }
  "clang-tidy-$llvm_major" --load="$plugin" --checks='-*,streamsafe-*' \
    --list-checks | tee "$tmp/list.txt"
  grep -q 'streamsafe-missing-record-stream' "$tmp/list.txt" || return 1
  "clang-tidy-$llvm_major" --load="$plugin" --checks='-*,streamsafe-*' \
    -p build/examples --quiet "$example" >"$tmp/plugin.txt" 2>&1
  cat "$tmp/plugin.txt"
  [[ -n $(warnings <"$tmp/plugin.txt") ]] &&
    diff <(warnings <"$tmp/driver.txt") <(warnings <"$tmp/plugin.txt")
}

py_finds_bugs() {
  local py=$root/usr/bin/streamsafe-py status=0
  readelf -d "$py" | grep RUNPATH >/dev/null &&
    { echo "the installed streamsafe-py has a RUNPATH"; return 1; }
  # The grammar, tree-sitter's runtime and zlib are linked in: only the C
  # and C++ runtimes are loaded.
  ldd "$py" >"$tmp/py-ldd.txt"
  cat "$tmp/py-ldd.txt"
  grep -q 'not found' "$tmp/py-ldd.txt" && return 1
  awk '$1 != "linux-vdso.so.1" && $1 !~ /^\/.*ld-linux/ {print $1}' "$tmp/py-ldd.txt" |
    grep -vxE 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so\.[0-9]+' >"$tmp/py-extra.txt" &&
    { echo "streamsafe-py loads more than the C and C++ runtimes:"; cat "$tmp/py-extra.txt"; return 1; }
  "$py" --version | grep "^streamsafe-py " >/dev/null || return 1
  "$py" "$py_example" >"$tmp/py.txt" 2>&1 || status=$?
  cat "$tmp/py.txt"
  echo "exit status $status (1: findings)"
  [[ $status == 1 ]] &&
    grep -q 'warning: .*\[streamsafe-missing-record-stream\]' "$tmp/py.txt" &&
    grep -q 'warning: .*\[streamsafe-unsynchronized-access\]' "$tmp/py.txt"
}

ci_gate_runs_python() {
  # The packaged streamsafe-ci finds the packaged streamsafe-py next to
  # itself; Python files need no compile database.
  local status=0
  "$root/usr/bin/streamsafe-ci" -p "$tmp/none" --root "$PWD" -f sarif \
    -o "$tmp/ci-py.sarif" "$py_example" || status=$?
  echo "exit status $status (1: findings)"
  [[ $status == 1 ]] &&
    grep -q '"uri": "examples/side_stream.py"' "$tmp/ci-py.sarif" &&
    grep -q '"ruleId": "streamsafe-missing-record-stream"' "$tmp/ci-py.sarif"
}

ci_gate_runs() {
  "$root/usr/bin/streamsafe-ci" --version | grep "streamsafe-ci " >/dev/null || return 1
  local status=0
  "$root/usr/bin/streamsafe-ci" -p build/examples --root "$PWD" -f sarif \
    -o "$tmp/ci.sarif" "$example" || status=$?
  echo "exit status $status (1: findings)"
  # Findings from the packaged driver, with help from the packaged pages.
  [[ $status == 1 ]] && grep -q '"ruleId": "streamsafe-missing-record-stream"' "$tmp/ci.sarif" &&
    grep -q '"markdown": ".' "$tmp/ci.sarif"
}

files_there() {
  local f
  for f in usr/share/man/man1/streamsafe.1.gz usr/share/man/man1/streamsafe-ci.1.gz \
    usr/share/man/man1/streamsafe-py.1.gz \
    usr/share/streamsafe/pre-commit-hooks.yaml usr/share/doc/streamsafe/copyright \
    usr/share/doc/streamsafe/README.md usr/share/doc/streamsafe/docs/ci.md \
    usr/share/streamsafe/docs/checks/missing-record-stream.md; do
    [[ -s $root/$f ]] || { echo "missing: /$f"; return 1; }
  done
  zcat "$root/usr/share/man/man1/streamsafe-ci.1.gz" | grep 'cache\\-stats' >/dev/null &&
    zcat "$root/usr/share/man/man1/streamsafe.1.gz" | grep 'list\\-checks' >/dev/null &&
    zcat "$root/usr/share/man/man1/streamsafe-py.1.gz" | grep 'list\\-checks' >/dev/null &&
    grep -q '^Files: usr/bin/streamsafe-py' "$root/usr/share/doc/streamsafe/copyright"
}

depends_right() {
  local depends
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "Depends: $depends"
  for pkg in "libclang-cpp$llvm_major" "libllvm$llvm_major" python3 libc6 libstdc++6; do
    [[ ", $depends," == *", $pkg "* || ", $depends," == *", $pkg,"* ]] ||
      { echo "no $pkg"; return 1; }
  done
  # streamsafe-py has its grammar, tree-sitter and zlib linked in: no
  # tree-sitter package (runtime, grammar or -dev) and no zlib.
  [[ $depends != *tree-sitter* && $depends != *zlib* ]] ||
    { echo "a tree-sitter or zlib package in Depends"; return 1; }
}

check "lintian reports no error" lintian_clean
check "dpkg-deb -x extracts it" extract
check "its driver finds the bugs of $example" driver_finds_bugs
check "its plugin loads into clang-tidy-$llvm_major and finds the same" plugin_loads
check "its streamsafe-py finds the bugs of $py_example" py_finds_bugs
check "its streamsafe-ci runs the packaged driver" ci_gate_runs
check "its streamsafe-ci runs the packaged streamsafe-py" ci_gate_runs_python
check "man pages, hook file, docs" files_there
check "Depends: the LLVM runtime libraries, python3, no tree-sitter or zlib" depends_right
echo "package: $passed passed, $failed failed"
((failed == 0))
