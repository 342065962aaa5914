"""Device probe for issue 35/31 (warm first launch, steady-state launch cost): `python3 benchmarks/probe_warm.py`
from the repository root. For cuda, ptx and opencl: fresh processes with a fresh cache dir (cold, then warm,
warm with -X importtime, warm with cProfile), from bytecode (bench_compile's compileall of sarek and the packages it imports). Then, in-process on cuda and ptx, a 1-element kernel's launch loop
(resident sarek.Vector): async and launch+sync per launch, calls per launch, cProfile top-25, and a CuPy
RawKernel of the same generated source as the same-run reference."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path.cwd()
TMP = pathlib.Path(tempfile.mkdtemp())
(TMP / "_k.py").write_text("""from sarek import kernel, Vec, f32, i32
from sarek.gpu import global_thread_id

@kernel
def saxpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]
""")
FIRST = """import time, sys, cProfile, pstats, io
import numpy as np
import sarek
from _k import saxpy
x = sarek.Vector(np.ones(1024, np.float32)); y = sarek.Vector(np.zeros(1024, np.float32))
dev = sarek.get_device(DEV)
dev.stream()
before = set(sys.modules)
sys.stderr.write("=== LAUNCH\\n")
if PROF:
    pr = cProfile.Profile(); pr.enable()
t = time.perf_counter()
saxpy.launch(x, y, np.float32(2.0), 1024, threads=1024, block=256, device=dev)
sarek.synchronize()
t = time.perf_counter() - t
if PROF:
    pr.disable()
    s = io.StringIO(); st = pstats.Stats(pr, stream=s); st.sort_stats('cumulative').print_stats(40)
    st.sort_stats('tottime').print_stats(15); print(s.getvalue()[-12000:])
new = sorted(set(sys.modules) - before); print("new modules", len(new), new)
print("launch only ms %.2f" % (t * 1e3))
"""
LOOP = """import time, sys, cProfile, pstats, io
from collections import Counter
import numpy as np
import sarek
sys.path.insert(0, 'benchmarks')
from bench_launch import tiny, cupy_kernel
for DEV in ('cuda', 'ptx'):
    dev = sarek.get_device(DEV)
    v = sarek.Vector(np.zeros(1, np.float32))
    launch = lambda: tiny.launch(v, 1, grid=1, block=1, device=dev)
    for _ in range(100): launch()
    dev.synchronize()
    def per(fn, n, sync, each):
        best = 1e9
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(n):
                fn()
                if each: sync()
            sync(); best = min(best, (time.perf_counter() - t) / n)
        return best * 1e6
    a, s = per(launch, 3000, dev.synchronize, False), per(launch, 1000, dev.synchronize, True)
    try:
        import cupy as cp
        rk = cupy_kernel(dev, tiny); buf = cp.zeros(1, cp.float32); n = np.int32(1)
        ref = lambda: rk((1,), (1,), (buf, n, n))
        for _ in range(100): ref()
        ra = per(ref, 3000, cp.cuda.runtime.deviceSynchronize, False)
        rs = per(ref, 1000, cp.cuda.runtime.deviceSynchronize, True)
        print(f"{DEV}: async {a:.2f} us (cupy {ra:.2f}, x{a/ra:.2f}); launch+sync {s:.2f} us (cupy {rs:.2f}, x{s/rs:.2f})")
    except Exception as e:
        print(f"{DEV}: async {a:.2f} us; launch+sync {s:.2f} us (no cupy: {e!r})")
    calls = Counter()
    def prof(frame, event, arg):
        if event == 'call': calls[frame.f_code.co_qualname] += 1
        elif event == 'c_call': calls[str(getattr(arg, '__qualname__', arg))] += 1
    sys.setprofile(prof); launch(); sys.setprofile(None); dev.synchronize()
    print(f"{DEV}: calls per warm launch {sum(calls.values())}: {calls.most_common(40)}")
    pr = cProfile.Profile(); pr.enable()
    for _ in range(3000): launch()
    dev.synchronize(); pr.disable()
    st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats('tottime').print_stats(25); print(st.getvalue()[-7000:])
"""


def env(cache: str) -> dict[str, str]:
    return dict(os.environ, SAREK_CACHE_DIR=str(TMP / cache),
                PYTHONPATH=os.pathsep.join([str(TMP), str(ROOT), os.environ.get("PYTHONPATH", "")]))


def main() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_compile import _bytecode  # pyright: ignore[reportPrivateUsage]

    _bytecode()
    for dev in sys.argv[1:] or ["cuda", "ptx", "opencl"]:
        for mode in ("cold", "warm", "warm", "importtime", "prof"):
            flags = ["-X", "importtime"] if mode == "importtime" else []
            code = f"DEV={dev!r}\nPROF={mode == 'prof'}\n" + FIRST
            try:
                r = subprocess.run([sys.executable, *flags, "-c", code], env=env("c-" + dev), capture_output=True,
                                   text=True, timeout=60)
            except subprocess.TimeoutExpired:
                print(f"===== {dev} {mode}: timed out"); continue
            out = r.stdout if mode == "prof" else "\n".join(r.stdout.splitlines()[-1:])
            print(f"===== {dev} {mode} rc={r.returncode}\n{out}")
            if mode == "importtime":
                print("\n".join(r.stderr.split("=== LAUNCH\n", 1)[-1].splitlines()[:60]))
            elif r.returncode:
                print(r.stderr[-3000:])
    r = subprocess.run([sys.executable, "-c", LOOP], env=env("loop"), capture_output=True, text=True, timeout=120)
    print(f"===== launch loop rc={r.returncode}\n{r.stdout[-20000:]}\n{r.stderr[-3000:]}")


if __name__ == "__main__":
    main()
