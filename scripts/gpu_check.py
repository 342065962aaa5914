#!/usr/bin/env python3
"""GPU check for the H200 machine: the conformance corpus on every GPU device present, and PTX vs CUDA speed.

Installs nothing. Run it through scripts/gpu_run.sh (installs the carried wheels, registers NVIDIA's OpenCL
ICD, unpacks the Vulkan loaders), or directly with sarek and its dependencies importable:

    python3 scripts/gpu_check.py [--devices cuda,ptx,opencl,vulkan] [--with-interp] [--no-bench]

Devices: cuda:<n>, ptx:<n>, vulkan:<n> / vulkan-glsl:<n> and every OpenCL device that is not pocl (NVIDIA
OpenCL), when present; a device kind that is missing is reported with the reason. Each device runs in its own
process (NVRTC and NVIDIA's OpenCL compiler in one process clash: after NVRTC has run, NVIDIA OpenCL builds
fail with 'Don't understand command line argument "sm_90"'). Prints the kernel x device
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

    from sarek.runtime.core import kernel_spec

    rng = np.random.default_rng(0)
    m, name = case.module_and_name
    params = kernel_spec(m, name).params
    args = [rt.Vector(a) if p.kind == "vec" else a for p, a in zip(params, case.make_args(rng))]
    dev.launch(m, name, args, case.grid, case.block)  # compile + upload
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        dev.launch(m, name, args, case.grid, case.block)
        dev.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def worker(spec: str) -> int:
    """Run every case on one device; write the results as JSON."""
    import dataclasses

    import sarek.runtime as rt
    from sarek.runtime.conformance import corpus, run_case

    name, _, out = spec.partition("=")
    dev = rt.get_device(name)
    cases, _ = corpus()
    results = []
    for c in cases:
        results.append(dataclasses.asdict(run_case(c, dev)))
        Path(out).write_text(json.dumps(results, default=str))
    return 0 if all(r["ok"] for r in results) else 1


def mixed_worker(out: str) -> int:
    """The corpus on cuda, then on NVIDIA OpenCL, in ONE process (NVRTC must not break NVIDIA OpenCL)."""
    import sarek.runtime as rt
    from sarek.runtime.conformance import corpus, run_case

    devs = rt.devices()
    cu = next((d for d in devs if d.kind == "cuda"), None)
    cl = next((d for d in devs if d.kind == "opencl" and not getattr(d, "is_pocl", False)), None)
    if cu is None or cl is None:
        Path(out).write_text("mixed-process check: needs a cuda and a non-pocl OpenCL device\n")
        return 0
    cases, _ = corpus()
    for c in cases:
        run_case(c, cu)
    bad = [f"{c.name}: {r.message[:300]}" for c in cases if not (r := run_case(c, cl)).ok]
    Path(out).write_text(f"mixed-process check (cuda, then {cl.name} in one process): "
                         f"{len(cases) - len(bad)} of {len(cases)} pass on {cl.name}\n" + "\n".join(bad) + "\n")
    return 1 if bad else 0


def bench_worker(out: str, iters: int) -> int:
    import sarek.runtime as rt
    from sarek.runtime.conformance import corpus, run_case

    devs = rt.devices()
    cu = next((d for d in devs if d.kind == "cuda"), None)
    px = next((d for d in devs if d.kind == "ptx"), None)
    lines: list[str] = []
    if cu is None or px is None:
        lines.append("bench: needs both a cuda and a ptx device")
    else:
        cases, _ = corpus()
        lines.append(f"{'kernel':40s} {'cuda ms':>10s} {'ptx ms':>10s} {'ptx/cuda':>9s}")
        for c in [*cases, big_vector_add_case()]:
            if c.custom_launch is not None or any(k in c.expect_error for k in ("compiled", "cuda", "ptx")):
                continue
            if not (run_case(c, cu).ok and run_case(c, px).ok):
                lines.append(f"{c.name:40s} (not timed: fails on cuda or ptx)")
                continue
            try:
                tc = bench_one(cu, c, iters)
                tp = bench_one(px, c, iters)
                lines.append(f"{c.name:40s} {tc * 1e3:10.3f} {tp * 1e3:10.3f} {tp / tc:9.2f}")
            except Exception as e:
                lines.append(f"{c.name:40s} error: {type(e).__name__}: {str(e)[:200]}")
    Path(out).write_text("\n".join(lines) + "\n")
    return 0


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
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)  # DEVICE:FILE — run one device, write JSON
    ap.add_argument("--bench-worker", default="", help=argparse.SUPPRESS)  # FILE — run the bench, write lines
    ap.add_argument("--mixed-worker", default="", help=argparse.SUPPRESS)  # FILE — cuda then NVIDIA OpenCL
    opts = ap.parse_args()
    if opts.mixed_worker:
        return mixed_worker(opts.mixed_worker)
    if opts.worker:
        return worker(opts.worker)
    if opts.bench_worker:
        return bench_worker(opts.bench_worker, opts.iters)

    import sarek.runtime as rt
    from sarek.runtime.conformance import corpus, format_table

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
    import subprocess
    import tempfile

    from sarek.runtime.conformance import Result

    results: list = []
    tmp = Path(tempfile.mkdtemp(prefix="sarek-gpu-check-"))
    for d in devs:
        f = tmp / f"{d.name.replace(':', '_')}.json"
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, __file__, "--worker", f"{d.name}={f}"], text=True,
                           capture_output=True)
        got = json.loads(f.read_text()) if f.is_file() else []
        print(f"{d.name}: {len(got)} cases in {time.perf_counter() - t0:.1f}s (exit {p.returncode})")
        if p.returncode not in (0, 1) or not got:
            print(p.stdout[-3000:], p.stderr[-3000:])
        for x in got:
            results.append(Result(**x))
        for c in cases:  # a worker that died leaves cases without a result
            if not any(r.case == c.name and r.device == d.name for r in results):
                results.append(Result(c.name, d.name, False, float("inf"), f"no result (worker exit {p.returncode})"))
    for r in results:
        if not r.ok:
            print(f"FAIL {r.case} on {r.device}: {r.message[:2000]}")
    table = format_table(results, [d.name for d in devs])

    f = tmp / "mixed.txt"
    p = subprocess.run([sys.executable, __file__, "--mixed-worker", str(f)], text=True, capture_output=True)
    mixed = f.read_text() if f.is_file() else f"mixed-process check failed: {p.stderr[-2000:]}"
    mixed_rc = p.returncode
    print(mixed)

    bench_lines: list[str] = []
    if not opts.no_bench:
        f = tmp / "bench.txt"
        p = subprocess.run([sys.executable, __file__, "--bench-worker", str(f), "--iters", str(opts.iters)],
                           text=True, capture_output=True)
        bench_lines = f.read_text().splitlines() if f.is_file() else [f"bench failed: {p.stderr[-2000:]}"]

    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(json.dumps(
            {"devices": {d.name: d.description for d in devs}, "unavailable": rt.unavailable,
             "corpus_errors": errors,
             "results": [{"case": r.case, "device": r.device, "status": r.status, "max_error": r.max_error,
                          "message": r.message, "seconds": r.seconds} for r in results]}, indent=1, default=str))
        (out_dir / "table.txt").write_text(table + "\n")
        (out_dir / "bench.txt").write_text("\n".join(bench_lines) + "\n")
        (out_dir / "mixed.txt").write_text(mixed)
    if bench_lines:
        print("\n== PTX vs CUDA (median wall time per launch, device-resident data)")
        print("\n".join(bench_lines))
    failed = [r for r in results if not r.ok]
    print(f"\n== conformance: {len(results) - len(failed)} passed, {len(failed)} failed "
          f"({len(cases)} cases x {len(devs)} devices)")
    print(table)
    return 1 if failed or errors or not devs or mixed_rc else 0


if __name__ == "__main__":
    sys.exit(main())
