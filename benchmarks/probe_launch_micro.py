"""Device probe for issue 31 (where a warm cuda launch's microseconds go): `python3 benchmarks/probe_launch_micro.py`
from the repository root, < 60 s. On cuda:0, a 1-element kernel (`tiny` of bench_launch.py) on a resident Vector:
per-call time (best of 5 batches of 20000, then a synchronize) of the whole `tiny.launch`, the FastPath call, its
submit, Plan.pack, cuCtxGetCurrent, int() of the context, and cuLaunchKernel called directly with the stream as int
0 / a CUstream object / None and `extra` as 0 / None, and through ctypes on libcuda; CuPy's RawKernel call of the
same source for reference."""

from __future__ import annotations

import ctypes
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import sarek  # noqa: E402
from bench_launch import cupy_kernel, tiny  # noqa: E402


def per_call(label: str, fn: Any, sync: Any, n: int = 20000) -> None:
    try:
        _per_call(label, fn, sync, n)
    except Exception as e:  # noqa: BLE001 - one variant failing leaves the others measured
        print(f"{label:58s} failed: {e!r}")


def _per_call(label: str, fn: Any, sync: Any, n: int) -> None:
    for _ in range(200):
        fn()
    sync()
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t) / n)
    print(f"{label:58s} {best * 1e6:8.3f} us")


def main() -> None:
    from cuda.bindings import driver as d

    from sarek.runtime import _warm_spec  # pyright: ignore[reportPrivateUsage]

    dev = sarek.get_device("cuda")
    v = sarek.Vector(np.zeros(1, np.float32))
    for _ in range(3):
        tiny.launch(v, 1, grid=1, block=1, device=dev)
    dev.synchronize()
    sync = dev.synchronize
    fast = next(f for f in tiny.__dict__["_fast"].values() if f is not None)
    from sarek.runtime.core import kernel_spec

    spec = _warm_spec(tiny, False) or kernel_spec(tiny.module, tiny.name)
    plan = dev._plan(spec)  # pyright: ignore[reportPrivateUsage]
    bound = [(v.launch_buffer(dev.buffer_key, "native", v.dtype) or (0, 1))[0:2], 1]
    fn, params = plan.fn, plan.pack(bound)
    per_call("tiny.launch (whole path)", lambda: tiny.launch(v, 1, grid=1, block=1, device=dev), sync)
    per_call("FastPath.__call__", lambda: fast([v, 1]), sync)
    per_call("submit(bound)", lambda: fast.submit(bound), sync)
    per_call("Plan.pack", lambda: plan.pack(bound), lambda: None)
    per_call("cuCtxGetCurrent", d.cuCtxGetCurrent, lambda: None)
    cur = d.cuCtxGetCurrent()[1]
    per_call("int(CUcontext)", lambda: int(cur), lambda: None)
    launch = d.cuLaunchKernel
    s0 = d.CUstream(0)
    per_call("cuLaunchKernel stream 0, extra 0", lambda: launch(fn, 1, 1, 1, 1, 1, 1, 0, 0, params, 0), sync)
    per_call("cuLaunchKernel stream CUstream(0), extra 0", lambda: launch(fn, 1, 1, 1, 1, 1, 1, 0, s0, params, 0), sync)
    per_call("cuLaunchKernel stream None, extra None", lambda: launch(fn, 1, 1, 1, 1, 1, 1, 0, None, params, None), sync)
    per_call("cuLaunchKernel + int(err[0])",
             lambda: int(launch(fn, 1, 1, 1, 1, 1, 1, 0, 0, params, 0)[0]), sync)
    try:
        cl = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
        cl.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
        cl.restype = ctypes.c_int
        fn_ptr = int(fn)
        per_call("ctypes libcuda cuLaunchKernel", lambda: cl(fn_ptr, 1, 1, 1, 1, 1, 1, 0, None, params, None), sync)
    except OSError as e:
        print("no libcuda through ctypes:", e)
    try:
        import cupy as cp

        rk = cupy_kernel(dev, tiny)
        buf = cp.zeros(1, cp.float32)
        n = np.int32(1)
        per_call("CuPy RawKernel call (reference)", lambda: rk((1,), (1,), (buf, n, n)),
                 cp.cuda.runtime.deviceSynchronize)
    except Exception as e:  # noqa: BLE001
        print("no CuPy:", repr(e))
    print("result", v.to_numpy()[0] > 0)


if __name__ == "__main__":
    main()
