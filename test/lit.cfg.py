# lit configuration of the StreamSafe test suite (source side). Paths and
# flags come from lit.site.cfg.py, which CMake generates in build/test/.
import hashlib
import os
import shlex
import tempfile

import lit.formats

config.name = "streamsafe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
# shim/ and pch/ hold headers; unit/ is a suite of its own (GoogleTest),
# found through build/test/unit/lit.site.cfg.py.
config.excludes = ["shim", "pch", "Inputs", "check_streamsafe.py"]

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
# Run the tools with a predictable locale and no user configuration.
config.environment["LC_ALL"] = "C"
config.environment["HOME"] = config.test_exec_root

# Network. The suite needs none: scripts/setup.sh installs what comes from a
# registry (the SARIF validator) beforehand, with the user's environment.
# lit starts tests with an almost empty environment; the user's proxy, CA
# bundle and npm settings are passed through, so that a tool a test runs
# sees the same network settings as outside lit. `lit --param offline=1`
# (scripts/test.sh --offline, which CI runs) points the proxies at a closed
# port and tells npm it is offline instead: a test that still reached for
# the network through them fails.
NETWORK_VARS = ("NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
                "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
                "http_proxy", "https_proxy", "no_proxy", "all_proxy")
offline = lit_config.params.get("offline", "0") not in ("0", "false", "off")
if offline:
    nowhere = "http://127.0.0.1:9"   # discard port: connection refused
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
              "http_proxy", "https_proxy", "all_proxy"):
        config.environment[k] = nowhere
    config.environment["npm_config_offline"] = "true"
    config.environment["npm_config_proxy"] = nowhere
    config.environment["npm_config_https_proxy"] = nowhere
    config.available_features.add("offline")
else:
    for k, v in os.environ.items():
        if k in NETWORK_VARS or k.lower().startswith("npm_config_"):
            config.environment[k] = v

# lit --param pch=0 parses the LibTorch headers in every test instead of
# loading the precompiled ones (slower; results must be the same).
use_pch = lit_config.params.get("pch", "1") not in ("0", "false", "off")


def q(args):
    return " ".join(shlex.quote(a) for a in args)


runner = [
    config.python_executable,
    os.path.join(config.streamsafe_src_root, "test", "check_streamsafe.py"),
    "--clang-tidy=" + config.clang_tidy,
    "--plugin=" + config.streamsafe_plugin,
    "--driver=" + config.streamsafe_driver,
    "--filecheck=" + os.path.join(config.llvm_tools_dir, "FileCheck"),
    "--flags=" + q(config.libtorch_flags),
    "--cuda-flags=" + q(config.cuda_flags),
]
# Which front ends run the checks' tests. The driver is the same analysis
# as the plugin behind another main, so by default (auto) each check's main
# test and the tests of options and configuration run through both and
# compare them (diagnostics, exit status, fixed file), and the other tests
# through the driver alone (it halves their time). --param front_ends=both
# compares the two on every test; =plugin runs the plugin alone (CI's LLVM
# 19 leg).
front_ends = lit_config.params.get("front_ends", "auto")
if front_ends not in ("auto", "both", "plugin"):
    lit_config.fatal("--param front_ends: 'auto', 'both' or 'plugin', not %r"
                     % front_ends)
runner.append("--front-ends=" + front_ends)
COMPARED_TESTS = (
    r"^((default-stream-launch|graph-capture|host-read-before-sync|"
    r"missing-record-stream|thread-current-stream|unrecorded-event-wait|"
    r"unrestored-current-stream)(-kernel)?|unsynchronized-access-(seed|kernels)|"
    r"engine|.*-options|.*config.*|.*-no-fix)\.(cpp|cu)$")
if front_ends == "auto":
    runner.append("--compare=" + COMPARED_TESTS)
if use_pch:
    runner += ["--pch-cxx=" + config.pch_cxx, "--pch-cuda=" + config.pch_cuda]

# Python tests (test/python): streamsafe-py, built when its grammar is
# installed (scripts/setup.sh); the tests fail, saying so, when it is not.
py_runner = [
    config.python_executable,
    os.path.join(config.streamsafe_src_root, "test", "python",
                 "check_streamsafe_py.py"),
    "--driver=" + config.streamsafe_py,
    "--filecheck=" + os.path.join(config.llvm_tools_dir, "FileCheck"),
]
if not os.path.exists(config.streamsafe_py):
    lit_config.warning(
        "streamsafe-py is not built (%s): the test/python tests fail. Run "
        "scripts/setup.sh (libtree-sitter-dev and the Python grammar), "
        "configure again and build." % config.streamsafe_py)

subs = config.substitutions
# Longer names first: lit replaces in list order.
subs.append(("%check_streamsafe_py", q(py_runner)))
subs.append(("%check_streamsafe", q(runner)))
subs.append(("%streamsafe_version", config.streamsafe_version))
subs.append(("%streamsafe_py", shlex.quote(config.streamsafe_py)))
# The API model's dump (tools/model): test/model's parity and docs tests.
subs.append(("%streamsafe_model", shlex.quote(config.streamsafe_model)))
subs.append(("%streamsafe", shlex.quote(config.streamsafe_driver)))
subs.append(("%plugin", shlex.quote(config.streamsafe_plugin)))
subs.append(("%clang_tidy", shlex.quote(config.clang_tidy)))
subs.append(("%clang_format", shlex.quote(config.clang_format or "clang-format-not-found")))
subs.append(("%python", shlex.quote(config.python_executable)))
subs.append(("%src_root", shlex.quote(config.streamsafe_src_root)))
# Compiler flags for tests that run the tools directly: the LibTorch flags,
# the CUDA ones for .cu files, and the precompiled LibTorch headers.
cxx_flags = config.libtorch_flags + (["-include-pch", config.pch_cxx] if use_pch else [])
cuda_flags = config.libtorch_flags + config.cuda_flags + (
    ["-include-pch", config.pch_cuda] if use_pch else [])
subs.append(("%libtorch_cxx_flags", q(cxx_flags)))
subs.append(("%libtorch_cuda_flags", q(cuda_flags)))
# The bare flags, without the PCH (for tools that run a compiler themselves).
subs.append(("%libtorch_flags", q(config.libtorch_flags)))
subs.append(("%cuda_flags", q(config.cuda_flags)))
# A scratch directory outside the source tree, for tests that must not see
# the project's own .clang-tidy; one per build tree.
outside = os.path.join(tempfile.gettempdir(), "streamsafe-lit-" + hashlib.sha1(
    config.test_exec_root.encode()).hexdigest()[:12])
subs.append(("%outside_tree_tmp", outside))
subs.append(("%llvm_version_major", config.llvm_version_major))
