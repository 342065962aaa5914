"""Interpreter benchmark (`python benchmarks/bench_interp.py [--quick]`): sarek.interp's fast and reference
executors against the Numba CUDA simulator (numba-cuda, NUMBA_ENABLE_CUDASIM=1) on the same kernels, same run.

Kernels: vector add (examples/vector_add.mlir), 16x16-tiled matmul (tests/unit/interp_kernels/matmul_tiled.mlir)
and an integer loop (`simple_ops` below: per iteration load, mul, bitxor, add, store = 5 IR ops) for the
reference executor's op rate; the same loop on one thread ("serial loop": µs per iteration of a one-lane
loop, the vectorised fast executor itself against what `run(executor="fast")` does for a one-thread launch,
which is the reference executor's compiled code). Times are the best of `--repeat` runs (wall clock,
`time.perf_counter`), inputs already in numpy arrays; results are checked against numpy. The simulator runs in a
subprocess (the environment variable must be set before numba is imported) at sizes it finishes in seconds;
every ratio compares equal sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIMPLE_OPS = """
builtin.module {
  sarek.kernel @simple_ops(%o : !sarek.vec<i32> "o", %iters : i32 "iters") {
    %t = sarek.intrinsic "global_thread_id"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %c3 = sarek.constant 3 : i32
    %acc = sarek.let_mut "acc" %c0 : i32
    sarek.for "k" %k = %c0 to %iters step 1 : i32 {
      %a = sarek.load %acc : !sarek.ref<i32>
      %m = sarek.binop mul %k, %c3 : i32
      %x = sarek.binop bitxor %m, %t : i32
      %s = sarek.binop add %a, %x : i32
      sarek.store %acc, %s : !sarek.ref<i32>
    }
    %p = sarek.elem_ref %o[%t] : !sarek.vec<i32>
    %r = sarek.load %acc : !sarek.ref<i32>
    sarek.store %p, %r : !sarek.ref<i32>
  }
}
"""
OPS_PER_ITER = 5


def _best(f: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def _simple_ops_want(nthreads: int, iters: int) -> np.ndarray:
    t = np.arange(nthreads, dtype=np.int64)
    acc = np.zeros(nthreads, np.int64)
    for k in range(iters):
        acc = acc + ((k * 3) ^ t)
    return ((acc + 2**31) % 2**32 - 2**31).astype(np.int32)


def serial_case(ops: Any, iters: int, repeat: int) -> dict[str, float]:
    """µs per iteration of `simple_ops` on one thread: the vectorised executor (`sarek.interp.fast.run`, what
    a one-thread launch ran on before) against `run(executor="fast")` and `run(executor="reference")`."""
    from sarek.interp import fast, run

    want = _simple_ops_want(1, iters)
    out: dict[str, float] = {}
    one = (1, 1, 1)
    for key, go in (("serial_vectorised_us", lambda o: fast.run(ops, "simple_ops", [o, iters], one, one, 32)),
                    ("serial_fast_us", lambda o: run(ops, "simple_ops", [o, iters], 1, 1, executor="fast")),
                    ("serial_ref_us", lambda o: run(ops, "simple_ops", [o, iters], 1, 1, executor="reference"))):
        o = np.zeros(1, np.int32)
        out[key] = _best(lambda: go(o), repeat) / iters * 1e6
        assert np.array_equal(o, want), key
    return out


def sarek_side(sizes: dict[str, int], repeat: int) -> dict[str, float]:
    from sarek.interp import run
    from sarek.tools.ir import parse_module

    vadd = parse_module((ROOT / "examples/vector_add.mlir").read_text())
    mm = parse_module((ROOT / "tests/unit/interp_kernels/matmul_tiled.mlir").read_text())
    ops = parse_module(SIMPLE_OPS)
    rng = np.random.default_rng(0)
    out: dict[str, float] = {}

    def vadd_case(n: int, ex: str, rep: int) -> float:
        a, b = rng.random(n, np.float32), rng.random(n, np.float32)
        c = np.zeros(n, np.float32)
        t = _best(lambda: run(vadd, "vector_add", [a, b, c, n], ((n + 255) // 256, 1, 1), (256, 1, 1),
                              executor=ex), rep)
        assert np.array_equal(c, a + b)
        return t

    def mm_case(n: int, ex: str, rep: int) -> float:
        a, b = rng.random(n * n, np.float32), rng.random(n * n, np.float32)
        c = np.zeros(n * n, np.float32)
        t = _best(lambda: run(mm, "matmul", [a, b, c, n], (n // 16, n // 16, 1), (16, 16, 1), executor=ex), rep)
        assert np.allclose(c, (a.reshape(n, n) @ b.reshape(n, n)).ravel(), rtol=1e-4)
        return t

    def ops_case(threads: int, iters: int, ex: str, rep: int) -> float:
        o = np.zeros(threads, np.int32)
        t = _best(lambda: run(ops, "simple_ops", [o, iters], (threads // 64, 1, 1), (64, 1, 1), executor=ex), rep)
        assert np.array_equal(o, _simple_ops_want(threads, iters))
        return t

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback to the reference executor would be a benchmark bug
        out["fast_vadd_1M"] = vadd_case(1 << 20, "fast", repeat)
        out["fast_matmul_256"] = mm_case(256, "fast", repeat)
        out["ref_vadd_1M"] = vadd_case(1 << 20, "reference", 1)
        out["fast_vadd_small"] = vadd_case(sizes["vadd"], "fast", repeat)
        out["ref_vadd_small"] = vadd_case(sizes["vadd"], "reference", repeat)
        out["fast_matmul_small"] = mm_case(sizes["matmul"], "fast", repeat)
        out["ref_matmul_small"] = mm_case(sizes["matmul"], "reference", repeat)
        out["ref_ops_s"] = ops_case(sizes["ops_threads"], sizes["ops_iters"], "reference", repeat)
        out["fast_ops_s"] = ops_case(sizes["ops_threads"], sizes["ops_iters"], "fast", repeat)
        out.update(serial_case(ops, sizes["serial_iters"], repeat))
    return out


def numba_side(sizes: dict[str, int], repeat: int) -> dict[str, float]:
    """Runs under NUMBA_ENABLE_CUDASIM=1 (a subprocess). The kernels reach `cuda` as a module global: the
    simulator swaps that global for its fake module while a kernel runs."""
    import numba
    import numba.cuda

    globals().update(cuda=numba.cuda, float32=numba.float32, int32=numba.int32)

    @cuda.jit
    def vadd(a, b, c, n):  # noqa: ANN001
        i = cuda.grid(1)
        if i < n:
            c[i] = a[i] + b[i]

    @cuda.jit
    def matmul(a, b, c, n):  # noqa: ANN001
        ta = cuda.shared.array(256, float32)
        tb = cuda.shared.array(256, float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        col = cuda.blockIdx.x * 16 + tx
        row = cuda.blockIdx.y * 16 + ty
        acc = float32(0.0)
        for t in range(n // 16):
            ta[ty * 16 + tx] = a[row * n + t * 16 + tx]
            tb[ty * 16 + tx] = b[(t * 16 + ty) * n + col]
            cuda.syncthreads()
            for k in range(16):
                acc += ta[ty * 16 + k] * tb[k * 16 + tx]
            cuda.syncthreads()
        c[row * n + col] = acc

    @cuda.jit
    def simple_ops(o, iters):  # noqa: ANN001
        t = cuda.grid(1)
        acc = int32(0)
        for k in range(iters):
            acc = acc + ((k * 3) ^ t)
        o[t] = acc

    rng = np.random.default_rng(0)
    out: dict[str, float] = {}
    n = sizes["vadd"]
    a, b, c = rng.random(n, np.float32), rng.random(n, np.float32), np.zeros(n, np.float32)
    out["sim_vadd_small"] = _best(lambda: vadd[(n + 255) // 256, 256](a, b, c, n), repeat)
    assert np.array_equal(c, a + b)
    n = sizes["matmul"]
    a, b, c = rng.random(n * n, np.float32), rng.random(n * n, np.float32), np.zeros(n * n, np.float32)
    out["sim_matmul_small"] = _best(lambda: matmul[(n // 16, n // 16), (16, 16)](a, b, c, n), repeat)
    assert np.allclose(c, (a.reshape(n, n) @ b.reshape(n, n)).ravel(), rtol=1e-4)
    th, it = sizes["ops_threads"], sizes["ops_iters"]
    o = np.zeros(th, np.int32)
    out["sim_ops_s"] = _best(lambda: simple_ops[th // 64, 64](o, it), repeat)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller simulator sizes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--numba-sim", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--sizes", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = {"vadd": 16384, "matmul": 32, "ops_threads": 1024, "ops_iters": 1000, "serial_iters": 20000}
    if args.quick:
        sizes.update(vadd=4096, ops_threads=256, ops_iters=200, serial_iters=5000)
    if args.numba_sim:
        print(json.dumps(numba_side(json.loads(args.sizes), args.repeat)))
        return
    r = sarek_side(sizes, args.repeat)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    p = subprocess.run([sys.executable, __file__, "--numba-sim", "--sizes", json.dumps(sizes), "--repeat", "1"],
                       env=env, capture_output=True, text=True, check=False)
    if p.returncode == 0:
        r.update(json.loads(p.stdout.strip().splitlines()[-1]))
    else:
        print("numba simulator failed:", p.stderr[-2000:])
    ops = sizes["ops_threads"] * sizes["ops_iters"] * OPS_PER_ITER
    print(f"sizes: {sizes}")
    print(f"fast vector add 1M       {r['fast_vadd_1M']:.3f} s   (target < 0.2 s)")
    print(f"fast tiled matmul 256    {r['fast_matmul_256']:.3f} s   (target < 2 s)")
    print(f"reference vector add 1M  {r['ref_vadd_1M']:.3f} s")
    print(f"reference simple ops     {ops / r['ref_ops_s'] / 1e6:.2f} M ops/s  (target >= 5)  "
          f"[{sizes['ops_threads']} threads x {sizes['ops_iters']} iters x {OPS_PER_ITER} ops in "
          f"{r['ref_ops_s']:.3f} s; fast executor {r['fast_ops_s']:.3f} s]")
    print(f"serial loop (1 thread)   {r['serial_vectorised_us']:.2f} us/iter vectorised executor -> "
          f"{r['serial_fast_us']:.2f} us/iter run(executor='fast') "
          f"({r['serial_vectorised_us'] / r['serial_fast_us']:.1f}x; reference {r['serial_ref_us']:.2f} us/iter) "
          f"[{sizes['serial_iters']} iters x {OPS_PER_ITER} ops]")
    if "sim_vadd_small" in r:
        for key, what in (("vadd_small", f"vector add {sizes['vadd']}"),
                          ("matmul_small", f"matmul {sizes['matmul']}x{sizes['matmul']}"), ("ops_s", "simple ops")):
            sim = r[f"sim_{key}"]
            print(f"{what:24s} numba-sim {sim:.3f} s | fast {r[f'fast_{key}']:.4f} s ({sim / r[f'fast_{key}']:.3g}x) "
                  f"| reference {r[f'ref_{key}']:.4f} s ({sim / r[f'ref_{key}']:.3g}x)")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
