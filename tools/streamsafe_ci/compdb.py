"""The compile database: loading it and making every entry parseable by clang.

CMake with the CUDA language enabled writes nvcc command lines into
compile_commands.json, which clang cannot run: `-x cu`, `--generate-code=...`,
`-Xcompiler=-fPIC`, `-isystem=<dir>` (nvcc's spelling; for clang a leading `=`
means "relative to the sysroot"), `--options-file <rsp>` and so on.
`translate()` turns such an entry into the clang command that parses the same
host code: nvcc-only options are dropped or rewritten, and CUDA entries get
`-x cuda --cuda-host-only --cuda-path=<CUDA> -Wno-unknown-cuda-version`
(plus `-isystem <CUDA>/include/cccl` where CUDA 13 keeps Thrust and CUB).
Every dropped option is recorded, so `--dump-commands` can show what happened.
"""

import json
import os
import shlex


class CompDbError(Exception):
    pass


class CompileCommand:
    __slots__ = ("directory", "file", "arguments", "output", "dropped",
                 "cuda", "index")

    def __init__(self, directory, file, arguments, output=None, index=0):
        self.directory = directory
        self.file = file          # absolute, normalised
        self.arguments = arguments
        self.output = output
        self.dropped = []         # options removed by translate()
        self.cuda = False
        self.index = index        # position in compile_commands.json

    def to_json(self):
        entry = {"directory": self.directory, "file": self.file,
                 "arguments": self.arguments}
        if self.output:
            entry["output"] = self.output
        return entry


def canonical(path, base=None):
    if base and not os.path.isabs(path):
        path = os.path.join(base, path)
    return os.path.realpath(path)


def load(build_dir):
    """Reads <build_dir>/compile_commands.json; raises CompDbError."""
    path = os.path.join(build_dir, "compile_commands.json")
    if not os.path.isfile(path):
        raise CompDbError(
            f"no compile_commands.json in '{build_dir}' (pass -p <build dir>; "
            "CMake writes one with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise CompDbError(f"cannot read {path}: {e}") from e
    if not isinstance(data, list):
        raise CompDbError(f"{path}: expected a JSON array of compile commands")
    commands = []
    for i, entry in enumerate(data):
        try:
            directory = entry["directory"]
            file = entry["file"]
            if "arguments" in entry:
                args = list(entry["arguments"])
            else:
                args = shlex.split(entry["command"])
        except (KeyError, TypeError, ValueError) as e:
            raise CompDbError(f"{path}: entry {i} is malformed ({e})") from e
        if not args:
            raise CompDbError(f"{path}: entry {i} has an empty command")
        commands.append(CompileCommand(directory, canonical(file, directory),
                                       args, entry.get("output"), i))
    return commands


# --- nvcc ------------------------------------------------------------------

# nvcc options by name (leading dashes stripped; nvcc accepts `-name`,
# `--name`, `-name=value`, `--name=value` and `-name value`).
# Value: (takes a value, action). Actions: "drop", or a rewrite handled in
# _translate_nvcc_option().
_NVCC = {}


def _nvcc(names, takes_value, action="drop"):
    for name in names.split():
        _NVCC[name] = (takes_value, action)


# Device code generation, linking, and driver behaviour: meaningless for the
# host-side analysis.
_nvcc("forward-unknown-to-host-compiler forward-unknown-to-host-linker "
      "forward-unknown-opts expt-relaxed-constexpr expt-extended-lambda "
      "extended-lambda use_fast_math use-fast-math lineinfo "
      "generate-line-info G device-debug dc device-c dw device-w dlink "
      "device-link keep save-temps res-usage resource-usage "
      "Wno-deprecated-gpu-targets allow-unsupported-compiler restrict "
      "extra-device-vectorization source-in-ptx src-in-ptx "
      "display-error-number err-no no-display-error-number noeh "
      "no-host-device-initializer-list no-host-device-move-forward "
      "Wext-lambda-captures-this Wdefault-stream-launch "
      "Wmissing-launch-bounds lto dlto-gen dlink-time-opt dlto ptx cubin "
      "fatbin optix-ir dryrun v verbose fdevice-syntax-only list-gpu-code "
      "list-gpu-arch", False)
_nvcc("gpu-architecture arch gpu-code code generate-code gencode "
      "compiler-bindir ccbin linker-options Xlinker ptxas-options Xptxas "
      "nvlink-options Xnvlink fatbin-options Xfatbin archive-options "
      "Xarchive Xcudafe cudart cudadevrt relocatable-device-code rdc "
      "keep-dir output-directory odir threads t split-compile maxrregcount "
      "ftz prec-div prec-sqrt fmad dopt diag-suppress diag-error diag-warn "
      "static-global-template-stub jump-table-density "
      "device-stack-protector fdevice-time-trace dependency-output "
      "library library-path run-args entries qpp-config "
      "dependency-target-name", True)
_nvcc("Xcompiler compiler-options", True, "host")
_nvcc("options-file optf", True, "optfile")
_nvcc("default-stream", True, "default-stream")
_nvcc("x", True, "x")
_nvcc("std", True, "std")
_nvcc("define-macro", True, "-D")
_nvcc("undefine-macro", True, "-U")
_nvcc("include-path", True, "-I")
_nvcc("system-include isystem", True, "-isystem")
_nvcc("pre-include", True, "-include")
_nvcc("output-file", True, "-o")
_nvcc("compile", False, "-c")
_nvcc("optimize", True, "-O")
_nvcc("machine", True, "-m")
_nvcc("disable-warnings", False, "-w")
_nvcc("Werror", True, "werror")

# Values of nvcc's own -Werror=<kind>.
_NVCC_WERROR_KINDS = {"all-warnings", "cross-execution-space-call", "reorder",
                      "default-stream-launch", "missing-launch-bounds",
                      "ext-lambda-captures-this", "deprecated-declarations"}

# Host compiler options inside -Xcompiler that matter for parsing; the rest
# (-fPIC, -Wall, -fvisibility=..., GCC-only flags) is dropped.
_HOST_KEEP_PREFIXES = ("-D", "-U", "-I", "-std=", "-fopenmp", "-pthread",
                       "-isystem", "-include", "-iquote", "-fno-exceptions",
                       "-fno-rtti")
_HOST_TAKES_VALUE = {"-isystem", "-include", "-iquote", "-I", "-D", "-U"}

_LANG = {"cu": "cuda", "cuda": "cuda", "c++": "c++", "c": "c",
         "cuda-cpp-output": "cuda-cpp-output"}

_LAUNCHERS = {"ccache", "sccache", "distcc", "icecc", "buildcache"}


def is_nvcc(program):
    base = os.path.basename(program).lower()
    return base in ("nvcc", "nvcc.exe")


def _split_option(token):
    """'--name=value' -> ('name', 'value'); '-name' -> ('name', None)."""
    stripped = token.lstrip("-")
    if "=" in stripped:
        name, value = stripped.split("=", 1)
        return name, value
    return stripped, None


def _read_options_file(path, directory):
    full = path if os.path.isabs(path) else os.path.join(directory, path)
    try:
        with open(full, encoding="utf-8") as f:
            return shlex.split(f.read())
    except (OSError, ValueError):
        return None


def _host_options(value, out, dropped):
    """Keeps the parse-relevant host options of -Xcompiler=a,b,c."""
    parts = value.split(",")
    i = 0
    while i < len(parts):
        p = parts[i]
        if p in _HOST_TAKES_VALUE and i + 1 < len(parts):
            out.extend([p, parts[i + 1]])
            i += 2
            continue
        if p.startswith(_HOST_KEEP_PREFIXES):
            out.append(p)
        elif p:
            dropped.append(f"-Xcompiler={p}")
        i += 1


def _translate_nvcc_args(args, directory, dropped, depth=0):
    out = []
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        if not tok.startswith("-") or tok == "-":
            out.append(tok)
            continue
        name, value = _split_option(tok)
        spec = _NVCC.get(name)
        if spec is None:
            # A host compiler option forwarded by nvcc (-O3, -DX, -Ipath,
            # -fPIC, -Wall, ...), or a clang option: keep it.
            out.append(tok)
            continue
        takes_value, action = spec
        if takes_value and value is None:
            if action == "werror":
                # Bare -Werror is the host's; `-Werror <kind>` is nvcc's.
                if i < len(args) and args[i] in _NVCC_WERROR_KINDS:
                    dropped.extend([tok, args[i]])
                    i += 1
                else:
                    out.append(tok)
                continue
            if i >= len(args):
                dropped.append(tok)
                break
            value = args[i]
            i += 1
            original = f"{tok} {value}"
        else:
            original = tok
        if action == "drop":
            dropped.append(original)
        elif action == "host":
            _host_options(value, out, dropped)
        elif action == "optfile":
            inner = _read_options_file(value, directory) if depth < 8 else None
            if inner is None:
                dropped.append(original + " (unreadable)")
            else:
                out.extend(_translate_nvcc_args(inner, directory, dropped,
                                                depth + 1))
        elif action == "default-stream":
            if value == "per-thread":
                out.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
            else:
                dropped.append(original)
        elif action == "x":
            lang = _LANG.get(value)
            if lang:
                out.extend(["-x", lang])
            else:
                dropped.append(original)
        elif action == "std":
            out.append(f"-std={value}")
        elif action == "werror":
            kinds = set(value.split(","))
            if kinds <= _NVCC_WERROR_KINDS:
                dropped.append(original)
            else:
                out.append(original)
        elif action in ("-D", "-U", "-I", "-O", "-m"):
            out.append(action + value)
        elif action in ("-isystem", "-include", "-o"):
            out.extend([action, value])
        elif action in ("-c", "-w"):
            out.append(action)
        else:  # pragma: no cover - table and actions are kept in sync
            raise AssertionError(action)
    return out


def default_cuda_path(explicit=None, compiler=None):
    """--cuda-path, else the toolkit of the nvcc in the command, else
    $CUDA_HOME, $CUDA_PATH, /usr/local/cuda."""
    if explicit:
        return explicit
    if compiler and is_nvcc(compiler) and os.path.isabs(compiler):
        root = os.path.dirname(os.path.dirname(compiler))
        if os.path.isfile(os.path.join(root, "include", "cuda_runtime.h")):
            return root
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    return "/usr/local/cuda"


def _is_cuda(args, file):
    lang = None
    for i, a in enumerate(args):
        if a == "-x" and i + 1 < len(args):
            lang = args[i + 1]
        elif a.startswith("-x") and len(a) > 2:
            lang = a[2:]
    if lang is not None:
        return lang == "cuda"
    return file.endswith((".cu", ".cuh"))


def translate(cmd, cuda_path=None):
    """Returns a copy of `cmd` whose arguments clang understands."""
    args = list(cmd.arguments)
    dropped = []
    while args and os.path.basename(args[0]) in _LAUNCHERS:
        dropped.append(args.pop(0))
    compiler = args[0]
    if is_nvcc(compiler):
        rest = _translate_nvcc_args(args[1:], cmd.directory, dropped)
        args = ["clang++"] + rest
    cuda = _is_cuda(args[1:], cmd.file)
    out = CompileCommand(cmd.directory, cmd.file, args, cmd.output, cmd.index)
    out.dropped = dropped
    out.cuda = cuda
    if cuda:
        home = default_cuda_path(cuda_path, compiler)
        rest = []
        for a in args[1:]:
            if a == "--cuda-device-only" or a.startswith("--cuda-gpu-arch") \
                    or a.startswith("--offload-arch"):
                dropped.append(a)
                continue
            rest.append(a)
        extra = []
        if "--cuda-host-only" not in rest:
            extra.append("--cuda-host-only")
        if not any(a.startswith("--cuda-path") for a in rest):
            extra.append(f"--cuda-path={home}")
        extra.append("-Wno-unknown-cuda-version")
        cccl = os.path.join(home, "include", "cccl")
        if os.path.isdir(cccl):
            extra.extend(["-isystem", cccl])
        out.arguments = [args[0]] + rest + extra
    return out


def remove_arguments(cmd, unknown):
    """A copy of `cmd` without the arguments clang called unknown."""
    out = CompileCommand(cmd.directory, cmd.file,
                         [a for a in cmd.arguments if a not in unknown],
                         cmd.output, cmd.index)
    out.dropped = cmd.dropped + sorted(unknown)
    out.cuda = cmd.cuda
    return out


def with_arguments(cmd, extra):
    """A copy of `cmd` with `extra` appended to its arguments."""
    out = CompileCommand(cmd.directory, cmd.file, cmd.arguments + list(extra),
                         cmd.output, cmd.index)
    out.dropped = cmd.dropped
    out.cuda = cmd.cuda
    return out


def write(commands, directory):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "compile_commands.json"), "w",
              encoding="utf-8") as f:
        json.dump([c.to_json() for c in commands], f, indent=1)
