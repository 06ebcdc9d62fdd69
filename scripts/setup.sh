#!/bin/bash
# Installs what StreamSafe needs on Debian 12 with apt-get. Quick and quiet
# when everything is already there (no apt-get update then); run as root or
# with sudo available. CUDA is not installed: its headers must already be in
# $CUDA_HOME (default /usr/local/cuda).
#
# It also fetches the Python grammar of streamsafe-py (tree-sitter-python,
# pinned by version and integrity hash) into .tools/tree-sitter-python: the
# build compiles its generated parser from there. And it installs the SARIF
# validator of the streamsafe-ci tests (Microsoft's SARIF Multitool, from
# npm) into .tools/sarif-multitool. These are the only steps that go to a
# package registry besides apt-get, and they run with your
# environment: npm gets your proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), your CA
# bundle (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, SSL_CERT_DIR), your npm_config_*
# variables and your ~/.npmrc. The tests only run what is installed here and
# never reach the network (scripts/test.sh --offline checks that).
#
# --llvm N also installs LLVM N's compiler, clang-tidy, libraries and test
# tools (scripts/build.sh --llvm N builds against it; tested: 19).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

llvm=22
if [[ ${1:-} == --llvm ]]; then
  llvm=${2:?--llvm needs a version}
fi

PACKAGES=(
  clang-22 clang-tidy-22 clang-format-22 libclang-22-dev llvm-22-dev
  llvm-22-tools          # lit, FileCheck, not
  libtorch-dev           # the real LibTorch headers the tests parse
  libgtest-dev ninja-build pre-commit
  libtree-sitter-dev     # the parser runtime of streamsafe-py (ABI <= 14),
                         # linked statically (libtree-sitter.a)
  zlib1g-dev             # libz.a: streamsafe-py links LLVM's Support statically
  python3-venv           # the wheel's install test (test/wheel)
  help2man lintian       # scripts/package.sh, scripts/test-package.sh
  neovim                 # the real LSP client of the streamsafe-py --lsp test
)
if [[ $llvm != 22 ]]; then
  PACKAGES+=("clang-$llvm" "clang-tidy-$llvm" "libclang-$llvm-dev"
    "llvm-$llvm-dev" "llvm-$llvm-tools")
fi
# Packages that a command of the same name from elsewhere also satisfies.
COMMANDS=(
  cmake python3 git
  npm                    # the Python grammar and the SARIF validator
  openssl                # checks the grammar's integrity hash
)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep "install ok installed" >/dev/null
}

missing=()
for p in "${PACKAGES[@]}"; do
  installed "$p" || missing+=("$p")
done
for c in "${COMMANDS[@]}"; do
  command -v "$c" >/dev/null || installed "$c" || missing+=("$c")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  if ! "${sudo[@]}" apt-get install -y -q "${missing[@]}" </dev/null; then
    echo "setup: apt-get could not install ${missing[*]}." >&2
    echo "setup: LLVM 22 comes from Debian 12's security/backports archives" \
      "or from https://apt.llvm.org (llvm-toolchain-bookworm-22); LLVM 19" \
      "from Debian 12 itself." >&2
    exit 1
  fi
fi

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -f $CUDA_HOME/include/cuda_runtime.h ]]; then
  echo "setup: no CUDA headers in $CUDA_HOME/include (cuda_runtime.h)." >&2
  echo "setup: install the CUDA toolkit (13.x) or set CUDA_HOME to it." >&2
  exit 1
fi

# The Python grammar of streamsafe-py: tree-sitter-python's generated
# parser.c and scanner.c, from npm, pinned by version and by the registry's
# integrity hash. Debian 12's libtree-sitter 0.20.7 loads grammars of ABI
# version 13 or 14; 0.23.6's parser.c says LANGUAGE_VERSION 14 (checked
# below). Never committed: the build compiles it from .tools.
TS_PYTHON_VERSION=0.23.6
TS_PYTHON_INTEGRITY=sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==
ts_dir=$root/.tools/tree-sitter-python
if [[ $(cat "$ts_dir/VERSION" 2>/dev/null) != "$TS_PYTHON_VERSION" ]]; then
  echo "setup: fetching the Python grammar (tree-sitter-python@$TS_PYTHON_VERSION)" \
    "into .tools/tree-sitter-python with npm"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if ! timeout 900 npm pack --silent --pack-destination "$tmp" \
    "tree-sitter-python@$TS_PYTHON_VERSION" </dev/null >"$tmp/pack.log" 2>&1; then
    cat "$tmp/pack.log" >&2
    echo "setup: npm pack tree-sitter-python@$TS_PYTHON_VERSION failed; behind a" \
      "proxy, set HTTPS_PROXY and NODE_EXTRA_CA_CERTS and run scripts/setup.sh again." >&2
    exit 1
  fi
  tgz=$tmp/tree-sitter-python-$TS_PYTHON_VERSION.tgz
  got=sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)
  if [[ $got != "$TS_PYTHON_INTEGRITY" ]]; then
    echo "setup: tree-sitter-python@$TS_PYTHON_VERSION has integrity $got," \
      "expected $TS_PYTHON_INTEGRITY: not installed." >&2
    exit 1
  fi
  tar -xzf "$tgz" -C "$tmp"
  if ! grep -q '^#define LANGUAGE_VERSION 1[34]$' "$tmp/package/src/parser.c"; then
    echo "setup: tree-sitter-python@$TS_PYTHON_VERSION is not of ABI 13 or 14." >&2
    exit 1
  fi
  rm -rf "$ts_dir"
  mkdir -p "$ts_dir"
  cp -r "$tmp/package/src" "$tmp/package/LICENSE" "$ts_dir/"
  echo "$TS_PYTHON_VERSION" >"$ts_dir/VERSION"
  rm -rf "$tmp"
  trap - EXIT
fi

# The SARIF validator. A failure does not stop the set-up (the rest of the
# suite does not need it); it is recorded in install-error.txt, which the
# SARIF tests print as the reason they fail.
SARIF_PACKAGE=@microsoft/sarif-multitool@5
sarif_dir=$root/.tools/sarif-multitool
sarif_tool=$sarif_dir/node_modules/.bin/sarif-multitool
sarif_note=""
if [[ ! -x $sarif_tool ]]; then
  echo "setup: installing the SARIF validator ($SARIF_PACKAGE) into" \
    ".tools/sarif-multitool with npm"
  mkdir -p "$sarif_dir"
  rm -f "$sarif_dir/install-error.txt"
  status=0
  # npm can hang on a proxy that swallows connections: bound it.
  timeout 900 npm install --no-audit --no-fund --no-update-notifier \
    --prefix "$sarif_dir" "$SARIF_PACKAGE" </dev/null >"$sarif_dir/install.log" 2>&1 ||
    status=$?
  if [[ $status != 0 || ! -e $sarif_tool ]]; then
    reason="npm install $SARIF_PACKAGE failed (exit status $status"
    [[ $status == 124 ]] && reason+=", killed after 900 s"
    # npm's code and message, without its stack trace and object dump.
    reason+="): $(grep -E '^npm (error|ERR!) ' "$sarif_dir/install.log" |
      grep -vE '^npm (error|ERR!) ( {2,}|at |[{}]|$)|^npm (error|ERR!) (syscall|errno) ' |
      head -n 3 | sed -E 's/^npm (error|ERR!) //' | paste -sd ';' | sed 's/;/; /g')"
    printf '%s\n' "$reason" >"$sarif_dir/install-error.txt"
    {
      echo "setup: WARNING: could not install the SARIF validator: $reason"
      echo "setup: npm's log: $sarif_dir/install.log"
      echo "setup: npm used this environment: HTTPS_PROXY=${HTTPS_PROXY:-${https_proxy:-(unset)}}" \
        "NODE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS:-(unset)}" \
        "SSL_CERT_FILE=${SSL_CERT_FILE:-(unset)}; behind a proxy with its own" \
        "CA, set NODE_EXTRA_CA_CERTS to its bundle and run scripts/setup.sh again."
      echo "setup: until then the SARIF validation tests (ci/sarif.test) fail" \
        "with this reason; everything else works."
    } >&2
    sarif_note=", WITHOUT the SARIF validator"
  fi
fi
if [[ -e $sarif_tool ]]; then
  # npm may skip the package's postinstall `chmod u+x` of the binary.
  for exe in "$sarif_dir"/node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool; do
    if [[ -e $exe && ! -x $exe ]]; then chmod 755 "$exe"; fi
  done
  rm -f "$sarif_dir/install-error.txt"
fi
echo "setup: ok (LLVM 22$([[ $llvm == 22 ]] || echo " and $llvm"), LibTorch headers, CUDA headers in $CUDA_HOME, Python grammar $TS_PYTHON_VERSION$sarif_note)"
