#!/usr/bin/env python3
"""GPU check for the H200 machine: the conformance corpus on every GPU device present, and PTX vs CUDA speed.

Installs nothing. Run it through scripts/gpu_run.sh (installs the carried wheels, registers NVIDIA's OpenCL
ICD, unpacks the Vulkan loaders), or directly with sarek and its dependencies importable:

    python3 scripts/gpu_check.py [--devices cuda,ptx,opencl,vulkan] [--with-interp] [--no-bench]

Devices: cuda:<n>, ptx:<n>, vulkan:<n> / vulkan-glsl:<n> and every OpenCL device that is not pocl (NVIDIA
OpenCL), when present; a device kind that is missing is reported with the reason. Prints the kernel x device
table (pass/FAIL and max error) last; with $OUT set, writes results.json, table.txt and bench.txt there.
Exit status 0 when every case passes on every device that ran.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402


def pick_devices(rt, wanted: list[str] | None, with_interp: bool) -> list:
    out = []
    for d in rt.devices():
        if d.kind == "interp":
            if with_interp and d.name == "interp":
                out.append(d)
            continue
        if d.kind == "opencl" and getattr(d, "is_pocl", False):
            continue
        if wanted and not any(d.name == w or d.kind == w or d.name.split(":")[0] == w for w in wanted):
            continue
        out.append(d)
    return out


def bench_one(dev, case, iters: int = 20) -> float | None:
    """Median seconds per launch with device-resident Vectors (launch + synchronize)."""
    import sarek.runtime as rt

    rng = np.random.default_rng(0)
    args = [rt.Vector(a) if isinstance(a, np.ndarray) else a for a in case.make_args(rng)]
    m, name = case.module_and_name
    dev.launch(m, name, args, case.grid, case.block)  # compile + upload
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        dev.launch(m, name, args, case.grid, case.block)
        dev.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def big_vector_add_case():
    from sarek.runtime.conformance import Case
    from sarek.tools.ir import parse_module

    root = Path(__file__).resolve().parents[1]
    m = parse_module((root / "examples" / "vector_add.mlir").read_text())
    n = 1 << 24

    def make(rng):
        return [rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n]

    return Case("vector_add.mlir[16M]", (m, "vector_add"), make, lambda a: {2: a[0] + a[1]},
                grid=n // 256, block=256, atol=1e-6)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--devices", default="", help="comma-separated device names or kinds (default: all GPU ones)")
    ap.add_argument("--with-interp", action="store_true", help="also run the fast interpreter")
    ap.add_argument("--no-bench", action="store_true", help="skip the PTX vs CUDA benchmark")
    ap.add_argument("--iters", type=int, default=20)
    opts = ap.parse_args()

    import sarek.runtime as rt
    from sarek.runtime.conformance import corpus, format_table, run_case

    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else None
    wanted = [w.strip() for w in opts.devices.split(",") if w.strip()] or None
    devs = pick_devices(rt, wanted, opts.with_interp)
    print("devices:", ", ".join(f"{d.name} = {d.description}" for d in devs) or "none")
    for kind, why in sorted(rt.unavailable.items()):
        print(f"unavailable: {kind}: {why}")
    kinds = {d.kind for d in devs}
    for k in ("cuda", "opencl", "ptx", "vulkan"):
        if k not in kinds and (not wanted or k in wanted):
            print(f"note: no {k} device on this machine ({rt.unavailable.get(k, 'only pocl' if k == 'opencl' else 'not found')})")

    cases, errors = corpus()
    for e in errors:
        print("corpus load error:", e)
    results = []
    for c in cases:
        for d in devs:
            r = run_case(c, d)
            results.append(r)
            if not r.ok:
                print(f"FAIL {c.name} on {d.name}: {r.message[:2000]}")
    table = format_table(results, [d.name for d in devs])

    bench_lines: list[str] = []
    if not opts.no_bench:
        cu = next((d for d in devs if d.kind == "cuda"), None)
        px = next((d for d in devs if d.kind == "ptx"), None)
        if cu is None or px is None:
            bench_lines.append("bench: needs both a cuda and a ptx device")
        else:
            bench_lines.append(f"{'kernel':28s} {'cuda ms':>10s} {'ptx ms':>10s} {'ptx/cuda':>9s}")
            for c in [*cases, big_vector_add_case()]:
                if any(k in c.expect_error for k in ("compiled", "cuda", "ptx")):
                    continue
                try:
                    tc = bench_one(cu, c, opts.iters)
                    tp = bench_one(px, c, opts.iters)
                    bench_lines.append(f"{c.name:28s} {tc * 1e3:10.3f} {tp * 1e3:10.3f} {tp / tc:9.2f}")
                except Exception as e:
                    bench_lines.append(f"{c.name:28s} error: {type(e).__name__}: {str(e)[:200]}")

    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(json.dumps(
            {"devices": {d.name: d.description for d in devs}, "unavailable": rt.unavailable,
             "corpus_errors": errors,
             "results": [{"case": r.case, "device": r.device, "status": r.status, "max_error": r.max_error,
                          "message": r.message, "seconds": r.seconds} for r in results]}, indent=1, default=str))
        (out_dir / "table.txt").write_text(table + "\n")
        (out_dir / "bench.txt").write_text("\n".join(bench_lines) + "\n")
    if bench_lines:
        print("\n== PTX vs CUDA (median wall time per launch, device-resident data)")
        print("\n".join(bench_lines))
    failed = [r for r in results if not r.ok]
    print(f"\n== conformance: {len(results) - len(failed)} passed, {len(failed)} failed "
          f"({len(cases)} cases x {len(devs)} devices)")
    print(table)
    return 1 if failed or errors or not devs else 0


if __name__ == "__main__":
    sys.exit(main())
