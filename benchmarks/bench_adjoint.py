"""Adjoint kernel time / forward kernel time (`k.adjoint`, the sarek-adjoint pass), and the same ratio for torch
autograd of the equivalent torch code when torch is importable
(`python3 benchmarks/bench_adjoint.py [--device cuda:0] [--torch-device cuda] [--quick] [--out DIR]`).

Kernels (examples/_adjoint_kernels.py, shared with tests/unit/test_adjoint.py): saxpy, a 3-point 1-D stencil,
a row softmax (one thread per row of 64), a particle step (3 sub-steps of a damped spring, through a record) and
a block reduction through shared memory (sum of squares). Each row is
measured in this run on one device: the median of batches of back-to-back launches followed by one
synchronize, data resident (`sarek.Vector`). ratio = adjoint / forward (Warp documents about 2-3x for its
adjoints of simple kernels). torch's ratio is backward / forward of the same computation written with torch
ops (`loss.backward()` with the output's gradient as the seed vs the forward ops), on --torch-device.
`--quick` (CI smoke) uses small sizes and few repetitions. Results go to stdout and to DIR/bench_adjoint.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import _adjoint_kernels as A  # noqa: E402  # pyright: ignore[reportMissingImports]

import sarek  # noqa: E402

B = A.BLOCK  # threads per block: sum_squares sums one block of this many
COLS = A.COLS


def _cases(n: int) -> list[tuple[str, Any, list[Any], list[int], int, Callable[[Any, list[Any]], Any]]]:
    """(name, kernel, host args, output indices, threads, torch forward(torch, tensors) -> outputs)."""
    r = np.random.default_rng(0)
    f = np.float32
    x, y = r.random(n).astype(f), r.random(n).astype(f)
    cols = COLS
    rows = n // cols
    return [
        ("saxpy", A.saxpy[sarek.f32], [f(2.0), x, y, np.zeros(n, f), n], [3], n,
         lambda t, a: [a[0] * a[1] + a[2]]),
        ("stencil", A.stencil[sarek.f32], [x, r.random(3).astype(f), np.zeros(n, f), n], [2], n,
         lambda t, a: [a[1][0] * t.cat([a[0][:1], a[0][:-1]]) + a[1][1] * a[0]
                       + a[1][2] * t.cat([a[0][1:], a[0][-1:]])]),
        ("softmax", A.softmax_rows64, [x[: rows * cols], np.zeros(rows * cols, f), rows], [1], rows,
         lambda t, a: [t.softmax(a[0].reshape(-1, cols), dim=1).reshape(-1)]),
        ("particle", A.particle_step, [x, y, np.zeros(n, f), np.zeros(n, f), f(2.0), f(0.01), n], [2, 3], n,
         _torch_particle),
        ("block_sum", A.sum_squares, [x, np.zeros(n // B, f)], [1], n,
         lambda t, a: [(a[0] * a[0]).reshape(-1, B).sum(dim=1)]),
    ]


def _torch_particle(t: Any, a: list[Any]) -> list[Any]:
    pos, vel, k, dt = a[0], a[1], float(a[4]), float(a[5])
    for _ in range(3):
        force = -k * pos - 0.1 * vel * vel.abs()
        vel = vel + dt * force
        pos = pos + dt * vel
    return [pos, vel]


def median_time(fn: Callable[[], None], sync: Callable[[], None], calls: int, batches: int) -> float:
    fn()
    sync()
    times: list[float] = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times)


def sarek_ratio(k: Any, host: list[Any], outputs: list[int], threads: int, devname: str, calls: int,
                batches: int) -> tuple[float, float]:
    dev = sarek.get_device(devname)
    args = [sarek.Vector(a.copy()) if isinstance(a, np.ndarray) else a for a in host]
    vecs = [j for j, a in enumerate(host) if isinstance(a, np.ndarray)]
    adjs = [sarek.Vector(np.ones_like(host[j]) if j in outputs else np.zeros_like(host[j])) for j in vecs]
    adj = k.adjoint
    fwd = median_time(lambda: k.launch(*args, threads=threads, block=B, device=dev), dev.synchronize, calls, batches)
    bwd = median_time(lambda: adj.launch(*args, *adjs, threads=threads, block=B, device=dev), dev.synchronize,
                      calls, batches)
    return fwd, bwd


def torch_ratio(fwd_fn: Callable[[Any, list[Any]], Any], host: list[Any], outputs: list[int], tdev: str,
                calls: int, batches: int) -> tuple[float, float] | None:
    try:
        import torch
    except ImportError:
        return None
    ts = [torch.tensor(a, device=tdev, requires_grad=True) if isinstance(a, np.ndarray) and j not in outputs
          else float(a) if isinstance(a, np.floating) else a for j, a in enumerate(host)]
    sync = torch.cuda.synchronize if tdev.startswith("cuda") else (lambda: None)

    def forward() -> None:
        with torch.no_grad():
            fwd_fn(torch, ts)

    def backward() -> None:
        outs = fwd_fn(torch, ts)
        torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])

    f = median_time(forward, sync, calls, batches)
    fb = median_time(backward, sync, calls, batches)
    return f, max(fb - f, 1e-9)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=None, help="sarek device (default: sarek.default_device())")
    ap.add_argument("--torch-device", default=None, help="torch device (default: cuda when available, else cpu)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=None)
    ns = ap.parse_args(argv)
    devname = ns.device or str(sarek.default_device().name)
    n, calls, batches = (4096, 3, 3) if ns.quick else (1 << 22, 20, 7)
    tdev = ns.torch_device
    if tdev is None:
        try:
            import torch

            tdev = "cuda" if torch.cuda.is_available() else "cpu"
        except ImportError:
            tdev = "cpu"
    rows: list[dict[str, Any]] = []
    print(f"{'kernel':<10} {'device':<12} {'forward ms':>11} {'adjoint ms':>11} {'ratio':>7} {'torch ratio':>12}")
    for name, k, host, outputs, threads, tfn in _cases(n):
        fwd, bwd = sarek_ratio(k, host, outputs, threads, devname, calls, batches)
        row: dict[str, Any] = {"kernel": name, "device": devname, "forward_s": fwd, "adjoint_s": bwd,
                               "ratio": bwd / fwd}
        tr = torch_ratio(tfn, host, outputs, tdev, calls, batches)
        if tr is not None:
            row.update(torch_device=tdev, torch_forward_s=tr[0], torch_backward_s=tr[1], torch_ratio=tr[1] / tr[0])
        rows.append(row)
        tcol = f"{row['torch_ratio']:.2f}" if "torch_ratio" in row else "-"
        print(f"{name:<10} {devname:<12} {fwd * 1e3:>11.3f} {bwd * 1e3:>11.3f} {bwd / fwd:>7.2f} {tcol:>12}")
    if ns.out:
        Path(ns.out).mkdir(parents=True, exist_ok=True)
        (Path(ns.out) / "bench_adjoint.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
