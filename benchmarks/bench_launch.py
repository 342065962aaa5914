"""Launch cost and end-to-end time per launch through sarek, against the same work done directly
(`python3 benchmarks/bench_launch.py [--out DIR] [--quick] [--devices cuda,ptx,opencl,vulkan]`).

Every row is a ratio against a reference measured in the same run, on the same kernel:

1. **launch + sync** of a 1-element kernel with resident data: sarek (`sarek.Vector` arguments; on cuda and ptx
   also a PyTorch CUDA tensor, the "(torch args)" rows) vs a CuPy
   RawKernel of sarek's generated CUDA (cuda, ptx), vs a direct pyopencl kernel call of the same program
   (opencl), vs a direct wgpu dispatch of the same pipeline with a pre-built bind group (vulkan), vs a
   command buffer of the same pipeline recorded once through the `vulkan` binding and re-submitted
   (vulkan-glsl). ratio = sarek time / reference time (goal <= 1.5; vulkan <= 2).
2. **async throughput**: N back-to-back launches then one synchronize, per launch; same references.
3. **end-to-end per launch** of vadd, saxpy, block reduction, tiled transpose, 2-D Jacobi, 16x16-tiled sgemm
   (2048) and Mandelbrot (4096^2, 256 iterations) on cuda: sarek with resident Vectors, and sarek with CuPy
   arrays as arguments, vs CuPy launching the same generated CUDA (RawKernel, CuPy arrays).
   ratio = CuPy time / sarek time (goal >= 0.95).

Times: `time.perf_counter` around batches; the median batch. Runs where the device is absent are listed as
such (never counted). `--quick` (CI smoke on the CPU machine) runs section 1 and 2 on pocl and lavapipe with
few repetitions. Results go to stdout as a table and to DIR/bench_launch.json.
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
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import sarek  # noqa: E402
from sarek import Vec, f32, i32, kernel  # noqa: E402
from sarek.gpu import (block_dim_x, block_dim_y, block_idx_x, block_idx_y, global_thread_id,  # noqa: E402
                       shared, superstep, thread_idx_x, thread_idx_y)

TILE = 16
B = 256


@kernel
def tiny(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = a[i] + 1.0


@kernel
def saxpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]


@kernel(block=(TILE, TILE))
def transpose_tiled(src: Vec[f32], dst: Vec[f32], rows: i32, cols: i32):
    tile = shared(f32, TILE * (TILE + 1))
    x = block_idx_x * TILE + thread_idx_x
    y = block_idx_y * TILE + thread_idx_y
    with superstep(divergent=True):  # the barrier is reached by every thread: only the load is guarded
        if x < cols and y < rows:
            tile[thread_idx_y * (TILE + 1) + thread_idx_x] = src[y * cols + x]
    tx = block_idx_y * TILE + thread_idx_x
    ty = block_idx_x * TILE + thread_idx_y
    if tx < rows and ty < cols:
        dst[ty * rows + tx] = tile[thread_idx_x * (TILE + 1) + thread_idx_y]


@kernel(block=(TILE, TILE))
def jacobi(u: Vec[f32], v: Vec[f32], w: i32, h: i32):
    x = block_idx_x * block_dim_x + thread_idx_x
    y = block_idx_y * block_dim_y + thread_idx_y
    if x > 0 and y > 0 and x < w - 1 and y < h - 1:
        v[y * w + x] = 0.25 * (u[y * w + x - 1] + u[y * w + x + 1] + u[(y - 1) * w + x] + u[(y + 1) * w + x])


def _example(name: str) -> Any:
    """examples/<name>.py as a module (the corpus kernels the benchmark shares)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_sarek_example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


vadd = _example("vector_add").vector_add
block_reduce = _example("reduce").reduce_sum  # 256-thread blocks, a shared-memory tree
sgemm = _example("matmul").matmul_tiled  # 16x16 tiles in shared memory


@kernel(block=(TILE, TILE))
def mandelbrot(out: Vec[i32], w: i32, h: i32, max_iter: i32):
    """examples/mandelbrot.py's kernel with the iteration count a parameter (the example fixes 64)."""
    px = block_idx_x * block_dim_x + thread_idx_x
    py = block_idx_y * block_dim_y + thread_idx_y
    if px < w and py < h:
        cx = f32(px) / f32(w) * 3.0 - 2.0
        cy = f32(py) / f32(h) * 2.0 - 1.0
        x = 0.0
        y = 0.0
        it = 0
        while it < max_iter and x * x + y * y <= 4.0:
            xt = x * x - y * y + cx
            y = 2.0 * x * y + cy
            x = xt
            it += 1
        out[py * w + px] = it


def median_per_call(fn: Callable[[], None], calls: int, batches: int, sync: Callable[[], None]) -> float:
    """Median over batches of (time of `calls` calls + one sync) / calls, in microseconds."""
    fn()
    sync()
    times: list[float] = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def per_launch_sync(fn: Callable[[], None], sync: Callable[[], None], calls: int, batches: int) -> float:
    def once() -> None:
        fn()
        sync()

    return median_per_call(once, calls, batches, lambda: None)


# ------------------------------------------------------------------------------------------------ references


def cupy_kernel(dev: Any, k: Any) -> Any:
    import cupy as cp

    from sarek.lowering.cfamily import entry_name

    src = dev.source(k.module, k.name) if dev.kind == "cuda" else sarek.get_device("cuda").source(k.module, k.name)
    return cp.RawKernel(src, entry_name(k.name, "cuda"), options=("--std=c++17",))


def overhead_rows(devname: str, calls: int, batches: int, async_calls: int) -> list[dict[str, Any]]:
    dev = sarek.get_device(devname)
    v = sarek.Vector(np.zeros(1, np.float32))
    rows: list[dict[str, Any]] = []

    def launch() -> None:
        tiny.launch(v, 1, grid=1, block=1, device=dev)

    launch()
    dev.synchronize()
    ref, ref_sync, ref_name, goal = reference_launch(dev, v)
    s_sync = per_launch_sync(launch, dev.synchronize, calls, batches)
    r_sync = per_launch_sync(ref, ref_sync, calls, batches)
    rows.append({"section": "launch + sync", "device": devname, "sarek_us": s_sync, "ref": ref_name,
                 "ref_us": r_sync, "ratio": s_sync / r_sync, "goal": f"<= {goal}", "met": s_sync / r_sync <= goal})
    s_async = median_per_call(launch, async_calls, batches, dev.synchronize)
    r_async = median_per_call(ref, async_calls, batches, ref_sync)
    rows.append({"section": "async launch", "device": devname, "sarek_us": s_async, "ref": ref_name,
                 "ref_us": r_async, "ratio": s_async / r_async, "goal": f"<= {goal}",
                 "met": s_async / r_async <= goal})
    assert v.to_numpy()[0] > 0
    if dev.kind in ("cuda", "ptx"):
        rows += torch_rows(dev, ref, ref_sync, ref_name, goal, calls, batches, async_calls)
    return rows


def torch_rows(dev: Any, ref: Callable[[], None], ref_sync: Callable[[], None], ref_name: str, goal: float,
               calls: int, batches: int, async_calls: int) -> list[dict[str, Any]]:
    """The same 1-element launch with a PyTorch CUDA tensor as the vector (the foreign-array fast path,
    sarek.runtime.cuda_foreign), against the same CuPy RawKernel reference; none where torch is absent."""
    try:
        import torch
    except ImportError:
        return [{"section": "launch + sync (torch args)", "device": dev.name, "absent": True}]
    t = torch.zeros(1, dtype=torch.float32, device=f"cuda:{dev.index}")

    def launch() -> None:
        tiny.launch(t, 1, grid=1, block=1, device=dev)

    def sync() -> None:
        dev.synchronize()  # (torch's current stream is the legacy default one here: the launch goes there)

    launch()
    sync()
    rows: list[dict[str, Any]] = []
    for section, s_us, r_us in [
            ("launch + sync (torch args)", per_launch_sync(launch, sync, calls, batches),
             per_launch_sync(ref, ref_sync, calls, batches)),
            ("async launch (torch args)", median_per_call(launch, async_calls, batches, sync),
             median_per_call(ref, async_calls, batches, ref_sync))]:
        rows.append({"section": section, "device": dev.name, "sarek_us": s_us, "ref": ref_name, "ref_us": r_us,
                     "ratio": s_us / r_us, "goal": f"<= {goal}", "met": s_us / r_us <= goal})
    assert float(t[0]) > 0
    return rows


def reference_launch(dev: Any, v: Any) -> tuple[Callable[[], None], Callable[[], None], str, float]:
    """(launch, sync, name, goal ratio) of the direct way to run `tiny` on `dev` (same code, same buffer)."""
    from sarek.runtime.core import kernel_spec

    spec = kernel_spec(tiny.module, tiny.name)
    if dev.kind in ("cuda", "ptx"):
        import cupy as cp

        rk = cupy_kernel(dev, tiny)
        buf = cp.zeros(1, cp.float32)
        n = np.int32(1)

        def cupy_launch() -> None:
            rk((1,), (1,), (buf, n, n))  # (pointer, length) then n

        return cupy_launch, cp.cuda.runtime.deviceSynchronize, "CuPy RawKernel", 1.5
    if dev.kind == "opencl":
        k = dev._kernel(spec)  # pyright: ignore[reportPrivateUsage]
        buf = v.device_buffer(dev)
        q = dev.queue
        n = np.int32(1)

        def cl_launch() -> None:
            k(q, (1,), (1,), buf, n, n)  # (buffer, length) then n

        return cl_launch, q.finish, "pyopencl kernel call", 1.5
    if dev.kind == "vulkan" and dev.lang == "glsl":
        return driver_dispatch(dev, v)
    if dev.kind == "vulkan":
        (pipe, bgl), abi, p_abi, buf, params = _shader_args(dev, v)
        d = dev.device
        import wgpu

        entries: list[dict[str, Any]] = [{"binding": p_abi["binding"], "resource": {"buffer": buf}}]
        if abi["params_size"]:
            ubuf = d.create_buffer_with_data(data=bytes(params), usage=wgpu.BufferUsage.UNIFORM)
            entries.append({"binding": abi["params_binding"], "resource": {"buffer": ubuf}})
        bg = d.create_bind_group(layout=bgl, entries=entries)

        def wgpu_dispatch() -> None:
            enc = d.create_command_encoder()
            cp_ = enc.begin_compute_pass()
            cp_.set_pipeline(pipe)
            cp_.set_bind_group(0, bg)
            cp_.dispatch_workgroups(1, 1, 1)
            cp_.end()
            d.queue.submit([enc.finish()])

        return wgpu_dispatch, dev.synchronize, "direct wgpu dispatch", 2.0
    raise SystemExit(f"no reference for device {dev.name}")


def _shader_args(dev: Any, v: Any) -> tuple[Any, dict[str, Any], dict[str, Any], Any, bytearray]:
    """A Vulkan device's (pipeline, abi, the vector's abi, its buffer, parameter bytes) of `tiny(v, 1)`."""
    from sarek.runtime.core import kernel_spec
    from sarek.runtime.shader_codec import ShaderCodec

    pipe, abi, _ = dev._pipeline(kernel_spec(tiny.module, tiny.name), (1, 1, 1))  # pyright: ignore[reportPrivateUsage]
    p_abi = next(p for p in abi["params"] if p["kind"] == "vec")
    buf = v.device_buffer(dev, ShaderCodec(p_abi))
    params = bytearray(max(abi["params_size"], 0))
    params[p_abi["len_offset"]:p_abi["len_offset"] + 4] = np.int32(1).tobytes()
    for p in abi["params"]:
        if p["kind"] != "vec":
            params[p["offset"]:p["offset"] + 4] = np.int32(1).tobytes()
    return pipe, abi, p_abi, buf, params


def driver_dispatch(dev: Any, v: Any) -> tuple[Callable[[], None], Callable[[], None], str, float]:
    """vulkan-glsl's reference: the same pipeline, buffer and push constants as one command buffer recorded
    through the `vulkan` binding (sarek.runtime.vulkan_driver), submitted as it is; sync waits on the timeline."""
    pipe, _, p_abi, buf, params = _shader_args(dev, v)
    drv = dev.driver
    cb = drv.record(pipe, drv.descriptor_set(pipe, [(p_abi["binding"], buf)]), bytes(params), (1, 1, 1))

    def vk_submit() -> None:
        drv.submit(cb)

    return vk_submit, drv.wait, "direct vkQueueSubmit (vulkan binding)", 1.5


# ------------------------------------------------------------------------------------------------ end to end


def workloads(quick: bool) -> list[tuple[str, Any, Callable[[], tuple[Any, ...]], Any, Any, int]]:
    """(name, kernel, make host args, grid, block (None: the declared one), index of the output)."""
    rng = np.random.default_rng(0)
    n = 1 << (16 if quick else 24)
    m = 256 if quick else 2048
    w = 256 if quick else 4096
    jw = 512 if quick else 4096
    r = lambda k: rng.random(k, dtype=np.float32)  # noqa: E731
    cd = sarek.cdiv
    return [
        ("vadd (16M)", vadd, lambda: (r(n), r(n), np.zeros(n, np.float32), n), cd(n, 256), 256, 2),
        ("saxpy (16M)", saxpy, lambda: (r(n), r(n), np.float32(2.0), n), cd(n, 256), 256, 1),
        ("block reduction (16M)", block_reduce, lambda: (r(n), np.zeros(cd(n, B), np.float32), n), cd(n, B), B, 1),
        ("tiled transpose (4096^2)", transpose_tiled, lambda: (r(jw * jw), np.zeros(jw * jw, np.float32), jw, jw),
         (cd(jw, TILE), cd(jw, TILE)), None, 1),
        ("2-D Jacobi (4096^2)", jacobi, lambda: (r(jw * jw), np.zeros(jw * jw, np.float32), jw, jw),
         (cd(jw, TILE), cd(jw, TILE)), None, 1),
        (f"sgemm 16x16 tiles ({m})", sgemm, lambda: (r(m * m), r(m * m), np.zeros(m * m, np.float32), m),
         (m // TILE, m // TILE), (TILE, TILE), 2),
        ("Mandelbrot (4096^2, 256 it)", mandelbrot, lambda: (np.zeros(w * w, np.int32), w, w, 256),
         (cd(w, TILE), cd(w, TILE)), None, 0),
    ]


def end_to_end_rows(devname: str, quick: bool) -> list[dict[str, Any]]:
    dev = sarek.get_device(devname)
    rows: list[dict[str, Any]] = []
    for name, k, make, grid, block, out_idx in workloads(quick):
        try:
            rows.append(one_workload(dev, name, k, make, grid, block, out_idx, quick))
        except Exception as e:  # noqa: BLE001 - reported in the table
            rows.append({"section": "end to end", "device": devname, "kernel": name,
                         "error": f"{type(e).__name__}: {e}"})
        show(rows[-1])
    return rows


def one_workload(dev: Any, name: str, k: Any, make: Callable[[], tuple[Any, ...]], grid: Any, block: Any,
                 out_idx: int, quick: bool) -> dict[str, Any]:
    import cupy as cp

    host = make()
    blk = block if block is not None else k.declared_block
    g3 = grid if isinstance(grid, tuple) else (grid,)
    b3 = blk if isinstance(blk, tuple) else (blk,)
    vecs = [sarek.Vector(a) if isinstance(a, np.ndarray) else a for a in host]
    cups = [cp.asarray(a) if isinstance(a, np.ndarray) else a for a in host]
    rk = cupy_kernel(dev, k)
    cargs: list[Any] = []
    for a in cups:
        if isinstance(a, cp.ndarray):
            cargs += [a, np.int32(a.size)]
        elif isinstance(a, int):
            cargs.append(np.int32(a))
        else:
            cargs.append(a)
    cargs_t = tuple(cargs)
    kw = {"grid": grid, "device": dev} if block is None else {"grid": grid, "block": block, "device": dev}

    def s_vec() -> None:
        k.launch(*vecs, **kw)

    def s_cupy() -> None:
        k.launch(*cups, **kw)

    def c_raw() -> None:
        rk(g3, b3[:3] if len(b3) > 1 else b3, cargs_t)

    calls = 3 if quick else (5 if "sgemm" in name or "Mandel" in name else 50)
    batches = 3 if quick else 7
    t_vec = median_per_call(s_vec, calls, batches, dev.synchronize)
    t_cup = median_per_call(s_cupy, calls, batches, dev.synchronize)
    t_ref = median_per_call(c_raw, calls, batches, cp.cuda.runtime.deviceSynchronize)
    # both ran the same launches on the same inputs (saxpy accumulates: as many launches each way, the
    # CuPy-argument run added its own on top of the same array, so only idempotent kernels are compared)
    got = vecs[out_idx].to_numpy()
    want = cp.asnumpy(cups[out_idx])
    same = bool(np.allclose(got, want, rtol=1e-4, atol=1e-3)) if k.name != "saxpy" else None
    return {"section": "end to end", "device": dev.name, "kernel": name, "sarek_us": t_vec,
            "sarek_cupy_args_us": t_cup, "ref": "CuPy RawKernel (same CUDA)", "ref_us": t_ref,
            "ratio": t_ref / t_vec, "ratio_cupy_args": t_ref / t_cup, "goal": ">= 0.95",
            "met": t_ref / t_vec >= 0.95, "same_result": same}


def show(r: dict[str, Any]) -> None:
    if r.get("absent") or r.get("error"):
        print(f"{r['section']:<14} {r['device']:<14} {r.get('kernel', '')} {r.get('error', 'absent')}")
        return
    extra = f"  (CuPy args: {r['sarek_cupy_args_us']:.1f} us, {r['ratio_cupy_args']:.2f})" if "kernel" in r else ""
    print(f"{r['section']:<14} {r['device']:<14} {r.get('kernel', 'tiny (1 element)'):<30} "
          f"{r['sarek_us']:>10.2f} {r['ref_us']:>10.2f} {r['ratio']:>7.2f}  {r['goal']}"
          f"{' met' if r['met'] else ' NOT met'}{extra}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--devices", default=None, help="comma-separated (default: every one present)")
    a = ap.parse_args(argv)
    present = [d.name for d in sarek.devices()]
    want = a.devices.split(",") if a.devices else ["cuda:0", "ptx:0", "opencl:0", "vulkan:0", "vulkan-glsl:0"]
    rows: list[dict[str, Any]] = []
    print(f"{'section':<14} {'device':<14} {'kernel':<30} {'sarek us':>10} {'ref us':>10} {'ratio':>7}  goal")
    calls, batches, async_calls = (20, 3, 50) if a.quick else (500, 9, 5000)
    for name in want:
        full = name if ":" in name else f"{name}:0"
        if full not in present:
            rows.append({"section": "launch + sync", "device": full, "absent": True})
            continue
        try:
            got = overhead_rows(full, calls, batches, async_calls)
        except Exception as e:  # noqa: BLE001 - reported in the table, the other rows still run
            got = [{"section": "launch + sync", "device": full, "error": f"{type(e).__name__}: {e}"}]
        for r in got:
            show(r)
        rows += got
    if "cuda:0" in present and not a.quick:
        rows += end_to_end_rows("cuda:0", a.quick)
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / "bench_launch.json").write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
