"""Debug-mode cost: the same kernels launched release and `debug=True` on each device, in the same run.

    python3 benchmarks/bench_debug.py [--devices cuda:0,ptx:0,...] [--n N] [--repeat R] [--json PATH]

Per kernel and device: the median time of one launch followed by `synchronize()` (a debug launch waits for
its buffer, so the release baseline waits too) on resident `sarek.Vector`s, release and debug; the ratio
debug / release is the price of the checks (the index compares, the skipped-access selects) plus the debug
buffer's upload and read-back. The kernels are the corpus's (examples/): `vector_add`, `stencil_1d_kernel`,
`matmul_naive` (64x64), `matmul_tiled` (16x16 shared tiles, 2-D blocks) and `reduce_sum` (a 256-slot shared
tree). Default devices: every non-interpreter device of this machine.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "examples")]

import sarek  # noqa: E402


def cases(n: int) -> list[tuple[str, Any, list[Any], Any]]:
    """(name, kernel, args (numpy), threads) over the corpus kernels."""
    from matmul import matmul_naive, matmul_tiled
    from reduce import reduce_sum
    from stencil import stencil_1d_kernel
    from vector_add import vector_add

    m = max(16, int(round(n ** 0.5)) // 16 * 16)
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    mm = x[:m * m].copy()
    return [
        ("vector_add", vector_add, [x, x.copy(), np.zeros_like(x), n], n),
        ("stencil_1d", stencil_1d_kernel, [x, np.zeros_like(x), n], n),
        ("matmul_naive", matmul_naive, [mm[:4096], mm[:4096].copy(), np.zeros(4096, np.float32), 64], 4096),
        ("matmul_tiled", matmul_tiled, [mm, mm.copy(), np.zeros_like(mm), m], (m, m)),
        ("reduce_sum", reduce_sum, [x, np.zeros(-(-n // 256), np.float32), n], -(-n // 256) * 256),
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

            block = (16, 16) if isinstance(threads, tuple) else 256

            def launch(debug: bool, k: Any = k, vargs: list[Any] = vargs, threads: Any = threads) -> None:
                k.launch(*vargs, threads=threads, block=block, device=dev, debug=debug)

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
