"""Writes a translation unit of random functions over LibTorch's stream
APIs (test/tools/random-functions.test): pool streams, guards, set-current,
event records, waits and syncs, stream syncs, record_stream, non_blocking
copies, threads, branches and nested loops, in random order.

usage: gen_random_functions.py SEED COUNT > file.cpp

The same seed gives the same file. Used to check that the engine converges
and never crashes on shapes nobody wrote by hand; differential runs against
an older build found the non-converging loops and the dropped guards fixed
in the engine.
"""
import random, sys
HDR = """#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <thread>
"""
def fn(rng, idx):
    T = ["x", "y"]  # tensors in scope
    S = ["s0", "s1", "s2"]
    E = ["e0", "e1"]
    out = [f"void f{idx}(at::Tensor x, at::Tensor y, bool c, int n) {{",
           "  auto s0 = at::cuda::getStreamFromPool();",
           "  auto s1 = at::cuda::getStreamFromPool();",
           "  auto s2 = at::cuda::getCurrentCUDAStream();",
           "  at::cuda::CUDAEvent e0, e1;"]
    cnt = [0]
    def new():
        cnt[0] += 1
        return f"t{cnt[0]}"
    def stmts(depth, scope, ind):
        lines = []
        for _ in range(rng.randint(1, 6 if depth < 3 else 3)):
            k = rng.random()
            vis = scope
            if k < 0.25:
                a = rng.choice(vis); b = rng.choice(vis); t = new()
                op = rng.choice([f"{a}.mul({b})", f"at::matmul({a}, {b})", f"{a}.exp()", f"at::empty_like({a})", f"{a}.clone()", f"{a}.to(at::kCPU, true)"])
                lines.append(f"{ind}at::Tensor {t} = {op};"); vis.append(t)
            elif k < 0.4:
                a = rng.choice(vis); b = rng.choice(vis)
                lines.append(f"{ind}{a}.{rng.choice(['add_','mul_','copy_'])}({b});")
            elif k < 0.48:
                lines.append(f"{ind}{rng.choice(E)}.record({rng.choice(S + ['at::cuda::getCurrentCUDAStream()'])});")
            elif k < 0.56:
                lines.append(f"{ind}{rng.choice(E)}.block({rng.choice(S + ['at::cuda::getCurrentCUDAStream()'])});")
            elif k < 0.6:
                lines.append(f"{ind}{rng.choice(S)}.synchronize();")
            elif k < 0.63:
                a = rng.choice(vis); lines.append(f"{ind}{a}.record_stream({rng.choice(S)});")
            elif k < 0.66:
                a = rng.choice(vis); lines.append(f"{ind}if ({a}.sum().item<float>() > 0) {{ }}")
            elif k < 0.72 and depth < 4:
                lines.append(f"{ind}{{"); lines.append(f"{ind}  c10::cuda::CUDAStreamGuard g{depth}_{cnt[0]}({rng.choice(S)});")
                lines += stmts(depth + 1, list(vis), ind + "  "); lines.append(f"{ind}}}")
            elif k < 0.8 and depth < 4:
                lines.append(f"{ind}if (c) {{"); lines += stmts(depth + 1, list(vis), ind + "  ")
                if rng.random() < 0.5:
                    lines.append(f"{ind}}} else {{"); lines += stmts(depth + 1, list(vis), ind + "  ")
                lines.append(f"{ind}}}")
            elif k < 0.87 and depth < 4:
                lines.append(f"{ind}for (int i{depth} = 0; i{depth} < n; ++i{depth}) {{"); lines += stmts(depth + 1, list(vis), ind + "  "); lines.append(f"{ind}}}")
            elif k < 0.9:
                a = rng.choice(vis); b = rng.choice(vis)
                if a not in ("x", "y") or True:
                    lines.append(f"{ind}{a} = {b}.relu();")
            elif k < 0.93 and depth < 3:
                a = rng.choice(vis)
                th = "th" + new()[1:]  # a fresh name: threads may share a scope
                lines.append(f"{ind}std::thread {th}([&] {{ {a}.add_(1); }});"); lines.append(f"{ind}{th}.join();")
            elif k < 0.96:
                lines.append(f"{ind}at::cuda::setCurrentCUDAStream({rng.choice(S)});")
            else:
                lines.append(f"{ind}e{rng.randint(0,1)}.synchronize();")
        return lines
    out += stmts(0, T, "  ")
    out.append("}")
    return "\n".join(out)


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    print(HDR + "\n\n".join(fn(rng, i) for i in range(count)))


if __name__ == "__main__":
    main()
