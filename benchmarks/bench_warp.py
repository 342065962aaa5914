"""Compile time against NVIDIA Warp's code generator: `python3 benchmarks/bench_warp.py [--repeat N] [--cold N]
[--only SUBSTR] [--json PATH]`. Needs `warp-lang` (`pip install -r benchmarks/requirements.txt`); no GPU: Warp
runs its code generator on the CPU and no compiler (nvcc, NVRTC, clang) runs on either side.

The same kernels on both sides (SAREK_SRC and WARP_SRC below, same algorithm, same types, same names): the
example corpus's kernels that Warp can express as they are (sarek's side imports them from examples/), others
written for the comparison (a histogram with global atomics: Warp has no block-shared arrays outside its tile
API), and kernels with constant-trip loops (`loop16`: 16 trips; `loop4x4`: two nested 4-trip loops). Warp
copies such loops into its source (its `max_unroll` is 16); sarek's cuda pipeline prints them once under
`#pragma unroll` (NVRTC unrolls; sarek-unroll copies for ptx and the shading languages). What is timed, per kernel: Python function -> CUDA C++ source text, nothing cached from
an earlier compile:

- sarek: `build_module(Kernel(fn))` (the front end: AST -> verified sarek IR, the helpers lowered again) then
  `emit_source(module, "cuda")` (the `sarek-pipeline{target=cuda}` passes and the printer).
- Warp: `wp.Kernel(fn, module=<a fresh wp.Module>)` (Warp's front end parses the function) then
  `ModuleBuilder(module, options, target="cuda").codegen("cuda")` (the build of the adjoints and the CUDA source
  Warp hands to NVRTC), with Warp's default options: forward and backward (adjoint) kernels. The `warp fwd`
  column sets `enable_backward=False` (forward kernel only, the closer match to what sarek emits).

Two regimes, medians: "repeat" (in one process, after one warm-up compile of the same kernel: the steady cost;
the sides take turns, round by round) and "cold" (the first compile in a fresh process, timed after
`import sarek` / `import warp` + `wp.init()`: what `Kernel.source` or the first launch pays, lazy imports and
first-use caches included; the import itself is reported beside it, numpy imported before either, as a user's
program has). Wall clock (`time.perf_counter`), GC on. Ratio = sarek / Warp (default options) of the same
regime in the same run; the goal of issue 35 is <= 0.25. Results and method: BENCHMARKS.md, "Compile time
against NVIDIA Warp".
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bench_compile import _fresh_builder, _load, _ms, _table  # noqa: E402 - after the path

#: sarek's side: the corpus kernels themselves where Warp can express them as they are (examples/*.py), the
#: others written here
SAREK_SRC = '''
from examples.mandelbrot import mandelbrot
from examples.matmul import matmul_naive as matmul
from examples.nbody import accel_kernel as nbody
from examples.records import shift_points
from examples.stencil import stencil_1d_kernel as stencil
from examples.vector_add import vector_add
from sarek import Vec, device, f32, i32, kernel
from sarek.gpu import atomic_add, global_thread_id

BINS = 64

@device
def sq(x: f32) -> f32:
    return x * x

@device
def scale(x: f32, k: f32) -> f32:
    return x * k

@kernel
def saxpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]

@kernel
def helpers(src: Vec[f32], dst: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        dst[i] = sq(src[i]) + scale(src[i], 2.0)

@kernel
def loop16(x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        s = 0.0
        for k in range(16):
            s = s + x[i] * f32(k)
        y[i] = s

@kernel
def loop4x4(x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        s = 0.0
        for j in range(4):
            for k in range(4):
                s = s + x[i] * f32(j * 4 + k)
        y[i] = s

@kernel
def atomic_sum(a: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(out, 0, a[i])

@kernel
def histogram(data: Vec[i32], hist: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(hist, data[i] % BINS, 1)
'''

#: Warp's side: the same kernels (the corpus's as in examples/*.py), same names
WARP_SRC = '''
import warp as wp

BINS = wp.constant(64)
MAX_ITER = wp.constant(64)
EPS = wp.constant(1e-9)
F = wp.array(dtype=wp.float32)
I = wp.array(dtype=wp.int32)

@wp.struct
class Point:
    x: wp.float32
    y: wp.float32

@wp.struct
class Body:
    x: wp.float32
    y: wp.float32
    z: wp.float32
    m: wp.float32

@wp.struct
class Accel:
    ax: wp.float32
    ay: wp.float32
    az: wp.float32

@wp.func
def sq(x: wp.float32) -> wp.float32:
    return x * x

@wp.func
def scale(x: wp.float32, k: wp.float32) -> wp.float32:
    return x * k

@wp.func
def inv_cube(d2: wp.float32) -> wp.float32:
    d = d2 + EPS
    return 1.0 / (d * wp.sqrt(d))

def saxpy(x: F, y: F, a: wp.float32, n: wp.int32):
    i = wp.tid()
    if i < n:
        y[i] = a * x[i] + y[i]

def vector_add(a: F, b: F, c: F, n: wp.int32):
    i = wp.tid()
    if i < n:
        c[i] = a[i] + b[i]

def stencil(a: F, out: F, n: wp.int32):
    i = wp.tid()
    if i > 0 and i < n - 1:
        out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0

def helpers(src: F, dst: F, n: wp.int32):
    i = wp.tid()
    if i < n:
        dst[i] = sq(src[i]) + scale(src[i], 2.0)

def loop16(x: F, y: F, n: wp.int32):
    i = wp.tid()
    if i < n:
        s = float(0.0)
        for k in range(16):
            s = s + x[i] * float(k)
        y[i] = s

def loop4x4(x: F, y: F, n: wp.int32):
    i = wp.tid()
    if i < n:
        s = float(0.0)
        for j in range(4):
            for k in range(4):
                s = s + x[i] * float(j * 4 + k)
        y[i] = s

def atomic_sum(a: F, out: F, n: wp.int32):
    i = wp.tid()
    if i < n:
        wp.atomic_add(out, 0, a[i])

def histogram(data: I, hist: I, n: wp.int32):
    i = wp.tid()
    if i < n:
        wp.atomic_add(hist, data[i] % BINS, 1)

def shift_points(src: wp.array(dtype=Point), dst: wp.array(dtype=Point), n: wp.int32):
    i = wp.tid()
    if i < n:
        p = src[i]
        q = Point()
        q.x = p.x + 1.0
        q.y = p.y
        dst[i] = q

def mandelbrot(out: I, w: wp.int32, h: wp.int32):
    px, py = wp.tid()
    if px < w and py < h:
        cx = float(px) / float(w) * 3.0 - 2.0
        cy = float(py) / float(h) * 2.0 - 1.0
        x = float(0.0)
        y = float(0.0)
        it = int(0)
        while it < MAX_ITER and x * x + y * y <= 4.0:
            xt = x * x - y * y + cx
            y = 2.0 * x * y + cy
            x = xt
            it += 1
        out[py * w + px] = it

def matmul(a: F, b: F, c: F, n: wp.int32):
    i = wp.tid()
    if i < n * n:
        row = i // n
        col = i % n
        acc = float(0.0)
        for k in range(n):
            acc += a[row * n + k] * b[k * n + col]
        c[i] = acc

def nbody(bodies: wp.array(dtype=Body), acc: wp.array(dtype=Accel), n: wp.int32):
    i = wp.tid()
    if i < n:
        p = bodies[i]
        ax = float(0.0)
        ay = float(0.0)
        az = float(0.0)
        for j in range(n):
            if j != i:
                q = bodies[j]
                dx = q.x - p.x
                dy = q.y - p.y
                dz = q.z - p.z
                s = q.m * inv_cube(dx * dx + dy * dy + dz * dz)
                ax += dx * s
                ay += dy * s
                az += dz * s
        a = Accel()
        a.ax = ax
        a.ay = ay
        a.az = az
        acc[i] = a
'''

KERNELS = ("saxpy", "vector_add", "stencil", "helpers", "loop16", "loop4x4", "atomic_sum", "histogram",
           "shift_points", "mandelbrot", "matmul", "nbody")


def _write(tmp: Path) -> tuple[Path, Path]:
    (tmp / "_bw_sarek.py").write_text(SAREK_SRC)
    (tmp / "_bw_warp.py").write_text(WARP_SRC)
    return tmp / "_bw_sarek.py", tmp / "_bw_warp.py"


def sarek_compiler(path: Path) -> Callable[[str], str]:
    """name -> CUDA source through sarek's front end and pipeline, the helpers' caches cleared every call."""
    from sarek.targets import emit_source

    mod = _load(path)
    builders = {k: _fresh_builder(getattr(mod, k)) for k in KERNELS}

    def compile_one(name: str) -> str:
        return emit_source(builders[name](), "cuda")

    return compile_one


def warp_compiler(path: Path, backward: bool = True) -> Callable[[str], str]:
    """name -> CUDA source through Warp's front end and code generator, a fresh wp.Module every call."""
    import warp as wp
    from warp._src.context import Module, ModuleBuilder  # pyright: ignore[reportMissingImports]

    wp.config.quiet = True
    wp.init()
    mod = _load(path)
    count = [0]

    def compile_one(name: str) -> str:
        count[0] += 1
        m = Module(f"_bw_{name}_{count[0]}", None)
        wp.Kernel(getattr(mod, name), key=name, module=m)
        opts = m.resolve_options(wp.config) | {"enable_backward": backward}
        return ModuleBuilder(m, opts, target="cuda").codegen("cuda")

    return compile_one


def _repeat(sides: dict[str, Callable[[str], str]], name: str, n: int) -> dict[str, float]:
    """Median seconds per side for kernel `name`: one warm-up each, then `n` rounds that time every side in
    turn (on a shared machine a burst of load then hits both sides, not one)."""
    ts: dict[str, list[float]] = {side: [] for side in sides}
    for f in sides.values():
        f(name)
    for _ in range(n):
        for side, f in sides.items():
            t = time.perf_counter()
            f(name)
            ts[side].append(time.perf_counter() - t)
    return {side: statistics.median(v) for side, v in ts.items()}


def child(side: str, name: str, tmp: Path) -> None:
    """In this (fresh) process: the package's import (numpy imported first, as by a user's program), then one
    compile; prints both times in seconds."""
    importlib.import_module("numpy")  # a user's program has it (Warp's import loads it too)

    sa, wa = _write(tmp)
    t = time.perf_counter()
    if side == "sarek":
        importlib.import_module("sarek")

        imported = time.perf_counter() - t
        f = sarek_compiler(sa)
    else:
        import warp as wp

        wp.config.quiet = True
        wp.init()
        imported = time.perf_counter() - t
        f = warp_compiler(wa, backward=side == "warp")
    t = time.perf_counter()
    f(name)
    print(imported, time.perf_counter() - t)


def _cold(side: str, name: str, n: int) -> tuple[float, float]:
    """Medians over `n` fresh processes: (import, first compile) seconds."""
    imports: list[float] = []
    firsts: list[float] = []
    for _ in range(n):
        with tempfile.TemporaryDirectory() as d:
            out = subprocess.run([sys.executable, __file__, "--child", side, name, d], capture_output=True,
                                 text=True, cwd=ROOT)
        if out.returncode != 0:
            raise RuntimeError(f"{side} {name}: a fresh process failed\n{out.stderr[-3000:]}")
        i, f = out.stdout.split()[-2:]
        imports.append(float(i))
        firsts.append(float(f))
    return statistics.median(imports), statistics.median(firsts)


def _rows(res: dict[str, dict[str, float]], names: list[str], cols: list[str],
          ratios: list[tuple[str, str]]) -> list[list[str]]:
    """One row per kernel and a geometric-mean row: the times of `cols` (ms) and the ratios a / b."""
    rows = [["kernel", *cols, *(f"{x} / {y}" for x, y in ratios)]]
    geo = {c: statistics.geometric_mean(res[k][c] for k in names) for c in {*cols, *(c for r in ratios for c in r)}}
    for k, r in [*((k, res[k]) for k in names), ("geomean", geo)]:
        rows.append([k, *(_ms(r[c]) for c in cols), *(f"{r[x] / r[y]:.2f}" for x, y in ratios)])
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Python -> CUDA source time of sarek against NVIDIA Warp's codegen, "
                                 "per kernel, in one process and in fresh processes.")
    ap.add_argument("--repeat", type=int, default=7, help="in-process runs per kernel (median)")
    ap.add_argument("--cold", type=int, default=3, help="fresh processes per kernel and side (median); 0: none")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTR", help="kernels containing SUBSTR")
    ap.add_argument("--json", metavar="PATH", help="write the times as JSON")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        child(a.child[0], a.child[1], Path(a.child[2]))
        return 0
    try:
        import warp as wp
    except ImportError:
        print("NVIDIA Warp is not installed: pip install -r benchmarks/requirements.txt")
        return 2
    names = [k for k in KERNELS if not a.only or any(s in k for s in a.only)]
    res: dict[str, dict[str, float]] = {k: {} for k in names}
    with tempfile.TemporaryDirectory() as d:
        sa, wa = _write(Path(d))
        sides = {"sarek": sarek_compiler(sa), "warp": warp_compiler(wa), "warp fwd": warp_compiler(wa, False)}
        for k in names:
            res[k].update(_repeat(sides, k, a.repeat))
    if a.cold:
        for k in names:
            for side in ("sarek", "warp"):
                res[k][f"{side} import"], res[k][f"{side} cold"] = _cold(side, k, a.cold)
    print(f"Python -> CUDA source, ms (medians; repeat {a.repeat} in one process); warp {wp.config.version}; "
          "ratio = sarek / warp, goal <= 0.25")
    print(_table(_rows(res, names, ["sarek", "warp", "warp fwd"], [("sarek", "warp"), ("sarek", "warp fwd")])))
    if a.cold:
        for k in names:
            for side in ("sarek", "warp"):
                res[k][f"{side} import+cold"] = res[k][f"{side} import"] + res[k][f"{side} cold"]
        print()
        print(f"first compile in a fresh process, ms (medians of {a.cold}; cold: the compile after the import; "
              "import: `import sarek` / `import warp` + `wp.init()`, numpy already imported)")
        print(_table(_rows(res, names, ["sarek cold", "warp cold", "sarek import", "warp import"],
                           [("sarek cold", "warp cold"), ("sarek import+cold", "warp import+cold")])))
    if a.json:
        Path(a.json).write_text(json.dumps({"repeat": a.repeat, "cold": a.cold, "kernels": res}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
