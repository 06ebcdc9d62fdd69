#!/usr/bin/env python3
"""Generates the parity test's program pair from the API model.

    gen_parity.py MODEL.json OUT_DIR

MODEL.json is `streamsafe-model`'s dump of lib/model. For every row spelled
in both languages (tensor methods and attributes, torch functions, stream
APIs, classes) this writes one C++ function into OUT_DIR/parity.cpp and its
Python twin, the same scenario, into OUT_DIR/parity.py, line for line: a
scenario's lines have the same numbers in both files, so their findings can
be compared with their lines (compare_parity.py). OUT_DIR/parity.json lists
the scenarios (name, first and last line, the rows they cover, the findings
they are expected to give).

Each scenario is chosen so that the row's effect decides its outcome (a
view written on a side stream makes its base's later read a race; a
metadata query of a tensor still being written is silent; ...), and most
effect families have a negative twin (the fix: silent in both). A few
more scenarios have no row: the naming conventions (names with no row),
where factories allocate, and the known disagreements (KNOWN_DISAGREEMENTS),
which must still differ.

The generator fails, saying why, when the model has a row it cannot test:
a row spelled in both languages whose effect has no scenario here, a name
with no entry in the argument tables below, or a row spelled in one
language only that does not say why (its one_language reason is null).
"""
import json
import os
import sys

# ---------------------------------------------------------------------------
# Argument tables: how each name is called in each language.

# Tensor methods (and Python attributes): name -> (C++ args, Python args).
# A Python attribute (t.T) takes no call in Python; its entry's Python part
# is ignored. Every tensor method spelled in both languages needs an entry,
# even an empty one, so that a new row makes its author write its arguments.
TENSOR_ARGS = {
    # Views.
    "view": ("{-1}", "-1"),
    "view_as": ("x", "x"),
    "narrow": ("0, 0, 1", "0, 0, 1"),
    "select": ("0, 0", "0, 0"),
    "transpose": ("0, 1", "0, 1"),
    "permute": ("{0}", "0"),
    "expand": ("{4}", "4"),
    "expand_as": ("x", "x"),
    "as_strided": ("{1}, {1}", "(1,), (1,)"),
    "t": ("", ""),
    "reshape": ("{-1}", "-1"),
    "reshape_as": ("x", "x"),
    "squeeze": ("", ""),
    "unsqueeze": ("0", "0"),
    "flatten": ("", ""),
    "unflatten": ("0, {1, -1}", "0, (1, -1)"),
    "contiguous": ("", ""),
    "detach": ("", ""),
    "unfold": ("0, 1, 1", "0, 1, 1"),
    "diagonal": ("", ""),
    "movedim": ("0, 1", "0, 1"),
    "moveaxis": ("0, 1", "0, 1"),
    "swapaxes": ("0, 1", "0, 1"),
    "swapdims": ("0, 1", "0, 1"),
    "adjoint": ("", ""),
    "conj": ("", ""),
    "resolve_conj": ("", ""),
    "resolve_neg": ("", ""),
    "coalesce": ("", ""),
    "values": ("", ""),
    "indices": ("", ""),
    "real": ("", None),
    "imag": ("", None),
    "T": ("", None),
    "H": ("", None),
    "mT": ("", None),
    "mH": ("", None),
    "data": ("", None),
    # Lists of views.
    "chunk": ("2", "2"),
    "split": ("1", "1"),
    "unbind": ("", ""),
    "tensor_split": ("2", "2"),
    "unsafe_chunk": ("2", "2"),
    "unsafe_split": ("1", "1"),
    "split_with_sizes": ("{1, 1}", "[1, 1]"),
    "unsafe_split_with_sizes": ("{1, 1}", "[1, 1]"),
    "hsplit": ("2", "2"),
    "vsplit": ("2", "2"),
    "dsplit": ("2", "2"),
    # Metadata.
    "size": ("0", "0"),
    "dim": ("", ""),
    "ndimension": ("", ""),
    "numel": ("", ""),
    "nelement": ("", ""),
    "get_device": ("", ""),
    "stride": ("0", "0"),
    "is_contiguous": ("", ""),
    "element_size": ("", ""),
    "storage_offset": ("", ""),
    "is_pinned": ("", ""),
    "is_complex": ("", ""),
    "is_floating_point": ("", ""),
    "is_signed": ("", ""),
    "is_inference": ("", ""),
    "has_names": ("", ""),
    "is_conj": ("", ""),
    "is_neg": ("", ""),
    "storage": ("", ""),
    "type": ("", ""),
    "retain_grad": ("", ""),
    "requires_grad_": ("true", "True"),
    "register_hook": ("[](const at::Tensor &g) { return g; }", "lambda g: g"),
    "squeeze_": ("0", "0"),
    "unsqueeze_": ("0", "0"),
    "transpose_": ("0, 1", "0, 1"),
    "t_": ("", ""),
    "as_strided_": ("{2}, {1}", "(2,), (1,)"),
    "swapaxes_": ("0, 1", "0, 1"),
    "swapdims_": ("0, 1", "0, 1"),
    "detach_": ("", ""),
    "untyped_storage": ("", ""),
    # Effects of their own.
    "copy_": ("y", "y"),
    "record_stream": ("s", "s"),
    "item": ("", ""),
    "nonzero": ("", ""),
    "argwhere": ("", ""),
    "masked_select": ("x > 0", "x > 0"),
    "cpu": ("", ""),
    "to": ("at::kCPU", '"cpu"'),
    "cuda": ("", ""),
    "pin_memory": ("", ""),
}

# Which scenario a TensorTo method gets: to(host) waits for the current
# stream; cuda() is a copy on the device.
# A method's variants: (scenario, (C++ args, Python args) or None for
# TENSOR_ARGS's, a suffix of the scenario's name).
TENSOR_TO_SCENARIO = {
    "to": [("host_sync", None, ""),
           ("device_copy", ("at::kCUDA", '"cuda"'), "_device"),
           ("device_copy", ("at::kHalf", "torch.float16"), "_dtype"),
           ("host_async", ("at::kCPU, /*non_blocking=*/true",
                           '"cpu", non_blocking=True'), "_host_async")],
    "cuda": [("device_copy", None, "")],
}

# torch functions: name -> (C++ args of at::name, Python args of torch.name),
# each allocating on the GPU.
FUNCTION_ARGS = {
    "nonzero": ("x", "x"),
    "argwhere": ("x", "x"),
    "masked_select": ("x, x > 0", "x, x > 0"),
    "empty": ("{4}, at::kCUDA", '4, device="cuda"'),
    "empty_strided": ("{4}, {1}, at::kCUDA", '(4,), (1,), device="cuda"'),
    "zeros": ("{4}, at::kCUDA", '4, device="cuda"'),
    "ones": ("{4}, at::kCUDA", '4, device="cuda"'),
    "full": ("{4}, 1.0, at::kCUDA", '(4,), 1.0, device="cuda"'),
    "rand": ("{4}, at::kCUDA", '4, device="cuda"'),
    "randn": ("{4}, at::kCUDA", '4, device="cuda"'),
    "randint": ("10, {4}, at::kCUDA", '10, (4,), device="cuda"'),
    "randperm": ("4, at::kCUDA", '4, device="cuda"'),
    "arange": ("4, at::kCUDA", '4, device="cuda"'),
    "range": ("0, 4, 1, at::kCUDA", '0, 4, 1, device="cuda"'),
    "linspace": ("0, 1, 4, at::kCUDA", '0, 1, 4, device="cuda"'),
    "logspace": ("0, 1, 4, 10.0, at::kCUDA", '0, 1, 4, 10.0, device="cuda"'),
    "eye": ("4, at::kCUDA", '4, device="cuda"'),
    "tensor": ("{1.0, 2.0}, at::kCUDA", '[1.0, 2.0], device="cuda"'),
    "scalar_tensor": ("1.0, at::kCUDA", '1.0, device="cuda"'),
    "normal": ("0.0, 1.0, {4}, c10::nullopt, at::kCUDA",
               '0.0, 1.0, (4,), device="cuda"'),
    # bernoulli(p) takes the probabilities, a tensor, and has no device
    # argument: its result is where p is.
    "bernoulli": ("x", "x"),
    "tril_indices": ("4, 4, 0, at::kCUDA", '4, 4, device="cuda"'),
    "triu_indices": ("4, 4, 0, at::kCUDA", '4, 4, device="cuda"'),
}

# What a factory scenario is expected to give, where it is not the race of
# a GPU allocation (the scenario below). bernoulli(x): the model has it as a
# factory, which reads no tensor and with no device= allocates on the host
# (docs/api-model.md, section 5), so neither front end sees an allocation on
# the side stream. tensor([1.0, 2.0]) on the device copies host data as a
# blocking to() does, which waits for the side stream: the later read on the
# current stream is ordered, but y, allocated on the side stream and used on
# the current one, dies with no record_stream.
FUNCTION_EXPECT = {"bernoulli": [], "tensor": ["missing-record-stream"]}

# C++ spellings the LibTorch under test (Debian's 1.13) does not declare.
# Their rows are covered through their other spellings, or not at all (the
# generator lists them as skipped). Some are 2.x API; the tensor methods
# below are in neither 1.13 nor 2.11 (the model's C++ spelling is wrong:
# C++ has at::real(t), t.numpy_T(), t.matrix_H(), t.numel()).
NOT_IN_LIBTORCH = {
    # C++'s spellings: KNOWN_DISAGREEMENTS below.
    "at::Tensor::real": "not a method of at::Tensor (1.13, 2.11): at::real(t)",
    "at::Tensor::imag": "not a method of at::Tensor (1.13, 2.11): at::imag(t)",
    "at::Tensor::T": "not a method of at::Tensor (1.13, 2.11): t.numpy_T()",
    "at::Tensor::H": "not a method of at::Tensor (1.13, 2.11): t.matrix_H()",
    "at::Tensor::untyped_storage": "not a method of at::Tensor (1.13, 2.11)",
    "at::Tensor::nelement": "not a method of at::Tensor (1.13, 2.11): numel()",
    # (and so are its methods)
    "c10::cuda::CUDAEvent": "LibTorch 2.x",
    "c10::Event::synchronize": "LibTorch 2.x",
}

# One operation, spelled differently in each language, that the two front
# ends do not take alike (compare_parity.py fails when they come to agree:
# then move the pair here into the tables above):
# the model's rows spell T, H, real and imag as at::Tensor methods, which
# C++ does not have; C++'s own spellings have no row, so C++ takes them as
# ops (a new tensor) while Python takes t.T as a view. Each: (name, the C++
# expression on x, the Python one); the scenario is the view's.
KNOWN_DISAGREEMENTS = [
    ("T", "x.numpy_T()", "x.T"),
    ("H", "x.matrix_H()", "x.H"),
    ("real", "at::real(x)", "x.real"),
    ("imag", "at::imag(x)", "x.imag"),
]

# ---------------------------------------------------------------------------
# Scenarios. A scenario is a list of lines, each (depth, C++, Python): the
# same line in both files (None: a blank line in that language), indented
# by depth (C++: 2 spaces a level, Python: 4); or END, BLANK.

POOL = (1, "auto s = c10::cuda::getStreamFromPool();", "s = torch.cuda.Stream()")
GUARD = (1, "{ c10::cuda::CUDAStreamGuard g(s);", "with torch.cuda.stream(s):")
# The end of a guard's block: C++'s "}" closes the block's last line, where
# Python's with-block ends (both front ends site the guard's restore there).
END = "end"
SYNC = (1, "c10::cuda::device_synchronize();", "torch.cuda.synchronize()")
# Nothing (a line a negative twin leaves out).
BLANK = "blank"
X = ("const at::Tensor &x", "x: torch.Tensor")


class Scenario:
    def __init__(self, name, rows, expect, body, params=X, returns=False,
                 twin_of=None, known=False):
        self.name = name
        self.rows = rows          # the model rows it covers (their keys)
        self.expect = sorted(expect)  # the checks of its warnings
        self.body = body
        self.params = params
        self.returns = returns
        self.twin_of = twin_of    # a negative twin: the scenario it fixes
        self.known = known        # a known disagreement: must still differ


def lines_of(sc):
    """The scenario's (C++, Python) lines."""
    cpp_ret = "at::Tensor" if sc.returns else "void"
    out = [("%s %s(%s) {" % (cpp_ret, sc.name, sc.params[0]),
            "def %s(%s):" % (sc.name, sc.params[1]))]
    for line in sc.body:
        if line is BLANK:
            continue
        if line is END:
            out[-1] = (out[-1][0] + " }", out[-1][1])
            continue
        depth, c, p = line
        out.append(("  " * depth + c if c is not None else "",
                    "    " * depth + p if p is not None else ""))
    # The function ends on its last line too: C++ sites the end of a
    # function (a variable's last reference dying, a return with the stream
    # still set) at its "}", Python at the def's last statement.
    out[-1] = (out[-1][0] + " }", out[-1][1])
    return out


class Failure(Exception):
    pass


def need(table, key, what):
    if key not in table:
        raise Failure("%s '%s' has no entry in %s (test/model/gen_parity.py)"
                      % (what, key, table_name(table)))
    return table[key]


def table_name(table):
    for n, t in globals().items():
        if t is table:
            return n
    return "its table"


# --- tensor methods ---------------------------------------------------------

def tensor_use(name, row, cargs, pargs):
    """x.name(args) in C++, x.name(args) or x.name in Python."""
    c = "%s(%s)" % (name, cargs)
    attribute = row is not None and row["python"] is None
    p = name if attribute else "%s(%s)" % (name, pargs)
    return c, p


def sc_view(name, row, key, suffix="", piece=""):
    cargs, pargs = need(TENSOR_ARGS, name, "tensor method")
    c, p = tensor_use(name, row, cargs, pargs)
    body = [
        SYNC,
        POOL,
        (1, "at::Tensor y = x.%s%s;" % (c, piece), "y = x.%s%s" % (p, piece)),
        GUARD,
        (2, "y.add_(1);", "y.add_(1)"),
        END,
        (1, "x.sum();", "x.sum()"),
    ]
    # A view that may copy (contiguous, reshape) also reads x on the current
    # stream; the side stream's write of y races that copy's result.
    expect = ["unsynchronized-access"] * (2 if row.get("may_copy") else 1)
    yield Scenario("tm_" + name + suffix, [key], expect, body)


def disagreement_scenarios():
    for name, c, p in KNOWN_DISAGREEMENTS:
        yield Scenario("pair_" + name, ["tensor_methods:" + name],
                       ["unsynchronized-access"], [
                           SYNC, POOL,
                           (1, "at::Tensor y = %s;" % c, "y = %s" % p),
                           GUARD, (2, "y.add_(1);", "y.add_(1)"), END,
                           (1, "x.sum();", "x.sum()")], known=True)


def sc_view_list(name, row, key):
    yield from sc_view(name, row, key, piece="[0]")


def view_twin():
    """The view written on the side stream, and the host waiting for it
    before the base is read: silent."""
    body = [
        SYNC,
        POOL,
        (1, "at::Tensor y = x.view({-1});", "y = x.view(-1)"),
        GUARD,
        (2, "y.add_(1);", "y.add_(1)"),
        END,
        SYNC,
        (1, "x.sum();", "x.sum()"),
    ]
    return Scenario("fixed_view", [], [], body, twin_of="tm_view")


def other_twins():
    # A piece of chunk(), written on the side stream; the host waits before
    # the base is read: silent.
    yield Scenario("fixed_view_list", [], [], [
        SYNC, POOL,
        (1, "at::Tensor y = x.chunk(2)[0];", "y = x.chunk(2)[0]"),
        GUARD, (2, "y.add_(1);", "y.add_(1)"), END,
        SYNC, (1, "x.sum();", "x.sum()")], twin_of="tm_chunk")
    # A copy made on the side stream; the host waits before the current
    # stream reads it (and it escapes: no record_stream needed).
    yield Scenario("fixed_cuda", [], [], [
        SYNC, POOL, (1, "at::Tensor y;", None),
        GUARD, (2, "y = x.cuda();", "y = x.cuda()"), END,
        SYNC, (1, "y.sum();", "y.sum()"),
        (1, "return y;", "return y")], returns=True, twin_of="tm_cuda")
    # Queries outside a capture are allowed.
    yield Scenario("uncaptured_query", [], [], [
        event_decl("at::cuda::CUDAEvent"), POOL,
        (1, "e.record(s);", "e.record(s)"),
        (1, "e.query();", "e.query()"),
        (1, "s.query();", "s.query()")],
        twin_of="api_at_cuda_CUDAEvent_query")


def on_side_stream(lines):
    """y allocated on the side stream s."""
    return [
        POOL,
        (1, "at::Tensor y;", None),
        GUARD,
        (2, "y = at::ones({4}, at::kCUDA);", 'y = torch.ones(4, device="cuda")'),
    ] + lines + [END]


def sc_metadata(name, row, key):
    cargs, pargs = need(TENSOR_ARGS, name, "tensor method")
    c, p = tensor_use(name, row, cargs, pargs)
    body = on_side_stream([]) + [(1, "y.%s;" % c, "y.%s" % p)]
    yield Scenario("tm_" + name, [key], [], body)


def metadata_twin():
    """What the metadata scenario gives for an op: a race."""
    body = on_side_stream([]) + [(1, "y.sum();", "y.sum()")]
    return Scenario("fixed_metadata_op", [], ["unsynchronized-access"], body,
                    twin_of="tm_size")


def sc_host_sync(name, row, key, twin=False, args=None, suffix=""):
    """x.name() makes the host wait for the current stream: y, allocated
    there, is complete when the side stream writes it."""
    cargs, pargs = args or need(TENSOR_ARGS, name, "tensor method")
    c, p = tensor_use(name, row, cargs, pargs)
    if twin:
        c, p = "sum()", "sum()"
    body = [
        POOL,
        (1, "at::Tensor y = at::ones({4}, at::kCUDA);",
         'y = torch.ones(4, device="cuda")'),
        (1, "x.%s;" % c, "x.%s" % p),
        GUARD,
        (2, "y.add_(1);", "y.add_(1)"),
        END,
        (1, "return y;", "return y"),
    ]
    if twin:
        yield Scenario("fixed_host_sync_op", [], ["unsynchronized-access"],
                       body, returns=True, twin_of="tm_" + name)
    else:
        yield Scenario("tm_" + name + suffix, [key], [], body, returns=True)


def sc_device_copy(name, row, key, args=None, suffix=""):
    """y = x.name() on the side stream: a new tensor there, read on the
    current stream without a wait."""
    cargs, pargs = args or need(TENSOR_ARGS, name, "tensor method")
    c, p = tensor_use(name, row, cargs, pargs)
    body = [
        SYNC,
        POOL,
        (1, "at::Tensor y;", None),
        GUARD,
        (2, "y = x.%s;" % c, "y = x.%s" % p),
        END,
        (1, "y.sum();", "y.sum()"),
    ]
    yield Scenario("tm_" + name + suffix, [key], ["unsynchronized-access"],
                   body)


def sc_host_async(name, row, key, args=None, suffix=""):
    """h = x.name(host, non_blocking): pinned memory a copy still writes
    when the host reads it."""
    cargs, pargs = args or need(TENSOR_ARGS, name, "tensor method")
    c, p = tensor_use(name, row, cargs, pargs)
    body = [
        (1, "at::Tensor h = x.%s;" % c, "h = x.%s" % p),
        (1, "h.sum();", "h.sum()"),
        (1, "return h;", "return h"),
    ]
    yield Scenario("tm_" + name + suffix, [key], ["host-read-before-sync"],
                   body, returns=True)


def sc_tensor_to(name, row, key):
    make = {"host_sync": sc_host_sync, "device_copy": sc_device_copy,
            "host_async": sc_host_async}
    for kind, args, suffix in need(TENSOR_TO_SCENARIO, name,
                                   "TensorTo method"):
        yield from make[kind](name, row, key, args=args, suffix=suffix)


def sc_copy_from(name, row, key, fixed=False):
    cargs, pargs = need(TENSOR_ARGS, name, "tensor method")
    body = [
        SYNC,
        POOL,
        GUARD,
        (2, "at::Tensor y = at::ones({4}, at::kCUDA);",
         'y = torch.ones(4, device="cuda")'),
        (2, "x.%s(%s);" % (name, cargs), "x.%s(%s)" % (name, pargs)),
        END,
    ] + ([SYNC] if fixed else []) + [(1, "x.sum();", "x.sum()")]
    if fixed:
        yield Scenario("fixed_" + name, [], [], body, twin_of="tm_" + name)
    else:
        yield Scenario("tm_" + name, [key], ["unsynchronized-access"], body)


def sc_record_stream(name, row, key, fixed=True, params=X, stream="s",
                     sc_name=None, expect=None):
    """y used on the side stream dies: recorded, silent; not, reported."""
    cargs, pargs = need(TENSOR_ARGS, name, "tensor method")
    if stream != "s":
        cargs = pargs = stream
    body = [
        POOL,
        (1, "at::Tensor y = at::ones({4}, at::kCUDA);",
         'y = torch.ones(4, device="cuda")'),
        SYNC,
        GUARD,
        (2, "y.add_(1);", "y.add_(1)"),
        END,
        (1, "y.%s(%s);" % (name, cargs), "y.%s(%s)" % (name, pargs))
        if fixed else BLANK,
    ]
    if sc_name:
        yield Scenario(sc_name, [key], expect, body, params=params)
    elif fixed:
        yield Scenario("tm_" + name, [key], [], body)
    else:
        yield Scenario("unfixed_" + name, [], ["missing-record-stream"], body,
                       twin_of="tm_" + name)


def sc_pin_memory(name, row, key, fixed=False):
    """A pinned copy read by a non_blocking copy to the GPU, then written by
    the host."""
    cargs, pargs = need(TENSOR_ARGS, name, "tensor method")
    body = [
        (1, "at::Tensor h = x.%s(%s);" % (name, cargs),
         "h = x.%s(%s)" % (name, pargs)),
        (1, "at::Tensor d = h.to(at::kCUDA, /*non_blocking=*/true);",
         'd = h.to("cuda", non_blocking=True)'),
    ] + ([SYNC] if fixed else []) + [
        (1, "h.add_(1);", "h.add_(1)"),
        (1, "return d;", "return d"),
    ]
    if fixed:
        yield Scenario("fixed_" + name, [], [], body, returns=True,
                       twin_of="tm_" + name)
    else:
        yield Scenario("tm_" + name, [key], ["host-read-before-sync"], body,
                       returns=True)


TENSOR_SCENARIOS = {
    "TensorView": sc_view,
    "TensorViewList": sc_view_list,
    "TensorMetadata": sc_metadata,
    "TensorHostRead": sc_host_sync,
    "TensorToHost": sc_host_sync,
    "TensorTo": sc_tensor_to,
    "TensorCopyFrom": sc_copy_from,
    "TensorRecordStream": sc_record_stream,
    "TensorPinMemory": sc_pin_memory,
    "TensorSizedByData": sc_host_sync,
}


# --- torch functions ---------------------------------------------------------

def sc_factory(name, row, key, fixed=False):
    cargs, pargs = need(FUNCTION_ARGS, name, "torch function")
    body = [
        POOL,
        (1, "at::Tensor y;", None),
        GUARD,
        (2, "y = at::%s(%s);" % (name, cargs),
         "y = torch.%s(%s)" % (name, pargs)),
        END,
    ] + ([SYNC] if fixed else []) + [(1, "y.sum();", "y.sum()")]
    if fixed:
        # y, used on the current stream, escapes: no record_stream needed.
        body.append((1, "return y;", "return y"))
        yield Scenario("fixed_" + name, [], [], body, returns=True,
                       twin_of="tf_" + name)
    else:
        expect = FUNCTION_EXPECT.get(name, ["unsynchronized-access"])
        yield Scenario("tf_" + name, [key], expect, body)


def sc_sized_by_data(name, row, key):
    """at::name(x): the host waits for the current stream to read the
    result's size, so y, allocated there, is complete when the side stream
    writes it."""
    cargs, pargs = need(FUNCTION_ARGS, name, "torch function")
    body = [
        POOL,
        (1, "at::Tensor y = at::ones({4}, at::kCUDA);",
         'y = torch.ones(4, device="cuda")'),
        (1, "at::%s(%s);" % (name, cargs), "torch.%s(%s)" % (name, pargs)),
        GUARD,
        (2, "y.add_(1);", "y.add_(1)"),
        END,
        (1, "return y;", "return y"),
    ]
    yield Scenario("tf_" + name, [key], [], body, returns=True)


FUNCTION_SCENARIOS = {"AtenFactory": sc_factory,
                      "AtenSizedByData": sc_sized_by_data}


def placement_scenarios():
    """Where a factory allocates, as each front end reads its options."""
    # No device: host memory, no stream.
    yield Scenario("place_host", [], [], [
        POOL, (1, "at::Tensor y;", None), GUARD,
        (2, "y = at::zeros({4});", "y = torch.zeros(4)"), END,
        (1, "y.sum();", "y.sum()")])
    yield Scenario("place_cpu", [], [], [
        POOL, (1, "at::Tensor y;", None), GUARD,
        (2, 'y = at::zeros({4}, at::TensorOptions().device("cpu"));',
         'y = torch.zeros(4, device="cpu")'), END,
        (1, "y.sum();", "y.sum()")])
    # Pinned: a non_blocking copy still reads it when the host writes it.
    yield Scenario("place_pinned", [], ["host-read-before-sync"], [
        (1, "at::Tensor h = at::empty({4}, "
            "at::TensorOptions().pinned_memory(true));",
         "h = torch.empty(4, pin_memory=True)"),
        (1, "at::Tensor d = h.to(at::kCUDA, /*non_blocking=*/true);",
         'd = h.to("cuda", non_blocking=True)'),
        (1, "h.fill_(1);", "h.fill_(1)"),
        (1, "return d;", "return d")], returns=True)
    # A GPU named by its index: the current stream of device 1, which a
    # pool stream of device 1 then writes without a wait.
    yield Scenario("place_device_1", [], ["unsynchronized-access"], [
        (1, "at::Tensor y = at::zeros({4}, at::Device(at::kCUDA, 1));",
         'y = torch.zeros(4, device=torch.device("cuda", 1))'),
        (1, "{ c10::cuda::CUDAGuard dg(1);", "with torch.cuda.device(1):"),
        (2, "auto s = c10::cuda::getStreamFromPool();",
         "s = torch.cuda.Stream()"),
        (2, "{ c10::cuda::CUDAStreamGuard g(s);",
         "with torch.cuda.stream(s):"),
        (3, "y.fill_(1);", "y.fill_(1)"), END, END,
        (1, "return y;", "return y")], params=("", ""), returns=True)


# --- the naming conventions (no rows: every other name) ----------------------

def convention_scenarios():
    """Names the model has no row for follow PyTorch's naming conventions
    (lib/model/Naming.h) in both languages."""
    # t.mul(2): an op, a new tensor on the current (side) stream.
    yield Scenario("conv_method_op", [], ["unsynchronized-access"], [
        SYNC, POOL, (1, "at::Tensor y;", None), GUARD,
        (2, "y = x.mul(2);", "y = x.mul(2)"), END,
        (1, "y.sum();", "y.sum()")])
    # t.mul_(2): writes t on the side stream.
    yield Scenario("conv_method_in_place", [], ["unsynchronized-access"], [
        SYNC, POOL, GUARD, (2, "x.mul_(2);", "x.mul_(2)"), END,
        (1, "x.sum();", "x.sum()")])
    # torch.mul(t, 2): an op.
    yield Scenario("conv_function_op", [], ["unsynchronized-access"], [
        SYNC, POOL, (1, "at::Tensor y;", None), GUARD,
        (2, "y = at::mul(x, 2);", "y = torch.mul(x, 2)"), END,
        (1, "y.sum();", "y.sum()")])
    # torch.relu_(t): writes t.
    yield Scenario("conv_function_in_place", [], ["unsynchronized-access"], [
        SYNC, POOL, GUARD, (2, "at::relu_(x);", "torch.relu_(x)"), END,
        (1, "x.sum();", "x.sum()")], params=("at::Tensor x", X[1]))
    # torch.zeros_like(t): a factory where t is (a device).
    yield Scenario("conv_like_factory", [], ["unsynchronized-access"], [
        SYNC, POOL, (1, "at::Tensor y;", None), GUARD,
        (2, "y = at::zeros_like(x);", "y = torch.zeros_like(x)"), END,
        (1, "y.sum();", "y.sum()")])


# --- stream APIs -------------------------------------------------------------

# How each C++ and Python name of a stream source is called.
STREAM_SOURCES = {
    "c10::cuda::getStreamFromPool": "c10::cuda::getStreamFromPool()",
    "c10::cuda::getDefaultCUDAStream": "c10::cuda::getDefaultCUDAStream()",
    "c10::cuda::getCurrentCUDAStream": "c10::cuda::getCurrentCUDAStream()",
    "c10::cuda::getStreamFromExternal":
        "c10::cuda::getStreamFromExternal(nullptr, 0)",
    "torch.cuda.Stream": "torch.cuda.Stream()",
    "torch.cuda.default_stream": "torch.cuda.default_stream()",
    "torch.cuda.current_stream": "torch.cuda.current_stream()",
    "torch.cuda.ExternalStream": "torch.cuda.ExternalStream(0)",
}
# What a tensor of the current stream read on each source gives.
STREAM_SOURCE_EXPECT = {
    "StreamFromPool": ["missing-record-stream", "unsynchronized-access"],
    "CurrentStream": [],
    "DefaultStream": [],
    "ExternalStream": [],
}


def side_read(name, rows, expect, src=None, guard=None):
    """y written on the current stream, read under a guard of s."""
    return Scenario(name, rows, expect, [
        (1, "auto s = %s;" % src[0], "s = %s" % src[1]) if src else POOL,
        (1, "at::Tensor y = x + 1;", "y = x + 1"),
        (1, "at::Tensor z;", None),
        guard or GUARD,
        (2, "z = y * 2;", "z = y * 2"),
        END,
        (1, "return z;", "return z"),
    ], returns=True)


def sc_stream_source(cpp, py, key, effect):
    src = (need(STREAM_SOURCES, cpp, "stream API"),
           need(STREAM_SOURCES, py, "stream API"))
    yield side_read("api_" + ident(cpp), [key],
                    need(STREAM_SOURCE_EXPECT, effect, "stream source effect"),
                    src=src)


def sc_set_stream(cpp, py, key, effect):
    assert (cpp, py) == ("c10::cuda::setCurrentCUDAStream",
                         "torch.cuda.set_stream"), (cpp, py)
    yield Scenario("api_" + ident(cpp), [key], ["unrestored-current-stream"], [
        POOL,
        (1, "c10::cuda::setCurrentCUDAStream(s);", "torch.cuda.set_stream(s)"),
    ])
    yield Scenario("fixed_" + ident(cpp), [], [], [
        (1, "auto prev = c10::cuda::getCurrentCUDAStream();",
         "prev = torch.cuda.current_stream()"),
        POOL,
        (1, "c10::cuda::setCurrentCUDAStream(s);", "torch.cuda.set_stream(s)"),
        (1, "c10::cuda::setCurrentCUDAStream(prev);",
         "torch.cuda.set_stream(prev)"),
    ], twin_of="api_" + ident(cpp))


# Event classes: how a new event is made in each language.
EVENT_CLASSES = {
    "at::cuda::CUDAEvent": ("at::cuda::CUDAEvent e;", "e = torch.cuda.Event()"),
    "c10::Event": ("c10::Event e(c10::DeviceType::CUDA);",
                   'e = torch.Event("cuda")'),
}
CURRENT = ("c10::cuda::getCurrentCUDAStream()", "torch.cuda.current_stream()")


def split_method(cpp):
    cls, _, method = cpp.rpartition("::")
    return cls, method


def ident(name):
    return name.replace("::", "_").replace(".", "_").replace(" ", "_")


def event_decl(cls):
    return (1,) + need(EVENT_CLASSES, cls, "event class")


def ordered_read(name, rows, expect, cls, record, wait):
    """y written on the current stream; an event recorded there; s waits;
    s reads y."""
    return Scenario(name, rows, expect, [
        POOL,
        (1, "at::Tensor y = x + 1;", "y = x + 1"),
        event_decl(cls),
        record,
        wait,
        (1, "at::Tensor z;", None),
        GUARD,
        (2, "z = y * 2;", "z = y * 2"),
        END,
        (1, "return y;", "return y"),
    ], returns=True)


def record_lines(cls, cm="record", pm="record"):
    """The record calls of cls (C++ method cm, Python method pm): (suffix,
    (depth, C++, Python)). c10::Event::record takes a stream."""
    out = []
    if cls == "at::cuda::CUDAEvent":
        out.append(("", (1, "e.%s();" % cm, "e.%s()" % pm)))
    out.append(("_on_current", (1, "e.%s(%s);" % (cm, CURRENT[0]),
                                "e.%s(%s)" % (pm, CURRENT[1]))))
    return out


def sc_event_record(cpp, py, key, effect):
    cls, method = split_method(cpp)
    for suffix, rec in record_lines(cls, method, py.split(".")[-1]):
        yield ordered_read("api_" + ident(cpp) + suffix, [key], [], cls, rec,
                           (1, "e.block(s);", "e.wait(s)"))
    if cls == "at::cuda::CUDAEvent":
        yield ordered_read("unfixed_" + ident(cpp), [],
                           ["unrecorded-event-wait", "unsynchronized-access"],
                           cls, BLANK, (1, "e.block(s);", "e.wait(s)"))


def sc_event_block(cpp, py, key, effect):
    cls, method = split_method(cpp)
    rec = record_lines(cls)[-1][1]
    yield ordered_read("api_" + ident(cpp), [key], [], cls, rec,
                       (1, "e.%s(s);" % method, "e.%s(s)" % py.split(".")[-1]))


def sc_stream_wait_event(cpp, py, key, effect):
    # c10::Stream::wait(ev) calls ev.block(stream): a c10::Event's.
    cls = "c10::Event"
    rec = record_lines(cls)[-1][1]
    yield ordered_read("api_" + ident(cpp), [key], [], cls, rec,
                       (1, "s.unwrap().wait(e);",
                        "s.%s(e)" % py.split(".")[-1]))
    yield ordered_read("unfixed_" + ident(cpp), [], ["unsynchronized-access"],
                       cls, rec, BLANK)


def host_waits(name, rows, expect, wait, pre=(), params=X):
    """y allocated on the side stream (an event recorded after it there);
    the host waits; the current stream reads y."""
    return Scenario(name, rows, expect, list(pre) + [
        POOL,
        (1, "at::Tensor y;", None),
        GUARD,
        (2, "y = at::ones({4}, at::kCUDA);", 'y = torch.ones(4, device="cuda")'),
        (2, "e.record();", "e.record()") if pre else BLANK,
        END,
        wait,
        (1, "y.sum();", "y.sum()"),
        (1, "return y;", "return y"),
    ], params=params, returns=True)


def sc_event_synchronize(cpp, py, key, effect):
    cls, method = split_method(cpp)
    assert cls == "at::cuda::CUDAEvent", cls
    yield host_waits("api_" + ident(cpp), [key], [],
                     (1, "e.synchronize();", "e.synchronize()"),
                     pre=[event_decl(cls)])
    yield host_waits("unfixed_" + ident(cpp), [], ["unsynchronized-access"],
                     BLANK, pre=[event_decl(cls)])


# The stream whose synchronize() a C++ name is: how it is called on s.
STREAM_SYNC = {
    "c10::cuda::CUDAStream::synchronize": "s.synchronize();",
    "c10::Stream::synchronize": "s.unwrap().synchronize();",
}


def sc_stream_synchronize(cpp, py, key, effect):
    c = need(STREAM_SYNC, cpp, "stream method")
    yield host_waits("api_" + ident(cpp), [key], [],
                     (1, c, "s.%s()" % py.split(".")[-1]))


DEVICE_SYNC = {
    "cudaDeviceSynchronize": "cudaDeviceSynchronize();",
    "c10::cuda::device_synchronize": "c10::cuda::device_synchronize();",
    "torch::cuda::synchronize": "torch::cuda::synchronize();",
    "torch.cuda.synchronize": "torch.cuda.synchronize()",
}


def sc_device_synchronize(cpp, py, key, effect):
    yield host_waits("api_" + ident(cpp), [key], [],
                     (1, need(DEVICE_SYNC, cpp, "device synchronisation"),
                      need(DEVICE_SYNC, py, "device synchronisation")))
    if cpp == "cudaDeviceSynchronize":
        yield host_waits("unfixed_device_synchronize", [],
                         ["unsynchronized-access"], BLANK)


def captured(name, rows, expect, pre, query, record=None):
    """query() while the side stream s captures a graph (of an event
    recorded in the capture: a query of any other event is allowed)."""
    return Scenario(name, rows, expect, [
        pre,
        (1, "at::cuda::CUDAGraph gr;", "gr = torch.cuda.CUDAGraph()"),
        POOL,
        (1, "{ c10::cuda::CUDAStreamGuard g(s); gr.capture_begin();",
         "with torch.cuda.graph(gr, stream=s):"),
        (2,) + record[1:] if record else BLANK,
        (2, query[0], query[1]),
        (2, "gr.capture_end();", None),
        END,
    ])


def sc_restricted_event_query(cpp, py, key, effect):
    cls, method = split_method(cpp)
    yield captured("api_" + ident(cpp), [key], ["graph-capture"],
                   event_decl(cls), ("e.%s();" % method,
                                     "e.%s()" % py.split(".")[-1]),
                   record=record_lines(cls)[-1][1])


def sc_restricted_stream_query(cpp, py, key, effect):
    q = {"c10::cuda::CUDAStream::query": "s.query();",
         "c10::Stream::query": "s.unwrap().query();"}
    yield captured("api_" + ident(cpp), [key], ["graph-capture"], BLANK,
                   (need(q, cpp, "stream query"), "s.query()"))


def sc_graph_replay(cpp, py, key, effect):
    """A graph that writes y, captured on the side stream s; y written again
    on the current stream; then the replay. On another pool stream with no
    wait, the replay's write races with that write; on the current stream
    it is ordered after it (the fix)."""
    def body(replay):
        return [
            (1, "at::cuda::CUDAGraph gr;", "gr = torch.cuda.CUDAGraph()"),
            POOL,
            (1, "{ c10::cuda::CUDAStreamGuard g(s); gr.capture_begin();",
             "with torch.cuda.graph(gr, stream=s):"),
            # The guard's "}" and the with-block end on one line.
            (2, "y.add_(1); gr.capture_end();", "y.add_(1)"),
            END,
            (1, "y.mul_(2);", "y.mul_(2)"),
        ] + replay
    Y = ("at::Tensor &y", "y: torch.Tensor")
    name = "api_" + ident(cpp)
    yield Scenario(name, [key], ["unsynchronized-access"], body([
        (1, "auto r = c10::cuda::getStreamFromPool();",
         "r = torch.cuda.Stream()"),
        (1, "{ c10::cuda::CUDAStreamGuard g2(r);", "with torch.cuda.stream(r):"),
        (2, "gr.replay();", "gr.replay()"),
        END]), params=Y)
    yield Scenario("fixed_" + ident(cpp), [], [],
                   body([(1, "gr.replay();", "gr.replay()")]), params=Y,
                   twin_of=name)


API_SCENARIOS = {
    "GraphReplay": sc_graph_replay,
    "StreamFromPool": sc_stream_source,
    "DefaultStream": sc_stream_source,
    "CurrentStream": sc_stream_source,
    "ExternalStream": sc_stream_source,
    "SetCurrentStream": sc_set_stream,
    "EventRecord": sc_event_record,
    "EventBlock": sc_event_block,
    "StreamWaitEvent": sc_stream_wait_event,
    "EventSynchronize": sc_event_synchronize,
    "StreamSynchronize": sc_stream_synchronize,
    "DeviceSynchronize": sc_device_synchronize,
    "RestrictedEventQuery": sc_restricted_event_query,
    "RestrictedStreamQuery": sc_restricted_stream_query,
}


# --- classes -----------------------------------------------------------------

def sc_tensor_class(cpp, py, key):
    # A tensor parameter is ready on the caller's stream: writing it on a
    # side stream without a wait races (a value of no known class: silent).
    yield Scenario("cls_" + ident(cpp), [key], ["unsynchronized-access"], [
        POOL, GUARD, (2, "x.add_(1);", "x.add_(1)"), END,
    ], params=("const %s &x" % cpp, "x: %s" % py))


def sc_stream_class(cpp, py, key):
    # record_stream(p) on a stream parameter: the side stream's use is not
    # recorded (a value of no known class would record every use).
    yield from sc_record_stream(
        "record_stream", None, key, params=("%s p" % cpp, "p: %s" % py),
        stream="p", sc_name="cls_" + ident(cpp),
        expect=["missing-record-stream"])


def sc_event_class(cpp, py, key):
    # A new event, never recorded, waited on.
    if ("= %s(" % py) not in need(EVENT_CLASSES, cpp, "event class")[1]:
        raise Failure("EVENT_CLASSES['%s'] does not make a %s" % (cpp, py))
    yield Scenario("cls_" + ident(cpp), [key], ["unrecorded-event-wait"], [
        POOL, event_decl(cpp), (1, "e.block(s);", "e.wait(s)"),
    ])


def sc_stream_guard(cpp, py, key):
    guard = (1, "{ %s g(s);" % cpp, "with %s(s):" % py)
    yield side_read("cls_" + ident(cpp) + "_" + ident(py), [key],
                    STREAM_SOURCE_EXPECT["StreamFromPool"], guard=guard)


def sc_device_guard(cpp, py, key):
    # On device 1 (the guard), a pool stream writes a tensor of device 1
    # allocated on its current stream, with no wait.
    yield Scenario("cls_" + ident(cpp), [key], ["unsynchronized-access"], [
        (1, 'at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));',
         'out = torch.empty(16, device="cuda:1")'),
        (1, "{ %s dg(1);" % cpp, "with %s(1):" % py),
        (2, "auto s = c10::cuda::getStreamFromPool();", "s = torch.cuda.Stream()"),
        (2, "{ c10::cuda::CUDAStreamGuard g(s);", "with torch.cuda.stream(s):"),
        (3, "out.fill_(1);", "out.fill_(1)"),
        END,
        END,
        (1, "return out;", "return out"),
    ], params=("", ""), returns=True)


CLASS_SCENARIOS = {
    "Tensor": sc_tensor_class,
    "Stream": sc_stream_class,
    "Event": sc_event_class,
    "StreamGuard": sc_stream_guard,
    "DeviceGuard": sc_device_guard,
}

# ---------------------------------------------------------------------------


def names(spelling):
    return [n for n in (spelling or "").split(";") if n]


def both(row):
    return bool(row.get("cpp")) and bool(row.get("python") or
                                         row.get("python_attribute"))


def check_one_language(table, row):
    label = row.get("name") or row.get("cpp") or row.get("python")
    if both(row):
        if row.get("one_language"):
            raise Failure("%s row '%s' is spelled in both languages but marked "
                          "single-language (%s)" % (table, label,
                                                    row["one_language"]))
        return True
    if not row.get("one_language"):
        raise Failure("%s row '%s' was added in one spelling only and not "
                      "marked single-language (give its one_language reason "
                      "in lib/model, or its other spelling)" % (table, label))
    return False


def generate(model):
    scenarios, covered, skipped = [], {}, {}

    def add(key, gen):
        made = list(gen)
        if not made:
            skipped[key] = "no spelling available"
        for sc in made:
            scenarios.append(sc)
        for sc in made:
            for r in sc.rows:
                covered[r] = covered.get(r, 0) + 1

    for row in model["tensor_methods"]:
        if not check_one_language("tensor_methods", row):
            continue
        name, effect = row["name"], row["effect"]
        key = "tensor_methods:" + name
        if row["cpp"] in NOT_IN_LIBTORCH:
            skipped[key] = NOT_IN_LIBTORCH[row["cpp"]]
            continue
        gen = TENSOR_SCENARIOS.get(effect)
        if gen is None:
            raise Failure("tensor method '%s' (both languages) has effect %s, "
                          "for which test/model/gen_parity.py has no scenario "
                          "(TENSOR_SCENARIOS)" % (name, effect))
        add(key, gen(name, row, key))
    for row in model["torch_functions"]:
        if not check_one_language("torch_functions", row):
            continue
        name, effect = row["name"], row["effect"]
        key = "torch_functions:" + name
        gen = FUNCTION_SCENARIOS.get(effect)
        if gen is None:
            raise Failure("torch function '%s' (both languages) has effect %s, "
                          "for which test/model/gen_parity.py has no scenario "
                          "(FUNCTION_SCENARIOS)" % (name, effect))
        add(key, gen(name, row, key))
    for row in model["apis"]:
        if not check_one_language("apis", row):
            continue
        effect = row["effect"]
        key = "apis:" + row["cpp"]
        gen = API_SCENARIOS.get(effect)
        if gen is None:
            raise Failure("API '%s' / '%s' (both languages) has effect %s, for "
                          "which test/model/gen_parity.py has no scenario "
                          "(API_SCENARIOS)" % (row["cpp"], row["python"],
                                               effect))
        py = names(row["python"])
        if len(py) != 1:
            raise Failure("API row '%s' has %d Python names: one expected"
                          % (row["cpp"], len(py)))

        def each(row=row, gen=gen, py=py[0], key=key, effect=effect):
            for cpp in names(row["cpp"]):
                if cpp in NOT_IN_LIBTORCH or split_method(cpp)[0] in \
                        NOT_IN_LIBTORCH:
                    continue
                yield from gen(cpp, py, key, effect)
        add(key, each())
    for row in model["classes"]:
        if not check_one_language("classes", row):
            continue
        key = "classes:" + row["cpp"]
        gen = CLASS_SCENARIOS.get(row["class"])
        if gen is None:
            raise Failure("class '%s' / '%s' (both languages) is a %s, for "
                          "which test/model/gen_parity.py has no scenario "
                          "(CLASS_SCENARIOS)" % (row["cpp"], row["python"],
                                                 row["class"]))

        def each(row=row, gen=gen, key=key):
            for cpp in names(row["cpp"]):
                if cpp in NOT_IN_LIBTORCH:
                    continue
                for py in names(row["python"]):
                    yield from gen(cpp, py, key)
        add(key, each())
    # The negative twins and the naming conventions.
    scenarios += [view_twin(), metadata_twin()] + list(other_twins())
    scenarios += list(sc_host_sync("item", None, None, twin=True))
    scenarios += list(sc_copy_from("copy_", None, None, fixed=True))
    scenarios += list(sc_record_stream("record_stream", None, None,
                                       fixed=False))
    scenarios += list(sc_pin_memory("pin_memory", None, None, fixed=True))
    scenarios += list(sc_factory("zeros", None, None, fixed=True))
    scenarios += list(convention_scenarios())
    scenarios += list(placement_scenarios())
    seen = set()
    for sc in scenarios:
        if sc.name in seen:
            raise Failure("two scenarios named '%s'" % sc.name)
        seen.add(sc.name)
    return scenarios, covered, skipped


CPP_HEADER = [
    "// Generated by test/model/gen_parity.py from streamsafe-model: each",
    "// function has its Python twin, line for line, in parity.py.",
    "#include <ATen/ATen.h>",
    "#include <ATen/cuda/CUDAContext.h>",
    "#include <ATen/cuda/CUDAEvent.h>",
    "#include <ATen/cuda/CUDAGraph.h>",
    "#include <c10/cuda/CUDAFunctions.h>",
    "#include <c10/cuda/CUDAGuard.h>",
    "#include <c10/cuda/CUDAStream.h>",
    "#include <torch/cuda.h>",
]
PY_HEADER = [
    "# Generated by test/model/gen_parity.py from streamsafe-model: each",
    "# def has its C++ twin, line for line, in parity.cpp.",
    "import torch",
]


def write(scenarios, out_dir):
    cpp = list(CPP_HEADER)
    py = PY_HEADER + [""] * (len(CPP_HEADER) - len(PY_HEADER))
    index = []
    for sc in scenarios:
        cpp.append("")
        py.append("")
        first = len(cpp) + 1
        for c, p in lines_of(sc):
            cpp.append(c)
            py.append(p)
        index.append({"name": sc.name, "first": first, "last": len(cpp),
                      "rows": sc.rows, "expect": sc.expect,
                      "twin_of": sc.twin_of, "known_disagreement": sc.known})
    assert len(cpp) == len(py)
    with open(os.path.join(out_dir, "parity.cpp"), "w") as f:
        f.write("\n".join(cpp) + "\n")
    with open(os.path.join(out_dir, "parity.py"), "w") as f:
        f.write("\n".join(py) + "\n")
    with open(os.path.join(out_dir, "parity.json"), "w") as f:
        json.dump(index, f, indent=1)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_parity.py MODEL.json OUT_DIR")
    with open(sys.argv[1], encoding="utf-8") as f:
        model = json.load(f)
    try:
        scenarios, covered, skipped = generate(model)
    except Failure as e:
        sys.exit("gen_parity.py: error: %s" % e)
    known = list(disagreement_scenarios())
    os.makedirs(sys.argv[2], exist_ok=True)
    write(scenarios + known, sys.argv[2])
    twins = sum(1 for sc in scenarios if not sc.rows)
    print("%d rows in both languages: %d covered, %d skipped; %d scenarios "
          "(%d of them twins, conventions, placements); %d known "
          "disagreements" % (len(covered) + len(skipped), len(covered),
                             len(skipped), len(scenarios), twins, len(known)))
    for key, why in sorted(skipped.items()):
        print("skipped %s: %s" % (key, why))


if __name__ == "__main__":
    main()
