"""GPU kernels at hand-written speed? sarek PTX and CUDA, NVIDIA OpenCL and Vulkan vs hand-written CUDA
(`bash scripts/gpu_run.sh python3 benchmarks/bench_gpu.py --out $OUT/gpu`, one H200 run, ~3 minutes).

Per kernel of benchmarks/gpu_kernels.py (vadd, saxpy, block reduction, tiled transpose, 2-D Jacobi, 16x16
tiled sgemm, Mandelbrot, then control, storage, int_ops, atomics_warp, math_mix):
- `hand`: the hand-written CUDA of the same algorithm compiled by NVRTC with default options (sarek's
  `nvrtc_compile`: --gpu-architecture, -default-device, --std=c++17; --fmad=true is NVRTC's default); for
  the last five the reference is sarek's own CUDA where no hand-written version exists (`ref` column says).
- `ptx` (fp=default: contraction on, fast f32 math), `ptx_exact` (fp=exact: bit-identical to the
  interpreter), `cuda` (sarek's CUDA C through NVRTC, default options): the same inputs and launch; kernel time
  = median over REPS batches of the CUDA-event time of 10 back-to-back launches / 10.
- `opencl` (sarek's OpenCL C on NVIDIA's OpenCL: profiling-queue event times) and `vulkan` / `vulkan_glsl`
  (sarek's WGSL through wgpu / GLSL on the Vulkan driver: GPU timestamp queries around 10 dispatches; when
  the adapter lacks timestamp queries, wall time around them after a synchronize, marked `wall`).
- ratios = hand_ms / X_ms (>= 0.95 is issue 17's goal for ptx and cuda, >= 0.90 for opencl and vulkan).
- memory-bound kernels: bytes moved / time vs a device-to-device copy (cuMemcpyDtoD) of the same size
  measured in the same run (`copy_gbs`; goal >= 0.8 of it).
- agreement: each sarek variant's outputs vs the hand-written kernel's (max abs difference, tolerance per
  kernel).
- SASS: `--sass` (default on when cuobjdump is found) writes `cuobjdump -sass` of the hand-written cubin,
  sarek's CUDA cubin and sarek's PTX assembled by ptxas for the hot kernels into OUT/sass/, plus the PTX.

Every step is guarded: a failure is recorded in the row and the run goes on; results are written to
OUT/bench_gpu.json after every kernel, and a table is printed last. `--quick` shrinks sizes (CPU-side
checks: `--dry-run` generates every source and compiles the hand-written CUDA with NVRTC when present,
without a GPU).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gpu_kernels import Case, cases, mlir_cases  # noqa: E402  pyright: ignore[reportMissingImports]

REPS = 15
HOT = ("sgemm_tiled", "mandel", "block_sum", "math_mix", "control", "storage")
GOALS = {"ptx": 0.95, "cuda": 0.95, "opencl": 0.90, "vulkan": 0.90, "vulkan_glsl": 0.90}


def log(msg: str) -> None:
    print(f"[bench_gpu] {msg}", flush=True)


def err(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:600]


# ------------------------------------------------------------------------------------------------ sources


def sources(c: Case) -> dict[str, str]:
    """Every source this case runs: sarek's PTX at both policies, CUDA, OpenCL, WGSL, GLSL."""
    from sarek.registry import emit_source

    out: dict[str, str] = {}
    for key, target, opts in (("ptx", "ptx", {}), ("ptx_exact", "ptx", {"fp": "exact"}), ("cuda", "cuda", {}),
                              ("opencl", "opencl", {}),
                              ("wgsl", "wgsl", {"block": ",".join(map(str, c.block)), "kernel": c.kernel}),
                              ("glsl", "glsl", {"block": ",".join(map(str, c.block)), "kernel": c.kernel})):
        try:
            out[key] = emit_source(c.module, target, **opts)
        except Exception as e:  # a refusal (f64 on WGSL ...) is a row entry, not a crash
            out[key] = f"// refused: {err(e)}"
    return out


# ------------------------------------------------------------------------------------------------ CUDA side


class Cuda:
    """The PTX device's context, functions from PTX text or cubins, CUDA-event timing."""

    def __init__(self) -> None:
        from sarek.runtime.ptx import ptx_devices

        self.dev = ptx_devices()[0]
        self.dev.activate()
        from sarek.runtime.cuda import _driver  # pyright: ignore[reportPrivateUsage]

        self.d = _driver()

    def check(self, r: Any, what: str) -> Any:
        from sarek.runtime.cuda import check

        return check(r, what)

    def from_ptx(self, ptx: str, entry: str) -> Any:
        mod = self.dev.load(ptx)
        return self.check(self.d.cuModuleGetFunction(mod, entry.encode()), f"function {entry}")

    def from_cubin(self, image: bytes, entry: str) -> Any:
        self.dev.activate()
        buf = np.frombuffer(image + b"\x00", dtype=np.uint8)
        self._keep = getattr(self, "_keep", []) + [buf]
        mod = self.check(self.d.cuModuleLoadData(buf.ctypes.data), "cuModuleLoadData")
        return self.check(self.d.cuModuleGetFunction(mod, entry.encode()), f"function {entry}")

    def launch(self, fn: Any, storage: list[np.ndarray], grid: tuple[int, ...], block: tuple[int, ...]) -> None:
        ptrs = np.array([s.ctypes.data for s in storage], dtype=np.uint64)
        self.check(self.d.cuLaunchKernel(fn, *grid, *block, 0, 0, ptrs.ctypes.data, 0), "cuLaunchKernel")

    def time(self, fn: Any, storage: list[np.ndarray], grid: tuple[int, ...], block: tuple[int, ...],
             reps: int = REPS) -> float:
        """Median ms per launch over `reps` batches of 10 launches (CUDA events)."""
        self.launch(fn, storage, grid, block)
        self.check(self.d.cuCtxSynchronize(), "sync")
        start = self.check(self.d.cuEventCreate(0), "event")
        stop = self.check(self.d.cuEventCreate(0), "event")
        times: list[float] = []
        for _ in range(reps):
            self.check(self.d.cuEventRecord(start, 0), "record")
            for _ in range(10):
                self.launch(fn, storage, grid, block)
            self.check(self.d.cuEventRecord(stop, 0), "record")
            self.check(self.d.cuEventSynchronize(stop), "sync")
            times.append(float(self.check(self.d.cuEventElapsedTime(start, stop), "elapsed")) / 10)
        return float(np.median(times))

    def copy_gbs(self, nbytes: int) -> float:
        """Device-to-device copy bandwidth (read + write bytes / s), CUDA events."""
        a, b = self.dev._alloc(nbytes), self.dev._alloc(nbytes)  # pyright: ignore[reportPrivateUsage]
        try:
            start = self.check(self.d.cuEventCreate(0), "event")
            stop = self.check(self.d.cuEventCreate(0), "event")
            self.check(self.d.cuMemcpyDtoD(b, a, nbytes), "copy")
            times: list[float] = []
            for _ in range(REPS):
                self.check(self.d.cuEventRecord(start, 0), "record")
                for _ in range(10):
                    self.check(self.d.cuMemcpyDtoDAsync(b, a, nbytes, 0), "copy")
                self.check(self.d.cuEventRecord(stop, 0), "record")
                self.check(self.d.cuEventSynchronize(stop), "sync")
                times.append(float(self.check(self.d.cuEventElapsedTime(start, stop), "elapsed")) / 10)
            return 2 * nbytes / (float(np.median(times)) * 1e-3) / 1e9
        finally:
            self.dev._free(a)  # pyright: ignore[reportPrivateUsage]
            self.dev._free(b)  # pyright: ignore[reportPrivateUsage]


def run_cuda_side(cu: Cuda, c: Case, srcs: dict[str, str], args: list[Any], row: dict[str, Any],
                  sass_dir: Path | None) -> None:
    """hand / ptx / ptx_exact / cuda timings and agreement, on resident buffers."""
    from sarek.lowering.cfamily import entry_name as c_entry
    from sarek.lowering.ptx import entry_name as ptx_entry
    from sarek.runtime.core import kernel_spec
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.runtime.ptx import PtxDevice

    spec = kernel_spec(c.module, c.kernel)
    dev = cu.dev
    fns: dict[str, Any] = {}
    images: dict[str, bytes] = {}
    for key in ("hand", "ptx", "ptx_exact", "cuda"):
        try:
            if key == "hand":
                if c.hand is None:
                    continue
                images[key] = nvrtc_compile(c.hand, dev.arch, f"hand_{c.kernel}.cu")
                fns[key] = cu.from_cubin(images[key], c.kernel)
            elif key == "cuda":
                images[key] = nvrtc_compile(srcs["cuda"], dev.arch, f"{c.kernel}.cu")
                fns[key] = cu.from_cubin(images[key], c_entry(c.kernel, "cuda"))
            else:
                fns[key] = cu.from_ptx(srcs[key], ptx_entry(c.kernel))
        except Exception as e:
            row[f"{key}_error"] = err(e)
    row["ref"] = "hand" if "hand" in fns else "cuda"
    outs: dict[str, list[np.ndarray]] = {}
    for key, fn in fns.items():
        bufs: list[Any] = []
        try:
            bound: list[Any] = []
            for p, a in zip(spec.params, args):
                if p.kind == "vec":
                    b = dev._alloc(max(a.nbytes, 1))  # pyright: ignore[reportPrivateUsage]
                    dev._upload(b, a)  # pyright: ignore[reportPrivateUsage]
                    bufs.append(b)
                    bound.append((b, a.size))
                else:
                    bound.append(np.array([a], dtype=p.dtype)[0] if p.kind == "scalar" else a)
            storage = PtxDevice.pack_args(spec, bound)
            row[f"{key}_ms"] = cu.time(fn, storage, c.grid, c.block)
            got: list[np.ndarray] = []
            vec_i = [i for i, p in enumerate(spec.params) if p.kind == "vec"]
            for i in c.outputs or tuple(vec_i):
                host = np.zeros_like(args[i])
                dev._download(bufs[vec_i.index(i)], host)  # pyright: ignore[reportPrivateUsage]
                got.append(host)
            outs[key] = got
        except Exception as e:
            row[f"{key}_error"] = err(e)
        finally:
            for b in bufs:
                dev._free(b)  # pyright: ignore[reportPrivateUsage]
    ref = row["ref"]
    for key in outs:
        if key != ref and ref in outs:
            row[f"{key}_vs_{ref}"] = agreement(outs[key], outs[ref], c.tol)
    if sass_dir is not None and c.name.split(":")[0] in HOT:
        dump_sass(c, srcs, images, sass_dir, row)


def agreement(got: list[np.ndarray], want: list[np.ndarray], tol: float) -> str:
    """'agree (max diff d)' or 'DIFFER ...' (records field by field, variants by tag: bench_ptx._close; their
    padding and inactive payload words are not compared)."""
    import bench_ptx  # pyright: ignore[reportMissingImports]

    worst = 0.0
    for g, w in zip(got, want):
        if g.dtype.fields is not None:
            ok = bench_ptx._close(g, w)  # pyright: ignore[reportPrivateUsage]
            if not ok.all():
                return f"DIFFER ({int((~ok).sum())} of {ok.size} records)"
            continue
        if g.dtype.kind in "iub":  # integers: the fraction of elements that differ
            worst = max(worst, float(np.count_nonzero(g != w)) / max(g.size, 1))
            continue
        d = np.abs(g.astype(np.float64) - w.astype(np.float64))
        scale = np.maximum(1.0, np.abs(w.astype(np.float64)))
        worst = max(worst, float(np.nanmax(d / scale)) if d.size else 0.0)
    return f"agree ({worst:.2g})" if worst <= tol else f"DIFFER ({worst:.3g} > {tol})"


def dump_sass(c: Case, srcs: dict[str, str], images: dict[str, bytes], sass_dir: Path, row: dict[str, Any]) -> None:
    tool = shutil.which("cuobjdump") or next((p for p in ("/usr/local/cuda/bin/cuobjdump",) if os.path.exists(p)), None)
    ptxas = shutil.which("ptxas") or next((p for p in ("/usr/local/cuda/bin/ptxas",) if os.path.exists(p)), None)
    sass_dir.mkdir(parents=True, exist_ok=True)
    base = c.name.replace(":", "_")
    (sass_dir / f"{base}.ptx").write_text(srcs["ptx"])
    (sass_dir / f"{base}.exact.ptx").write_text(srcs["ptx_exact"])
    (sass_dir / f"{base}.cu").write_text(srcs["cuda"])
    if ptxas is not None:
        for key in ("ptx", "ptx_exact"):
            try:
                out = sass_dir / f"{base}.{key}.cubin"
                subprocess.run([ptxas, "-arch=sm_90", "-O3", str(sass_dir / f"{base}{'.exact' if key == 'ptx_exact' else ''}.ptx"),
                                "-o", str(out)], check=True, capture_output=True, timeout=60)
                images[key] = out.read_bytes()
            except Exception as e:
                row[f"sass_{key}_error"] = err(e)
    if tool is None:
        row["sass"] = "no cuobjdump"
        return
    for key, img in images.items():
        try:
            f = sass_dir / f"{base}.{key}.cubin"
            f.write_bytes(img)
            r = subprocess.run([tool, "-sass", str(f)], capture_output=True, text=True, timeout=60)
            (sass_dir / f"{base}.{key}.sass").write_text(r.stdout + r.stderr)
            row[f"sass_{key}_instrs"] = len(re.findall(r"/\*[0-9a-f]{4}\*/", r.stdout))
        except Exception as e:
            row[f"sass_{key}_error"] = err(e)


# ------------------------------------------------------------------------------------------------ OpenCL, Vulkan


def nvidia_opencl() -> Any:
    from sarek.runtime import devices

    for d in devices():
        if d.kind == "opencl" and "nvidia" in getattr(d, "platform").name.lower():
            return d
    return None


def run_opencl(dev: Any, c: Case, args: list[Any], row: dict[str, Any], sass_dir: Path | None = None) -> None:
    import pyopencl as cl

    from sarek.runtime.core import kernel_spec

    spec = kernel_spec(c.module, c.kernel)
    k = dev._kernel(spec)
    q = cl.CommandQueue(dev.context, dev.device, properties=cl.command_queue_properties.PROFILING_ENABLE)
    bufs: list[Any] = []
    cargs: list[Any] = []
    try:
        for p, a in zip(spec.params, args):
            if p.kind == "vec":
                b = dev._alloc(max(a.nbytes, 1))
                dev._upload(b, a)
                bufs.append(b)
                cargs += [b, np.int32(a.size)]
            elif p.kind == "record":
                cargs.append(np.ascontiguousarray(a))
            else:
                cargs.append(np.array([a], dtype=p.dtype)[0])
        k.set_args(*cargs)
        gsize = tuple(g * b for g, b in zip(c.grid, c.block))
        cl.enqueue_nd_range_kernel(q, k, gsize, c.block).wait()
        times: list[float] = []
        kernel: list[float] = []
        for _ in range(REPS):
            evs = [cl.enqueue_nd_range_kernel(q, k, gsize, c.block) for _ in range(10)]
            evs[-1].wait()
            times.append((evs[-1].profile.end - evs[0].profile.start) * 1e-6 / 10)
            kernel += [(e.profile.end - e.profile.start) * 1e-6 for e in evs]
        row["opencl_ms"] = float(np.median(times))
        row["opencl_kernel_ms"] = float(np.median(kernel))  # each kernel's own start..end: no gaps between them
        if sass_dir is not None and c.name.split(":")[0] in HOT:  # NVIDIA OpenCL's binary is PTX: the evidence
            try:
                prog = k.get_info(cl.kernel_info.PROGRAM)
                sass_dir.mkdir(parents=True, exist_ok=True)
                (sass_dir / f"{c.name.replace(':', '_')}.opencl.ptx").write_bytes(
                    bytes(prog.get_info(cl.program_info.BINARIES)[0]))
            except Exception as e:
                row["opencl_ptx_error"] = err(e)
    finally:
        for b in bufs:
            dev._free(b)


def vulkan_devices() -> dict[str, Any]:
    from sarek.runtime import devices

    out: dict[str, Any] = {}
    for d in devices():
        if d.name == "vulkan:0":
            out["vulkan"] = d
        elif d.name == "vulkan-glsl:0":
            out["vulkan_glsl"] = d
    return out


def _elapsed_ms(dev: Any, qs: Any, rbuf: Any) -> float:
    """ms between the two timestamps of `qs` (resolved into `rbuf` and read back)."""
    enc = dev.device.create_command_encoder()
    enc.resolve_query_set(qs, 0, 2, rbuf, 0)
    dev.device.queue.submit([enc.finish()])
    ts = np.frombuffer(dev.device.queue.read_buffer(rbuf), dtype=np.uint64)
    period = float(getattr(dev.device.queue, "get_timestamp_period", lambda: 1.0)())
    return float(ts[1] - ts[0]) * period * 1e-6


def _timed_driver(key: str, dev: Any, submit: Any, bound: list[Any], row: dict[str, Any]) -> None:
    """vulkan-glsl: `dev.gpu_timer()` around 10 dispatches (first start to last end, per dispatch) and each
    dispatch's own start..end (the kernel alone)."""
    submit(bound)
    dev.synchronize()
    times: list[float] = []
    kernel: list[float] = []
    for _ in range(REPS):
        with dev.gpu_timer() as t:
            for _ in range(10):
                submit(bound)
        times.append(t.ms / 10)
        kernel.append(float(np.median(t.kernels_ms)))
    row[f"{key}_ms"] = float(np.median(times))
    row[f"{key}_kernel_ms"] = float(np.median(kernel))


def run_vulkan(key: str, dev: Any, c: Case, args: list[Any], row: dict[str, Any]) -> None:
    """GPU timestamps around 10 dispatches (the first pass's start to the last pass's end)."""
    from sarek.runtime.core import kernel_spec

    wgpu = __import__("wgpu")
    spec = kernel_spec(c.module, c.kernel)
    _, abi, _ = dev._pipeline(spec, c.block)
    bufs: list[Any] = []
    try:
        bound: list[Any] = []
        for p, a in zip(spec.params, args):
            if p.kind == "vec":
                codec = next(dev._codec(pa) for pa in abi["params"] if pa["index"] == len(bound))
                b = dev._alloc(codec.device_nbytes(a))
                codec.upload(dev, b, a)
                bufs.append(b)
                bound.append((b, int(a.size)))
            else:
                bound.append(a)
        fast = dev.fast_path(spec, c.grid, c.block)
        if fast is None:
            raise RuntimeError("no fast path (grid beyond the adapter's limit)")
        submit = fast.submit
        if hasattr(dev, "gpu_timer"):  # vulkan-glsl on the driver: its own timestamp queries
            _timed_driver(key, dev, submit, bound, row)
            return
        timestamps = "timestamp-query" in dev.device.features
        qs = rbuf = None
        if timestamps:
            qs = dev.device.create_query_set(type=wgpu.QueryType.timestamp, count=2)
            rbuf = dev.device.create_buffer(size=16, usage=wgpu.BufferUsage.QUERY_RESOLVE | wgpu.BufferUsage.COPY_SRC)
        submit(bound)
        dev.synchronize()
        times: list[float] = []
        for _ in range(REPS):
            if timestamps:
                dev.timestamp_writes = {"query_set": qs, "beginning_of_pass_write_index": 0}
                submit(bound)
                dev.timestamp_writes = None
                for _ in range(8):
                    submit(bound)
                dev.timestamp_writes = {"query_set": qs, "end_of_pass_write_index": 1}
                submit(bound)
                dev.timestamp_writes = None
                times.append(_elapsed_ms(dev, qs, rbuf) / 10)
            else:
                t0 = time.perf_counter()
                for _ in range(10):
                    submit(bound)
                dev.synchronize()
                times.append((time.perf_counter() - t0) * 1e3 / 10)
        row[f"{key}_ms"] = float(np.median(times))
        if not timestamps:
            row[f"{key}_timing"] = "wall"
        else:  # one dispatch's own pass, start to end: the kernel without the gaps between submissions
            kernel: list[float] = []
            for _ in range(REPS):
                dev.timestamp_writes = {"query_set": qs, "beginning_of_pass_write_index": 0,
                                        "end_of_pass_write_index": 1}
                submit(bound)
                dev.timestamp_writes = None
                kernel.append(_elapsed_ms(dev, qs, rbuf))
            row[f"{key}_kernel_ms"] = float(np.median(kernel))
    finally:
        dev.timestamp_writes = None
        for b in bufs:
            dev._free(b)


# ------------------------------------------------------------------------------------------------ driver


def bench(out: Path | None, quick: bool, dry: bool, only: set[str], sass: bool) -> dict[str, Any]:
    scale = 16 if quick or dry else 1
    all_cases = cases(scale) + mlir_cases(scale)
    if only:
        all_cases = [c for c in all_cases if c.name.split(":")[0] in only]
    res: dict[str, Any] = {"rows": [], "started": time.strftime("%Y-%m-%d %H:%M:%S"), "quick": quick, "dry": dry}
    cu = ocl = None
    vk: dict[str, Any] = {}
    if not dry:
        try:
            cu = Cuda()
            res["device"] = cu.dev.description
        except Exception as e:
            res["cuda_error"] = err(e)
        for name, fn in (("opencl", nvidia_opencl), ("vulkan", vulkan_devices)):
            try:
                got = fn()
                if name == "opencl":
                    ocl = got
                else:
                    vk = got
            except Exception as e:
                res[f"{name}_error"] = err(e)
        if cu is not None:
            try:
                res["copy_gbs"] = cu.copy_gbs(4 << 24 if not quick else 4 << 20)
                log(f"device copy {res['copy_gbs']:.0f} GB/s")
            except Exception as e:
                res["copy_error"] = err(e)
    sass_dir = (out / "sass") if (out is not None and sass) else None  # packed into sass.tar.gz at the end
    rng = np.random.default_rng(17)
    for c in all_cases:
        t0 = time.time()
        row: dict[str, Any] = {"kernel": c.name}
        try:
            srcs = sources(c)
            row["refused"] = [k for k, v in srcs.items() if v.startswith("// refused")]
            args = c.make_args(rng)
            if dry:
                from sarek.runtime.cuda import nvrtc_compile

                for key, text in (("hand", c.hand), ("cuda", srcs["cuda"])):
                    if text is None:
                        continue
                    try:
                        nvrtc_compile(text, "sm_90", f"{key}_{c.kernel}.cu", output="ptx")
                        row[f"{key}_compiles"] = True
                    except Exception as e:
                        row[f"{key}_compiles"] = err(e)
            if cu is not None:
                run_cuda_side(cu, c, srcs, args, row, sass_dir)
            if ocl is not None and "opencl" not in row["refused"]:
                try:
                    run_opencl(ocl, c, args, row, sass_dir)
                except Exception as e:
                    row["opencl_error"] = err(e)
            for key, d in vk.items():
                if ("wgsl" if key == "vulkan" else "glsl") in row["refused"]:
                    continue
                try:
                    run_vulkan(key, d, c, args, row)
                except Exception as e:
                    row[f"{key}_error"] = err(e)
            ref_ms = row.get(f"{row.get('ref', 'hand')}_ms")
            for key in ("ptx", "ptx_exact", "cuda", "opencl", "vulkan", "vulkan_glsl"):
                if ref_ms and row.get(f"{key}_ms"):
                    row[f"{key}_ratio"] = ref_ms / row[f"{key}_ms"]
                if ref_ms and row.get(f"{key}_kernel_ms"):  # kernel alone vs the reference's back-to-back time
                    row[f"{key}_kernel_ratio"] = ref_ms / row[f"{key}_kernel_ms"]
            if c.bytes_moved and res.get("copy_gbs"):
                for key in ("hand", "ptx", "cuda", "opencl", "vulkan", "vulkan_glsl"):
                    if row.get(f"{key}_ms"):
                        row[f"{key}_of_copy"] = c.bytes_moved / (row[f"{key}_ms"] * 1e-3) / 1e9 / res["copy_gbs"]
        except Exception:
            row["error"] = traceback.format_exc()[-2000:]
        row["seconds"] = round(time.time() - t0, 2)
        res["rows"].append(row)
        log(json.dumps(row, default=str)[:1500])
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "bench_gpu.json").write_text(json.dumps(res, indent=1, default=str))
    return res


def table(res: dict[str, Any]) -> str:
    cols = ["hand", "ptx", "ptx_exact", "cuda", "opencl", "vulkan", "vulkan_glsl"]
    lines = [f"device: {res.get('device', '?')}; copy {res.get('copy_gbs', float('nan')):.0f} GB/s",
             "| kernel | ref | " + " | ".join(f"{c} ms" for c in cols) + " | " + " | ".join(
                 f"{c} ratio" for c in cols[1:]) + " | of copy (hand/ptx/cuda) |",
             "|" + "---|" * (2 + 2 * len(cols)) + "---|"]
    for r in res["rows"]:
        ms = [f"{r[c + '_ms']:.4f}" if isinstance(r.get(c + "_ms"), float) else ("err" if c + "_error" in r else "-")
              for c in cols]
        ratios = [f"{r[c + '_ratio']:.2f}" if isinstance(r.get(c + "_ratio"), float) else "-" for c in cols[1:]]
        copy = "/".join(f"{r[c + '_of_copy']:.2f}" for c in ("hand", "ptx", "cuda") if isinstance(r.get(c + "_of_copy"), float))
        lines.append(f"| {r['kernel']} | {r.get('ref', '-')} | " + " | ".join(ms) + " | " + " | ".join(ratios) + f" | {copy or '-'} |")
    kcols = ["opencl", "vulkan", "vulkan_glsl"]
    lines += ["", "kernel alone (one kernel's own start..end: OpenCL event, Vulkan pass timestamps) vs the reference:",
              "| kernel | " + " | ".join(f"{c} kernel ms | ratio" for c in kcols) + " |",
              "|---|" + "---|---|" * len(kcols)]
    for r in res["rows"]:
        cells = [f"{r[c + '_kernel_ms']:.4f} | {r.get(c + '_kernel_ratio', float('nan')):.2f}"
                 if isinstance(r.get(c + "_kernel_ms"), float) else "- | -" for c in kcols]
        lines.append(f"| {r['kernel']} | " + " | ".join(cells) + " |")
    bad = [(r["kernel"], k, v) for r in res["rows"] for k, v in r.items()
           if k.endswith("error") or (isinstance(v, str) and v.startswith("DIFFER"))]
    lines += [f"  {k}: {what}: {str(v)[:300]}" for k, what, v in bad]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=os.environ.get("OUT"))
    ap.add_argument("--quick", action="store_true", help="sizes / 16")
    ap.add_argument("--dry-run", action="store_true", help="no GPU: make every source, compile CUDA with NVRTC")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--no-sass", action="store_true")
    ap.add_argument("--watchdog", type=float, default=float(os.environ.get("BENCH_GPU_WATCHDOG", "280")))
    a = ap.parse_args()
    import faulthandler

    faulthandler.dump_traceback_later(a.watchdog, exit=True)
    out = Path(a.out) if a.out else None
    res = bench(out, a.quick, a.dry_run, {s for s in a.only.split(",") if s}, not a.no_sass)
    text = table(res)
    print(text)
    if out is not None:
        (out / "bench_gpu.md").write_text(text + "\n")
        pack(out / "sass")


def pack(d: Path) -> None:
    """d/* -> d.tar.gz, d removed (the GPU machine returns only a handful of files)."""
    import tarfile

    if not d.is_dir():
        return
    with tarfile.open(str(d) + ".tar.gz", "w:gz") as tar:
        tar.add(d, arcname=d.name)
    shutil.rmtree(d)


if __name__ == "__main__":
    main()
