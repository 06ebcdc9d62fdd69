#!/usr/bin/env python3
"""Holds the docs to the API model (lib/model), as streamsafe-model dumps it.

    model_docs.py --model-tool=build/bin/streamsafe-model --root=. [--write]

Two sections of the docs are generated from the model, between markers:

- docs/api-model.md, `<!-- model:begin -->` ... `<!-- model:end -->`: every
  row of the model (C++ spelling, Python spelling, effect, and for a row
  spelled in one language only, why);
- docs/python.md, `<!-- model:python:begin -->` ... `<!-- model:python:end
  -->`: the Python names the model knows.

Without --write, fails when either section differs from what the model
gives (printing the difference and the command that regenerates them). It
also checks the hand-written text around them: every Python API and class
of the model is named in python.md's table of what is modelled, and the
bounds the docs quote (MaxInlinedCallees, MaxBodyNesting) are the model's.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys

API_DOC = os.path.join("docs", "api-model.md")
PY_DOC = os.path.join("docs", "python.md")
BOUND_DOCS = (PY_DOC, os.path.join("docs", "design.md"))
REGENERATE = ("python3 test/model/model_docs.py "
              "--model-tool=build/bin/streamsafe-model --root=. --write")
NOTICE = ("<!-- Generated from lib/model by test/model/model_docs.py --write "
          "(streamsafe-model's dump); test/model/docs.test fails when it is "
          "out of date. Do not edit by hand. -->")


def code(s):
    return "`%s`" % s


def names(spelling):
    return [n for n in (spelling or "").split(";") if n]


def codes(spelling):
    return ", ".join(code(n) for n in names(spelling)) or "—"


def why(row):
    return row.get("one_language") or ""


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append(("| " + " | ".join(r) + " |").replace("|  |", "| |"))
    return out


def method_cpp(row):
    return code(row["name"] + "()") if row["cpp"] else "—"


def method_py(row):
    if row["python"]:
        return code("t.%s()" % row["name"])
    if row["python_attribute"]:
        return code("t." + row["name"])
    return "—"


def api_model_section(m):
    out = [NOTICE, ""]
    out += ["### Stream, event, runtime and thread APIs (`lib/model/ApiRows.cpp`)",
            "",
            "Each row's operands (which argument is the stream, the event, "
            "the destination, ...) are in the row itself.", ""]
    out += table(["C++", "Python", "effect", "one language only: why"],
                 [[codes(r["cpp"]), codes(r["python"]), r["effect"], why(r)]
                  for r in m["apis"]])
    out += ["", "### Classes the analysis follows", ""]
    out += table(["C++", "Python", "class", "one language only: why"],
                 [[codes(r["cpp"]), codes(r["python"]), r["class"], why(r)]
                  for r in m["classes"]])
    out += ["", "### Methods of a tensor (`lib/model/TensorMethods.cpp`)", "",
            "`at::Tensor`'s methods in C++, `torch.Tensor`'s methods and "
            "properties in Python. A method with no row is in place when its "
            "name ends in `_` (TensorInPlace), an op otherwise (TensorOp): "
            "`lib/model/Naming.h`.", ""]
    out += table(["method", "C++", "Python", "effect",
                  "one language only: why"],
                 [[code(r["name"]), method_cpp(r), method_py(r), r["effect"],
                   why(r)] for r in m["tensor_methods"]])
    out += ["", "### Free functions of `at::` and `torch.` "
            "(`lib/model/TorchFunctions.cpp`)", "",
            "A function with no row follows the naming conventions: `_out` "
            "and `_outf` write an out argument (AtenOutFirst, AtenOutLast), a "
            "trailing `_` writes the first (AtenInPlace), `_like` is a "
            "factory (AtenFactory); any other is an op (AtenOp). In Python a "
            "capitalised `torch.X` (a class) returns no tensor "
            "(AtenNoTensor), and `torch.nn.functional.X` is an op.", ""]
    out += table(["function", "C++", "Python", "effect",
                  "one language only: why"],
                 [[code(r["name"]), codes(r["cpp"]), codes(r["python"]),
                   r["effect"], why(r)] for r in m["torch_functions"]])
    b = m["bounds"]
    out += ["", "### Bounds (`lib/model/Bounds.h`)", "",
            "At most %d same-file helpers run in place per analysed function "
            "(`MaxInlinedCallees`), nested at most %d deep "
            "(`MaxBodyNesting`), in both front ends."
            % (b["max_inlined_callees"], b["max_body_nesting"])]
    return out


def by_effect(rows, spell):
    """[(effect, [spellings])] in the model's order."""
    groups = {}
    for r in rows:
        s = spell(r)
        if s:
            groups.setdefault(r["effect"], []).append(s)
    return list(groups.items())


def python_section(m):
    out = [NOTICE, ""]
    out += ["Stream, event and thread APIs (`lib/model/ApiRows.cpp`; "
            "docs/api-model.md has every row, C++'s too):", ""]
    out += table(["Python", "effect", "C++", "Python only: why"],
                 [[codes(r["python"]), r["effect"], codes(r["cpp"]), why(r)]
                  for r in m["apis"] if r["python"]])
    out += ["", "Classes: a parameter annotated with one is followed; a "
            "call of one makes a new value (an event, a guard).", ""]
    out += table(["Python", "class", "C++", "Python only: why"],
                 [[codes(r["python"]), r["class"], codes(r["cpp"]), why(r)]
                  for r in m["classes"] if r["python"]])
    out += ["", "Methods and properties of a tensor with a row "
            "(`lib/model/TensorMethods.cpp`); any other method is in place "
            "when its name ends in `_`, an op otherwise:", ""]

    def tensor_spell(r):
        if r["python"]:
            return code(r["name"] + "()")
        if r["python_attribute"]:
            return code(r["name"])
        return None
    out += table(["effect", "`t.` ..."],
                 [[e, ", ".join(s)] for e, s in
                  by_effect(m["tensor_methods"], tensor_spell)])
    out += ["", "Functions of `torch.` with a row "
            "(`lib/model/TorchFunctions.cpp`); any other follows the naming "
            "conventions (`_out`, a trailing `_`, `_like`) or is an op, a "
            "capitalised `torch.X` returns no tensor, and "
            "`torch.nn.functional.X` is an op:", ""]
    out += table(["effect", "`torch.` ..."],
                 [[e, ", ".join(s)] for e, s in
                  by_effect(m["torch_functions"],
                            lambda r: code(r["name"]) if r["python"]
                            else None)])
    return out


def replace_between(text, begin, end, lines, path):
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise SystemExit("%s: no '%s' ... '%s' markers" % (path, begin, end))
    return text[:i + len(begin)] + "\n" + "\n".join(lines) + "\n" + text[j:]


SECTIONS = [
    (API_DOC, "<!-- model:begin -->", "<!-- model:end -->", api_model_section),
    (PY_DOC, "<!-- model:python:begin -->", "<!-- model:python:end -->",
     python_section),
]


def hand_written(text, begin, end):
    i, j = text.find(begin), text.find(end)
    return text[:i] + text[j:] if 0 <= i < j else text


def python_names_problems(m, root):
    """Every Python API and class of the model is named in python.md's
    hand-written text: a method as `.name(`, a function or class by its
    dotted name."""
    with open(os.path.join(root, PY_DOC), encoding="utf-8") as f:
        text = hand_written(f.read(), SECTIONS[1][1], SECTIONS[1][2])
    problems = []
    for r in m["apis"] + m["classes"]:
        for n in names(r["python"]):
            parts = n.split(".")
            method = len(parts) > 3 and parts[-2][0].isupper()
            needle = "." + parts[-1] + "(" if method else n
            if needle not in text:
                problems.append(
                    "%s: the model's Python API %s is not named in the text "
                    "(looked for '%s'): add it to the table of what is "
                    "modelled" % (PY_DOC, n, needle))
    return problems


BOUND_PATTERNS = [
    r"at most (\d+)\s+\(`{0}`",
    r"`{0}`\s+\((\d+)\)",
    r"\| `{0}`[^|\n]*\| (\d+) \|",
]


def bounds_problems(m, root):
    problems = []
    for doc in BOUND_DOCS:
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            text = f.read()
        for name, key in (("MaxInlinedCallees", "max_inlined_callees"),
                          ("MaxBodyNesting", "max_body_nesting")):
            for p in BOUND_PATTERNS:
                for x in re.finditer(p.format(name), text):
                    if int(x.group(1)) != m["bounds"][key]:
                        problems.append("%s: says %s is %s; the model's is %d"
                                        % (doc, name, x.group(1),
                                           m["bounds"][key]))
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model-tool", required=True,
                   help="streamsafe-model, or a file of its JSON")
    p.add_argument("--root", required=True, help="the source tree")
    p.add_argument("--write", action="store_true",
                   help="regenerate the sections instead of checking them")
    args = p.parse_args()
    if args.model_tool.endswith(".json"):
        with open(args.model_tool, encoding="utf-8") as f:
            m = json.load(f)
    else:
        m = json.loads(subprocess.run([args.model_tool], check=True,
                                      stdout=subprocess.PIPE,
                                      text=True).stdout)
    problems = []
    for doc, begin, end, make in SECTIONS:
        path = os.path.join(args.root, doc)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = replace_between(old, begin, end, make(m), doc)
        if args.write:
            if new != old:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
                print("wrote " + doc)
        elif new != old:
            problems.append("%s: the generated section is out of date:\n%s"
                            % (doc, "".join(difflib.unified_diff(
                                old.splitlines(True), new.splitlines(True),
                                doc, doc + " (from the model)", n=1))))
    problems += python_names_problems(m, args.root)
    problems += bounds_problems(m, args.root)
    for x in problems:
        print("error: " + x)
    if problems and not args.write:
        print("regenerate the sections with: " + REGENERATE)
    print("%d API rows, %d classes, %d tensor methods, %d torch functions; "
          "%d problems" % (len(m["apis"]), len(m["classes"]),
                           len(m["tensor_methods"]), len(m["torch_functions"]),
                           len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
