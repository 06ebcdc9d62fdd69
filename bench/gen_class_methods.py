#!/usr/bin/env python3
"""Writes a class with N methods that keep their streams, events and
buffers in the object, and a function that drives them all, in C++
(OUT/big.cpp) and Python (OUT/big.py): the object-state benchmark of
docs/performance.md ("A class with 100 methods"). Every method is correct
(ordered both ways), so both front ends must stay silent.

    bench/gen_class_methods.py OUT [N]
"""
import os
import sys


def python_source(n):
    py = ["import torch", "", "", "class Big:", "    def __init__(self, n: int):",
          "        self.side = torch.cuda.Stream()", "        self.done = torch.cuda.Event()"]
    py += ['        self.buf%d = torch.zeros(n, device="cuda")' % i for i in range(n)]
    for i in range(n):
        py += ["", "    def m%d(self, x: torch.Tensor):" % i,
               "        self.side.wait_stream(torch.cuda.current_stream())",
               "        with torch.cuda.stream(self.side):",
               "            self.buf%d.copy_(x * %d)" % (i, i),
               "            self.done.record()",
               "        self.done.wait()",
               "        return self.buf%d.sum()" % i]
    py += ["", "", "def drive(x: torch.Tensor):", "    b = Big(4)"]
    py += ["    b.m%d(x)" % i for i in range(n)]
    return "\n".join(py) + "\n"


def cpp_source(n):
    cpp = ["#include <ATen/ATen.h>", "#include <ATen/cuda/CUDAEvent.h>",
           "#include <c10/cuda/CUDAGuard.h>", "#include <c10/cuda/CUDAStream.h>", "",
           "struct Big {", "  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();",
           "  at::cuda::CUDAEvent done;"]
    cpp += ["  at::Tensor buf%d = at::zeros({4}, at::kCUDA);" % i for i in range(n)]
    for i in range(n):
        cpp += ["  at::Tensor m%d(const at::Tensor &x) {" % i,
                "    at::cuda::CUDAEvent ready;", "    ready.record();", "    ready.block(side);",
                "    {", "      c10::cuda::CUDAStreamGuard g(side);",
                "      buf%d.copy_(x * %d);" % (i, i), "      done.record(side);", "    }",
                "    done.block(at::cuda::getCurrentCUDAStream());",
                "    return buf%d.sum();" % i, "  }"]
    cpp += ["};", "", "void drive(const at::Tensor &x) {", "  Big b;"]
    cpp += ["  b.m%d(x);" % i for i in range(n)]
    cpp.append("}")
    return "\n".join(cpp) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 100
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "big.py"), "w") as f:
        f.write(python_source(n))
    with open(os.path.join(out, "big.cpp"), "w") as f:
        f.write(cpp_source(n))


if __name__ == "__main__":
    main()
