"""Writes a stream-using Python file whose one expression nests N levels.

deep_code.py SHAPE N OUT, SHAPE one of: plus (a + a + ...), call
(f(x)(x)...), attr (x.a.a...), neg (- - ... x), subscript (x[0][0]...),
methods (x.a(x).a(x)...).
"""
import sys

shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
expr = {
    "plus": lambda: " + ".join(["x"] * n),
    "call": lambda: "x" + "(x)" * n,
    "attr": lambda: "x" + ".a" * n,
    "neg": lambda: "-" * n + "x",
    "subscript": lambda: "x" + "[0]" * n,
    "methods": lambda: "x" + ".a(x)" * (n // 2),  # two levels a call
}[shape]()
with open(out, "w") as f:
    f.write("import torch\n\n\ndef f(x):\n"
            "    s = torch.cuda.Stream()\n"
            "    with torch.cuda.stream(s):\n"
            "        y = %s\n"
            "    return y\n" % expr)
