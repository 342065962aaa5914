"""Short-vector accesses (`python3 benchmarks/bench_vectors.py [--out DIR] [--quick] [--devices cuda:0,ptx:0,opencl:0]`):
saxpy over the same 2^26 floats three ways, same run: as `Vec[f32]` (one float per thread), as `Vec[f32x4]`
(one float4 per thread: sarek-wide-vector-access's 128-bit loads and stores on CUDA, HIP and OpenCL) and as
`Vec[f32x4]` lane by lane (`y[i].x = a * x[i].x + y[i].x` per lane: four scalar accesses per element, what
the wide access replaces).

Method: sarek.Vectors uploaded once; one warm-up launch checked against numpy; then REPS back-to-back launches
and one synchronize, timed with `time.perf_counter`, per launch; the median of 5 batches. Ratios are against
the `f32x4` row of the same device (> 1: the f32x4 kernel is faster). A table on stdout and
DIR/bench_vectors.json. `--quick` (CPU devices, 2^16 floats) only checks that every row runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import sarek  # noqa: E402
from sarek import Vec, f32, f32x4, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402

REPS = 20


@kernel
def saxpy_f32(a: f32, x: Vec[f32], y: Vec[f32]):
    i = global_thread_id
    if i < len(y):
        y[i] = a * x[i] + y[i]


@kernel
def saxpy_f32x4(a: f32, x: Vec[f32x4], y: Vec[f32x4]):
    i = global_thread_id
    if i < len(y):
        y[i] = a * x[i] + y[i]


@kernel
def saxpy_lanes(a: f32, x: Vec[f32x4], y: Vec[f32x4]):
    i = global_thread_id
    if i < len(y):
        y[i].x = a * x[i].x + y[i].x
        y[i].y = a * x[i].y + y[i].y
        y[i].z = a * x[i].z + y[i].z
        y[i].w = a * x[i].w + y[i].w


def _time(fn: Any, sync: Any, reps: int) -> float:
    fn()
    sync()
    batches = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        batches.append((time.perf_counter() - t0) / reps)
    return statistics.median(batches)


def run(devices: list[str], n: int, reps: int) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    a = np.float32(1.5)
    want = a * x + y
    rows: list[dict[str, Any]] = []
    for name in devices:
        dev = sarek.get_device(name)
        times: dict[str, float] = {}
        for label, k, lanes in (("f32", saxpy_f32, 1), ("f32x4", saxpy_f32x4, 4), ("f32x4 lane by lane", saxpy_lanes, 4)):
            row: dict[str, Any] = {"device": name, "kernel": label}
            try:
                xs, ys = (v if lanes == 1 else v.view(f32x4.dtype) for v in (x, y.copy()))
                xv, yv = sarek.Vector(xs.copy()), sarek.Vector(ys.copy())
                m = n // lanes
                grid = (m + 255) // 256
                k.launch(a, xv, yv, grid=grid, block=256, device=dev)
                dev.synchronize()
                got = np.ascontiguousarray(yv.to_numpy()).view(np.float32).reshape(-1)
                row["check"] = bool(np.allclose(got, want, rtol=1e-5, atol=1e-6))
                row["ms"] = times[label] = 1e3 * _time(lambda: k.launch(a, xv, yv, grid=grid, block=256, device=dev),
                                                       dev.synchronize, reps)
                row["GB/s"] = 3 * 4 * n / (row["ms"] * 1e-3) / 1e9
            except Exception as e:  # a device that cannot run a row says why, in the table
                row["error"] = f"{type(e).__name__}: {str(e)[:200]}"
            rows.append(row)
        for row in rows[-3:]:
            if "ms" in row and "f32x4" in times:
                row["ratio_vs_f32x4"] = row["ms"] / times["f32x4"]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=os.environ.get("OUT"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--devices", default="cuda:0,ptx:0,opencl:0")
    args = ap.parse_args()
    devices = ["opencl:0"] if args.quick else args.devices.split(",")
    rows = run(devices, 1 << 16 if args.quick else 1 << 26, 2 if args.quick else REPS)
    for r in rows:
        extra = r.get("error") or f"{r['ms']:.4f} ms  {r['GB/s']:.1f} GB/s  time/f32x4 {r.get('ratio_vs_f32x4', 0):.2f}" \
            f"  check={r['check']}"
        print(f"{r['device']:>14} {r['kernel']:<20} {extra}")
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "bench_vectors.json").write_text(json.dumps(rows, indent=1))
    if any("error" in r or not r.get("check") for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
