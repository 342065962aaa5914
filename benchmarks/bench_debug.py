"""Debug-mode cost: the same kernels launched release and `debug=True` on each device, in the same run.

    python3 benchmarks/bench_debug.py [--devices cuda:0,ptx:0,...] [--n N] [--repeat R] [--json PATH]

Per kernel and device: the median time of one launch followed by `synchronize()` (a debug launch waits for
its buffer, so the release baseline waits too) on resident `sarek.Vector`s, release and debug; the ratio
debug / release is the price of the checks (the index compares, the skipped-access selects) plus the debug
buffer's upload and read-back. The kernels: `saxpy` (one read, one read-modify-write per thread), `stencil`
(three reads, one write), `matmul` (2 * K reads per output in a loop, one write) and `shared_sum` (a block
reduction through shared memory). Default devices: every non-interpreter device of this machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sarek  # noqa: E402
from sarek import Vec, f32, i32  # noqa: E402
from sarek.gpu import barrier, block_dim_x, block_idx_x, global_thread_id, shared, thread_idx_x  # noqa: E402


@sarek.kernel
def saxpy(a: f32, x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]


@sarek.kernel
def stencil(x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i > 0 and i < n - 1:
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1]


@sarek.kernel
def matmul(a: Vec[f32], b: Vec[f32], c: Vec[f32], m: i32):
    i = global_thread_id
    if i < m * m:
        r = i // m
        col = i % m
        acc = 0.0
        for k in range(m):
            acc += a[r * m + k] * b[k * m + col]
        c[i] = acc


@sarek.kernel
def shared_sum(x: Vec[f32], out: Vec[f32], n: i32):
    s = shared(f32, 256)
    t = thread_idx_x
    i = global_thread_id
    s[t] = x[i] if i < n else 0.0
    barrier()
    step = 128
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        barrier()
        step = step // 2
    if t == 0:
        out[block_idx_x] = s[0] + 0.0 * f32(block_dim_x)


def cases(n: int) -> list[tuple[str, Any, list[Any], int]]:
    """(name, kernel, args (numpy), threads)."""
    m = max(16, int(round((n // 64) ** 0.5)))
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    return [
        ("saxpy", saxpy, [np.float32(2.0).item(), x, x.copy(), n], n),
        ("stencil", stencil, [x, np.zeros_like(x), n], n),
        ("matmul", matmul, [x[:m * m].copy(), x[:m * m].copy(), np.zeros(m * m, np.float32), m], m * m),
        ("shared_sum", shared_sum, [x, np.zeros(-(-n // 256), np.float32), n], -(-n // 256) * 256),
    ]


def timed(go: Any, dev: Any, repeat: int) -> float:
    go()
    dev.synchronize()
    ts: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        go()
        dev.synchronize()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def run(devices: list[str], n: int, repeat: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in devices:
        dev = sarek.get_device(name)
        for kname, k, args, threads in cases(n):
            vargs = [sarek.Vector(a) if isinstance(a, np.ndarray) else a for a in args]

            def launch(debug: bool, k: Any = k, vargs: list[Any] = vargs, threads: int = threads) -> None:
                k.launch(*vargs, threads=threads, block=256, device=dev, debug=debug)

            rel = timed(lambda: launch(False), dev, repeat)
            dbg = timed(lambda: launch(True), dev, repeat)
            rows.append({"device": name, "kernel": kname, "n": n, "release_s": rel, "debug_s": dbg,
                         "ratio": dbg / rel})
            print(f"{name:16} {kname:11} release {rel * 1e6:10.1f} us   debug {dbg * 1e6:10.1f} us   "
                  f"x{dbg / rel:5.2f}", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default="")
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", default="")
    o = ap.parse_args()
    devices = [d for d in o.devices.split(",") if d] or [d.name for d in sarek.devices()
                                                          if not d.name.startswith("interp")]
    rows = run(devices, o.n, o.repeat)
    if o.json:
        Path(o.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
