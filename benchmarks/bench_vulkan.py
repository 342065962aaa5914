"""vulkan-glsl on the Vulkan driver: launch cost against a direct dispatch through the same binding and against
CUDA, and the first launch of a fresh process with a cold and a warm cache
(`python3 benchmarks/bench_vulkan.py [--out DIR] [--quick] [--device vulkan-glsl:0] [--profile-first]`).

1. **launch + sync** and **async launch** of a 1-element kernel on resident `sarek.Vector`s (bench_launch's
   `tiny`): sarek vs one command buffer of the same pipeline recorded once through the `vulkan` binding and
   re-submitted (ratio = sarek / direct, goal <= 1.5), and vs sarek's launch of the same kernel on cuda:0 in
   the same run (ratio = vulkan-glsl / cuda; absent where there is no CUDA device).
2. **first launch** in a fresh process (import, device, compile, pipeline, launch, read back): with an empty
   cache directory (cold), then again with the directory the cold run filled (warm: the kernel's warm record
   and SPIR-V from sarek's compile cache, the pipeline from the persisted VkPipelineCache). Goal: warm <= 50 ms
   for the launch itself, timed from after the import and the device's opening (`dev.stream()`: the VkDevice
   and its queue, as a CUDA stream makes its context) to the launch's result read back: the same method as
   bench_compile's `--first-launch` "launch only" (which launches a 1024-element saxpy). The opening is printed
   beside it ("open").

Times: `time.perf_counter`; section 1 the median of batches, section 2 the median of 3 fresh processes each.
Results go to stdout and to DIR/bench_vulkan.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

FIRST = """
import time, sys
t0 = time.perf_counter()
import numpy as np, sarek
sys.path.insert(0, {bench!r})
from bench_launch import tiny
dev = sarek.get_device({device!r})
t1 = time.perf_counter()
dev.stream()
t2 = time.perf_counter()
a = np.zeros(1, np.float32)
if {profile!r}:
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.runcall(tiny.launch, a, 1, grid=1, block=1, device=dev)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
else:
    tiny.launch(a, 1, grid=1, block=1, device=dev)
t3 = time.perf_counter()
assert a[0] == 1.0
print("FIRST", (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
"""


def first_launch(device: str, cache: str, runs: int, profile: bool = False) -> dict[str, float]:
    """Median (setup ms: import and device; open ms: the device's opening; first launch ms) over `runs` fresh
    processes sharing the cache directory `cache`. `profile`: print a cProfile of each launch (its times then
    include the profiler's cost)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)  # keep carried wheels
    env = {**os.environ, "SAREK_CACHE_DIR": cache, "PYTHONPATH": path}
    setup: list[float] = []
    opened: list[float] = []
    launch: list[float] = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", FIRST.format(bench=str(ROOT / "benchmarks"), device=device,
                                                                      profile=profile)],
                              env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"the fresh process failed:\n{proc.stderr[-2000:]}")
        out = proc.stdout
        if profile:
            print(out[:out.find("FIRST")], flush=True)
        line = next(x for x in out.splitlines() if x.startswith("FIRST"))
        s, o, l = map(float, line.split()[1:])
        setup.append(s)
        opened.append(o)
        launch.append(l)
    return {"setup_ms": statistics.median(setup), "open_ms": statistics.median(opened),
            "launch_ms": statistics.median(launch)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--device", default="vulkan-glsl:0")
    ap.add_argument("--profile-first", action="store_true", help="only a cProfile of a warm first launch in a "
                    "fresh process (where its time goes), nothing timed")
    a = ap.parse_args(argv)
    if a.profile_first:
        with tempfile.TemporaryDirectory(prefix="sarek-cache-") as d:
            first_launch(a.device, d, 1)  # fills the cache
            first_launch(a.device, d, 1, profile=True)
        return 0
    import sarek
    from bench_launch import overhead_rows

    present = [d.name for d in sarek.devices()]
    if a.device not in present:
        raise SystemExit(f"no device {a.device}; unavailable: {sarek.runtime.unavailable}")
    calls, batches, async_calls = (20, 3, 50) if a.quick else (500, 9, 5000)
    report: dict[str, Any] = {"device": repr(sarek.get_device(a.device))}
    rows = overhead_rows(a.device, calls, batches, async_calls)
    cuda = overhead_rows("cuda:0", calls, batches, async_calls) if "cuda:0" in present else []
    print(f"{'section':<14} {'sarek us':>10} {'direct us':>10} {'ratio':>7}  goal      {'cuda us':>9} {'vs cuda':>8}")
    for r, c in zip(rows, cuda or [None] * len(rows)):
        if c is not None:
            r["cuda_us"] = c["sarek_us"]
            r["ratio_vs_cuda"] = r["sarek_us"] / c["sarek_us"]
        vs = f"{r['cuda_us']:>9.2f} {r['ratio_vs_cuda']:>8.2f}" if c is not None else f"{'absent':>9}"
        print(f"{r['section']:<14} {r['sarek_us']:>10.2f} {r['ref_us']:>10.2f} {r['ratio']:>7.2f}  {r['goal']:<9}"
              f"{vs}", flush=True)
    report["launch"] = rows
    runs = 1 if a.quick else 3
    with tempfile.TemporaryDirectory(prefix="sarek-cache-") as d:
        cold = first_launch(a.device, d, 1)  # the first process fills the cache
        if runs > 1:
            cold = {k: statistics.median([cold[k], *(first_launch(a.device, tempfile.mkdtemp(dir=d), 1)[k]
                                                      for _ in range(runs - 1))]) for k in cold}
        warm = first_launch(a.device, d, runs)
    report["first_launch"] = {"cold": cold, "warm": warm, "goal_warm_ms": 50.0, "met": warm["launch_ms"] <= 50.0}
    print(f"first launch   cold {cold['launch_ms']:.1f} ms   warm {warm['launch_ms']:.1f} ms (goal <= 50: "
          f"{'met' if warm['launch_ms'] <= 50 else 'NOT met'})   import+device {warm['setup_ms']:.0f} ms   open {warm['open_ms']:.1f} ms")
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / "bench_vulkan.json").write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    t = time.perf_counter()
    rc = main()
    print(f"({time.perf_counter() - t:.0f} s)")
    raise SystemExit(rc)
