"""Issue 31 probe (lib31, one device run): sum4 and SGEMM variants on cuda and ptx against torch, with the
device copy (torch clone) as the bandwidth reference. `python3 benchmarks/probe_lib31.py` (< 60 s on an
H200).
grid_sum4 is the example's (one accumulator), sum4_acc4 the four-accumulator one it replaced (41 registers),
sum4_r32 that one at 32 registers; sgemm_8x8 the example, sgemm_r128 it at 128 registers, sgemm_kt the
k-major A tile variant (128 registers without a limit). Register limits are applied by wrapping the compile step (NVRTC --maxrregcount / PTX .maxnreg) for kernels
named in REGS; each line prints ms, ratio = torch / variant, and registers as the driver reports them."""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))
os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())

import torch as T  # noqa: E402

import sarek  # noqa: E402
import sarek.runtime.cuda as RC  # noqa: E402
import sarek.runtime.ptx as RP  # noqa: E402

REGS: dict[str, int] = {}  # kernel name -> register limit
_nvrtc, _ptx = RC.nvrtc_compile, RP.ptx_source


def _nvrtc_wrap(source, arch, name="kernel.cu", output="cubin", extra=None):
    lim = next((v for k, v in REGS.items() if f"void {k}(" in source), None)
    return _nvrtc(source, arch, name, output, (extra or []) + ([f"--maxrregcount={lim}"] if lim else []))


def _ptx_wrap(spec, fp="default"):
    text = _ptx(spec, fp)
    for k, lim in REGS.items():
        text = re.sub(rf"(\.entry {k}\((?:[^)]*)\))", rf"\1\n.maxnreg {lim}", text)
    return text


RC.nvrtc_compile = _nvrtc_wrap
RP.ptx_source = _ptx_wrap

# the variant kernels: copies of the examples under other names (so each compiles on its own)
tmp = Path(tempfile.mkdtemp())
src = (ROOT / "examples" / "sgemm.py").read_text()
(tmp / "sg_variants.py").write_text(src.replace("sgemm_8x8", "sgemm_r128"))
(tmp / "sum_variants.py").write_text('''
from sarek import Vec, f32, f32x4, i32, kernel
from sarek.gpu import atomic_add, global_size, global_thread_id, shared, thread_idx_x
from library import B, tree_sum, grid_sum4

@kernel(block=B)
def sum4_one(a4: Vec[f32x4], a: Vec[f32], out: Vec[f32], n: i32):
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    n4 = n // 4
    i = global_thread_id
    acc = f32x4(0.0)
    while i + 3 * stride < n4:
        v0 = a4[i]
        v1 = a4[i + stride]
        v2 = a4[i + 2 * stride]
        v3 = a4[i + 3 * stride]
        acc += (v0 + v1) + (v2 + v3)
        i += 4 * stride
    while i < n4:
        acc += a4[i]
        i += stride
    t = (acc.x + acc.y) + (acc.z + acc.w)
    r = 4 * n4 + global_thread_id
    if r < n:
        t += a[r]
    s[tid] = t
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)

@kernel(block=B)
def sum4_two(a4: Vec[f32x4], a: Vec[f32], out: Vec[f32], n: i32):
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    n4 = n // 4
    i = global_thread_id
    acc = f32x4(0.0)
    acd = f32x4(0.0)
    while i + 1 * stride < n4:
        v0 = a4[i]
        v1 = a4[i + stride]
        acc += v0
        acd += v1
        i += 2 * stride
    while i < n4:
        acc += a4[i]
        i += stride
    acc += acd
    t = (acc.x + acc.y) + (acc.z + acc.w)
    r = 4 * n4 + global_thread_id
    if r < n:
        t += a[r]
    s[tid] = t
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)

@kernel(block=B)
def sum4_r32(a4: Vec[f32x4], a: Vec[f32], out: Vec[f32], n: i32):
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    n4 = n // 4
    i = global_thread_id
    acc0 = f32x4(0.0)
    acc1 = f32x4(0.0)
    acc2 = f32x4(0.0)
    acc3 = f32x4(0.0)
    while i + 3 * stride < n4:
        acc0 += a4[i]
        acc1 += a4[i + stride]
        acc2 += a4[i + 2 * stride]
        acc3 += a4[i + 3 * stride]
        i += 4 * stride
    while i < n4:
        acc0 += a4[i]
        i += stride
    acc = (acc0 + acc1) + (acc2 + acc3)
    t = (acc.x + acc.y) + (acc.z + acc.w)
    r = 4 * n4 + global_thread_id
    if r < n:
        t += a[r]
    s[tid] = t
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)

@kernel(block=B)
def sum4_acc4(a4: Vec[f32x4], a: Vec[f32], out: Vec[f32], n: i32):
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    n4 = n // 4
    i = global_thread_id
    acc0 = f32x4(0.0)
    acc1 = f32x4(0.0)
    acc2 = f32x4(0.0)
    acc3 = f32x4(0.0)
    while i + 3 * stride < n4:
        acc0 += a4[i]
        acc1 += a4[i + stride]
        acc2 += a4[i + 2 * stride]
        acc3 += a4[i + 3 * stride]
        i += 4 * stride
    while i < n4:
        acc0 += a4[i]
        i += stride
    acc = (acc0 + acc1) + (acc2 + acc3)
    t = (acc.x + acc.y) + (acc.z + acc.w)
    r = 4 * n4 + global_thread_id
    if r < n:
        t += a[r]
    s[tid] = t
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)
''')
sys.path.insert(0, str(tmp))
import library as L  # noqa: E402
import sg_variants as GV  # noqa: E402
import sgemm as G  # noqa: E402
import sum_variants as SV  # noqa: E402

REGS.update({"sum4_r32": 32, "sgemm_r128": 128})
SMS = T.cuda.get_device_properties(0).multi_processor_count


def timed(fn, sync, reps):
    fn()
    sync()
    out = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        out.append((time.perf_counter() - t0) / reps)
    return 1e3 * statistics.median(out)


def regs(k, dev):
    try:
        from sarek.runtime.warm import launch_spec
        from cuda.bindings import driver as d
        fn = dev._function(launch_spec(k))[0]
        return int(d.cuFuncGetAttribute(d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, fn)[1])
    except Exception as e:  # noqa: BLE001
        return f"? {type(e).__name__}"


devs = {n: sarek.get_device(n) for n in ("cuda:0", "ptx:0")}
print(f"device {T.cuda.get_device_name(0)}, {SMS} SMs", flush=True)
for logn in (26, 28):
    n = 1 << logn
    x = T.rand(n, device="cuda") * 2 - 1
    x4 = x.view(-1, 4)
    want = float(x.double().sum())
    reps = 100 if logn == 26 else 20
    tt = timed(lambda: T.sum(x), T.cuda.synchronize, reps)
    tc = timed(lambda: x.clone(), T.cuda.synchronize, reps)
    print(f"n=2^{logn}: torch.sum {tt:.4f} ms ({4 * n / tt / 1e9:.2f} TB/s); clone {tc:.4f} ms "
          f"({8 * n / tc / 1e9:.2f} TB/s)", flush=True)
    out = T.zeros(1, device="cuda")
    for name, k, a4 in (("grid_sum", L.grid_sum, None), ("grid_sum4", L.grid_sum4, 1),
                        ("sum4_two", SV.sum4_two, 1), ("sum4_acc4", SV.sum4_acc4, 1), ("sum4_r32", SV.sum4_r32, 1)):
        args = [x, out, n] if a4 is None else [x4, x, out, n]
        for dn, dev in devs.items():
            for grid in (1024, SMS * 4, SMS * 8, SMS * 16):
                try:
                    out.zero_()
                    k.launch(*args, grid=grid, block=L.B, device=dev)
                    dev.synchronize()
                    err = abs(float(out[0]) - want)
                    ms = timed(lambda: k.launch(*args, grid=grid, block=L.B, device=dev), dev.synchronize, reps)
                    bw = 4 * n / ms / 1e9
                    print(f"  {name:10s} {dn:6s} grid {grid:5d}: {ms:.4f} ms ratio {tt / ms:.2f} "
                          f"copy-frac {bw / (8 * n / tc / 1e9):.2f} regs {regs(k, dev)} err {err:.3g}", flush=True)
                except Exception as e:  # noqa: BLE001
                    print(f"  {name} {dn} grid {grid}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    del x, x4

T.backends.cuda.matmul.allow_tf32 = False
for sq in (2048, 4096):
    a = T.randn(sq, sq, device="cuda")
    b = T.randn(sq, sq, device="cuda")
    c = T.zeros(sq, sq, device="cuda")
    ref = (a.double() @ b.double()).float()
    tt = timed(lambda: a @ b, T.cuda.synchronize, 10)
    print(f"sgemm {sq}^3: cuBLAS {tt:.4f} ms ({2 * sq ** 3 / tt / 1e9:.1f} TFLOP/s)", flush=True)
    for name, k in (("sgemm_8x8", G.sgemm_8x8), ("sgemm_r128", GV.sgemm_r128), ("sgemm_kt", G.sgemm_kt)):
        for dn, dev in devs.items():
            try:
                c.zero_()
                args = [a.view(-1) if name == "sgemm_kt" else a.view(-1, 4), b.view(-1, 4), c.view(-1, 4), sq, sq, sq]
                k.launch(*args, grid=GV.sgemm_grid(sq, sq), block=GV.THREADS, device=dev)
                dev.synchronize()
                err = float((c - ref).abs().max())
                ms = timed(lambda: k.launch(*args, grid=GV.sgemm_grid(sq, sq), block=GV.THREADS, device=dev),
                           dev.synchronize, 10)
                print(f"  {name:10s} {dn:6s}: {ms:.4f} ms ratio {tt / ms:.2f} regs {regs(k, dev)} err {err:.3g}",
                      flush=True)
            except Exception as e:  # noqa: BLE001
                print(f"  {name} {dn}: {type(e).__name__}: {str(e)[:300]}", flush=True)

# the new bench_library on the device (its torch path cannot run without a GPU): three jobs, the small size
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_library as BL  # noqa: E402

t0 = time.perf_counter()
rows = BL.run(["cuda:0", "ptx:0", "opencl:0"], 1 << 24, 4096, 2048, ["sum", "sum4", "layer_norm", "sgemm_kt"])
print(BL.table(rows, ["cuda:0", "ptx:0", "opencl:0"]))
print(f"bench_library subset: {time.perf_counter() - t0:.1f} s")

# NVIDIA OpenCL layer_norm (0.64 of torch where cuda reaches 1.16): the generated OpenCL as is, with its input
# vectors `const` (read-only cache), and with -cl-mad-enable / -cl-fast-relaxed-math; the PTX NVIDIA's OpenCL
# compiler makes of it (its loads' cache qualifiers)
try:
    import numpy as np
    import pyopencl as cl

    plat = next(p for p in cl.get_platforms() if "nvidia" in p.name.lower())
    cdev = plat.get_devices()[0]
    ctx = cl.Context([cdev])
    qu = cl.CommandQueue(ctx)
    rows, cols = 16384, 4096
    n = rows * cols
    mf = cl.mem_flags
    hx = np.random.default_rng(0).random(n, dtype=np.float32)
    bx = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=hx)
    bg = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.ones(cols, np.float32))
    bb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(cols, np.float32))
    by = cl.Buffer(ctx, mf.READ_WRITE, 4 * n)
    src = L.layer_norm_rows.source("opencl")
    const = src
    for v in ("x", "gamma", "beta"):
        const = const.replace(f"__global float* restrict {v},", f"__global const float* restrict {v},")
    xt = T.from_numpy(hx).cuda().view(rows, cols)
    gt, btt = T.ones(cols, device="cuda"), T.zeros(cols, device="cuda")
    tl = timed(lambda: T.nn.functional.layer_norm(xt, (cols,), gt, btt, 1e-5), T.cuda.synchronize, 50)
    print(f"OpenCL layer_norm {rows}x{cols}: torch {tl:.4f} ms", flush=True)
    for label, text, opts in (("as generated", src, []), ("const inputs", const, []),
                              ("mad-enable", src, ["-cl-mad-enable"]), ("fast-relaxed", src, ["-cl-fast-relaxed-math"]),
                              ("const + mad", const, ["-cl-mad-enable"])):
        prg = cl.Program(ctx, text).build(options=opts)
        ptx = prg.get_info(cl.program_info.BINARIES)[0].decode(errors="replace")
        kern = prg.layer_norm_rows
        kern.set_args(bx, np.int32(n), bg, np.int32(cols), bb, np.int32(cols), by, np.int32(n), np.int32(cols),
                      np.float32(1e-5))
        ms = timed(lambda: cl.enqueue_nd_range_kernel(qu, kern, (rows * 256,), (256,)), qu.finish, 50)
        loads = {q: len(re.findall(rf"ld\.global{q}\.", ptx)) for q in ("", ".nc", ".ca", ".cg", ".cs")}
        print(f"  {label:13s}: {ms:.4f} ms ratio {tl / ms:.2f}; PTX loads {loads}", flush=True)
        if label == "as generated":
            (Path(os.environ.get("OUT", tempfile.gettempdir())) / "layer_norm_nvidia_opencl.ptx").write_text(ptx)
except Exception as e:  # noqa: BLE001
    print(f"OpenCL layer_norm probe: {type(e).__name__}: {str(e)[:300]}", flush=True)
