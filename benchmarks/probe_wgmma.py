"""Device probe of Hopper's warpgroup MMA (`wgmma.mma_async`, PTX `.target sm_90a`): which shared-memory layout
and which matrix-descriptor fields (leading / stride byte offsets, swizzle) give A·B, checked against numpy.

`python3 benchmarks/probe_wgmma.py` on a compute capability 9.0 device (needs cuda-python); prints one line per
case with the max |error| against numpy (f16 inputs, f32 accumulation), `ok` under 1e-2, each case in a process
of its own (a fault loses the CUDA context), then the sarek part (`--sarek`: a warpgroup kernel and bench_gemm's
`sarek wgmma` row on the ptx device; 4096^3 timed against torch.matmul). `--case N` runs case N alone;
`--ptx` prints each case's PTX, `--check` assembles each with `ptxas -arch=sm_90a`. Measured on the H200: the
no-swizzle cases read LBO as the K-direction and SBO as the M/N-direction core-matrix offset (CUTLASS's
reading); the other reading faults (an illegal address).

Each case copies a host-built image of A (64 x K) and B (K x N) in the case's layout into shared memory, fences
the generic-proxy stores for the async proxy, builds the two descriptors, runs K/16 `wgmma ... m64nNk16` into one
accumulator (fence / commit_group / wait_group 0) and stores the accumulator in the mma.sync m16n8 per-warp
layout (warp w of the group owns rows 16w..16w+15). Layouts, for a 2-D shared array of R x C halves:
- `core` (no swizzle): 8 rows x 16 bytes contiguous per core matrix, core matrices in row-major order:
  byte(r, c) = ((r // 8) * (C // 8) + c // 8) * 128 + (r % 8) * 16 + (c % 8) * 2;
- `sw128`: 128-byte swizzle atoms of 8 rows x 64 halves (1024 bytes, 16-byte chunk index XOR row % 8),
  atoms ordered down the rows first then across columns.
A is K-major (its rows are m, K contiguous); B is MN-major (rows k, N contiguous; imm-trans-b = 1) or K-major
(stored as B^T, N x K; imm-trans-b = 0).
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import numpy as np


def core_offset(r: int, c: int, rows: int, cols: int) -> int:
    """Byte offset of half (r, c) of a rows x cols array in the no-swizzle core-matrix layout."""
    return ((r // 8) * (cols // 8) + c // 8) * 128 + (r % 8) * 16 + (c % 8) * 2


def sw128_offset(r: int, c: int, rows: int, cols: int) -> int:
    """Byte offset of half (r, c) in 128-byte-swizzle atoms (8 rows x 64 halves), atoms down the rows first."""
    atom = (c // 64) * (rows // 8) + r // 8
    chunk = ((c % 64) // 8) ^ (r % 8)
    return atom * 1024 + (r % 8) * 128 + chunk * 16 + (c % 8) * 2


def image(mat: np.ndarray, layout: str) -> bytes:
    """The bytes of f16 matrix `mat` in `layout`."""
    rows, cols = mat.shape
    out = np.zeros(rows * cols, dtype=np.float16)
    fn = core_offset if layout == "core" else sw128_offset
    for r in range(rows):
        for c in range(cols):
            out[fn(r, c, rows, cols) // 2] = mat[r, c]
    return out.tobytes()


@dataclass(frozen=True)
class Case:
    """One probe: shape m64nNk(16*ksteps), layouts, descriptor fields (bytes) and the per-k16 start advance."""

    name: str
    n: int
    ksteps: int
    layout: str  # "core" or "sw128"
    b_kmajor: bool  # B stored as B^T (N x K) with imm-trans-b 0
    a_lbo: int
    a_sbo: int
    a_step: int
    b_lbo: int
    b_sbo: int
    b_step: int


def cases() -> list[Case]:
    """Both LBO/SBO conventions for the no-swizzle layout (the ISA text and CUTLASS read differently), K- and
    MN-major B, n64 / n128 / n256, and the 128-byte swizzle."""
    out: list[Case] = []
    for n, ks in ((64, 1), (128, 2), (256, 2)):
        k = 16 * ks
        # core layout, row-major core matrices. A (64 x k): K-direction neighbour 128 B, M-direction k/8*128 B.
        a_k, a_mn = 128, (k // 8) * 128
        # B MN-major (k x n): N-direction neighbour 128 B, K-direction (next 8 rows) n/8*128 B.
        b_mn, b_k = 128, (n // 8) * 128
        out.append(Case(f"core m64n{n}k{k} B mn-major LBO=K SBO=MN", n, ks, "core", False,
                        a_k, a_mn, 2 * a_k, b_k, b_mn, 2 * b_k))
        out.append(Case(f"core m64n{n}k{k} B mn-major LBO=MN SBO=K", n, ks, "core", False,
                        a_mn, a_k, 2 * a_k, b_mn, b_k, 2 * b_k))
        if n == 64:  # mixed conventions: tells A's reading apart from B's
            out.append(Case(f"core m64n{n}k{k} A LBO=K/SBO=MN, B LBO=MN/SBO=K", n, ks, "core", False,
                            a_k, a_mn, 2 * a_k, b_mn, b_k, 2 * b_k))
            out.append(Case(f"core m64n{n}k{k} A LBO=MN/SBO=K, B LBO=K/SBO=MN", n, ks, "core", False,
                            a_mn, a_k, 2 * a_k, b_k, b_mn, 2 * b_k))
        # B K-major (B^T: n x k), like A.
        bt_k, bt_mn = 128, (k // 8) * 128
        out.append(Case(f"core m64n{n}k{k} B k-major LBO=K SBO=MN", n, ks, "core", True,
                        a_k, a_mn, 2 * a_k, bt_k, bt_mn, 2 * bt_k))
    # 128-byte swizzle, K = 64 (one atom wide for A): A K-major SBO 1024 (next 8 rows), k16 step +32 bytes;
    # B MN-major (64 x n): K-direction 8-row groups SBO 1024, N-direction atoms LBO (k/8)*1024, k16 step 2048.
    for n in (64, 128):
        out.append(Case(f"sw128 m64n{n}k64 B mn-major", n, 4, "sw128", False,
                        16, 1024, 32, (64 // 8) * 1024, 1024, 2048))
        out.append(Case(f"sw128 m64n{n}k64 B mn-major LBO<->SBO", n, 4, "sw128", False,
                        16, 1024, 32, 1024, (64 // 8) * 1024, 2048))
    return out


def desc_const(lbo: int, sbo: int, swizzle: int) -> int:
    """The descriptor's bits other than the start address."""
    return ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32 | swizzle << 62


def ptx(case: Case, b_base: int) -> str:
    """The probe kernel of `case`: copy the image to shared memory, wgmma, store D (64 x N f32, row-major)."""
    n, regs = case.n, case.n // 2
    sw = 1 if case.layout == "sw128" else 0
    acc = ", ".join(f"%f{i}" for i in range(regs))
    lines = [
        ".version 8.0", ".target sm_90a", ".address_size 64",
        ".extern .shared .align 1024 .b8 smem[];",
        ".visible .entry probe(.param .u64 pimg, .param .u64 pd, .param .u32 nbytes)", "{",
        f".reg .f32 %f<{regs + 1}>;", ".reg .b32 %r<40>;", ".reg .b64 %rd<40>;", ".reg .pred %p<4>;",
        "ld.param.u64 %rd1, [pimg];", "ld.param.u64 %rd2, [pd];", "ld.param.u32 %r1, [nbytes];",
        "cvta.to.global.u64 %rd1, %rd1;", "cvta.to.global.u64 %rd2, %rd2;",
        "mov.u32 %r2, %tid.x;", "shl.b32 %r3, %r2, 4;", "mov.u32 %r8, smem;",
        "LOOP:", "setp.ge.u32 %p1, %r3, %r1;", "@%p1 bra DONE;",
        "cvt.u64.u32 %rd3, %r3;", "add.u64 %rd4, %rd1, %rd3;", "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd4];",
        "add.u32 %r9, %r8, %r3;", "st.shared.v4.u32 [%r9], {%r4, %r5, %r6, %r7};",
        "add.u32 %r3, %r3, 2048;", "bra LOOP;", "DONE:",
        "bar.sync 0;", "fence.proxy.async.shared::cta;",
    ]
    lines += [f"mov.f32 %f{i}, 0f00000000;" for i in range(regs)]
    lines += ["setp.eq.u32 %p2, %r1, %r1;", "wgmma.fence.sync.aligned;"]
    for s in range(case.ksteps):
        for op, base, lbo, sbo, step in (("a", 0, case.a_lbo, case.a_sbo, case.a_step),
                                         ("b", b_base, case.b_lbo, case.b_sbo, case.b_step)):
            reg = 10 if op == "a" else 11
            lines += [f"add.u32 %r{reg}, %r8, {base + s * step};", f"cvt.u64.u32 %rd{reg}, %r{reg};",
                      f"shr.u64 %rd{reg}, %rd{reg}, 4;", f"and.b64 %rd{reg}, %rd{reg}, 16383;",
                      f"or.b64 %rd{reg}, %rd{reg}, {desc_const(lbo, sbo, sw)};"]
        tb = 0 if case.b_kmajor else 1
        lines.append(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16 {{{acc}}}, %rd10, %rd11, %p2, 1, 1, 0, "
                     f"{tb};")
    lines += ["wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"]
    # store: row = 16 * warp + lane / 4 (+8), col = 8 j + 2 (lane % 4) (+1)
    lines += ["shr.u32 %r20, %r2, 5;", "and.b32 %r21, %r2, 31;", "shr.u32 %r22, %r21, 2;", "and.b32 %r23, %r21, 3;",
              "shl.b32 %r24, %r20, 4;", "add.u32 %r24, %r24, %r22;", f"mul.lo.u32 %r25, %r24, {n * 4};",
              "shl.b32 %r26, %r23, 3;", "add.u32 %r25, %r25, %r26;", "cvt.u64.u32 %rd20, %r25;",
              "add.u64 %rd21, %rd2, %rd20;"]
    for j in range(n // 8):
        lines.append(f"st.global.v2.f32 [%rd21+{j * 32}], {{%f{4 * j}, %f{4 * j + 1}}};")
        lines.append(f"st.global.v2.f32 [%rd21+{j * 32 + 8 * n * 4}], {{%f{4 * j + 2}, %f{4 * j + 3}}};")
    lines += ["ret;", "}"]
    return "\n".join(lines) + "\n"


def build(case: Case, rng: np.random.Generator) -> tuple[str, bytes, np.ndarray]:
    """The case's PTX, shared image and numpy reference."""
    k = 16 * case.ksteps
    a = rng.uniform(-1, 1, (64, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, case.n)).astype(np.float16)
    img_a = image(a, case.layout)
    img_b = image(np.ascontiguousarray(b.T) if case.b_kmajor else b, case.layout)
    b_base = (len(img_a) + 1023) // 1024 * 1024
    img = img_a + bytes(b_base - len(img_a)) + img_b
    ref = a.astype(np.float32) @ b.astype(np.float32)
    return ptx(case, b_base), img, ref


def ptxas_check(text: str) -> str:
    """ptxas -arch=sm_90a's verdict on `text` ('' when it assembles)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(text)
    r = subprocess.run(["ptxas", "-arch=sm_90a", f.name, "-o", "/dev/null"], capture_output=True, text=True)
    return "" if r.returncode == 0 else r.stderr.strip()


def _driver():  # type: ignore[no-untyped-def]
    """cuda.bindings.driver with device 0's primary context current, and the result checker."""
    from cuda.bindings import driver as d

    def ok(res: tuple, what: str):  # type: ignore[type-arg]
        if int(res[0]) != 0:
            raise RuntimeError(f"{what}: {res[0]}")
        return res[1] if len(res) > 1 else None

    ok(d.cuInit(0), "cuInit")
    dev = ok(d.cuDeviceGet(0), "cuDeviceGet")
    ok(d.cuCtxSetCurrent(ok(d.cuDevicePrimaryCtxRetain(dev), "ctx")), "setcurrent")
    return d, dev, ok


def run_case(index: int) -> int:
    """Run case `index` on device 0 (in a process of its own: a fault loses the context) and print its error."""
    d, _, ok = _driver()
    case = cases()[index]
    text, img, ref = build(case, np.random.default_rng(index))
    try:
        buf = np.frombuffer(text.encode() + b"\x00", dtype=np.uint8)
        mod = ok(d.cuModuleLoadData(buf.ctypes.data), "cuModuleLoadData")
        fn = ok(d.cuModuleGetFunction(mod, b"probe"), "getfunction")
        if len(img) > 48 * 1024:
            ok(d.cuFuncSetAttribute(fn, d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    len(img)), "setattr")
        hbuf = np.frombuffer(img, dtype=np.uint8)
        dimg = ok(d.cuMemAlloc(len(img)), "alloc")
        dout = ok(d.cuMemAlloc(ref.nbytes), "alloc")
        ok((d.cuMemcpyHtoD(dimg, hbuf.ctypes.data, len(img))[0], None), "htod")
        ok((d.cuMemsetD8(dout, 0xFF, ref.nbytes)[0], None), "memset")
        vals = [ctypes.c_uint64(int(dimg)), ctypes.c_uint64(int(dout)), ctypes.c_uint32(len(img))]
        ptrs = (ctypes.c_void_p * 3)(*[ctypes.addressof(v) for v in vals])
        ok((d.cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, len(img), 0, ctypes.addressof(ptrs), 0)[0], None), "launch")
        ok((d.cuCtxSynchronize()[0], None), "sync")
        out = np.empty_like(ref)
        ok((d.cuMemcpyDtoH(out.ctypes.data, dout, ref.nbytes)[0], None), "dtoh")
    except RuntimeError as e:
        print(f"{case.name:50s} FAILED {e}")
        return 1
    err = float(np.abs(out - ref).max()) if np.isfinite(out).all() else float("inf")
    print(f"{case.name:50s} max|err| {err:.3g} {'ok' if err < 1e-2 else 'WRONG'}")
    return 0 if err < 1e-2 else 1


def run_device() -> int:
    """Every case, each in its own process (a fault loses the CUDA context), then the sarek part in another."""
    import subprocess

    d, dev, ok = _driver()
    A = d.CUdevice_attribute
    major = ok(d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "attr")
    minor = ok(d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "attr")
    print(f"device compute capability {major}.{minor}", flush=True)
    bad = 0
    runs = [["--case", str(i)] for i in range(len(cases()))] + [["--sarek"]]
    for args in runs:
        try:
            r = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=120)
            print((r.stdout + r.stderr[-2000:]).rstrip(), flush=True)
            bad += r.returncode != 0
        except subprocess.TimeoutExpired:
            print(f"{' '.join(args)}: timed out after 120 s", flush=True)
            bad += 1
    return 1 if bad else 0


def run_sarek() -> int:
    """The same through sarek: tests/unit/test_wgmma.py's `two_groups` (2 warpgroups, 128x128x32 from
    core-layout shared arrays) on the interpreter and the `ptx` device (.target sm_90a on compute capability
    9.0), against numpy."""
    import importlib.util
    import os
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
    spec = importlib.util.spec_from_file_location("test_wgmma", root / "tests" / "unit" / "test_wgmma.py")
    assert spec is not None and spec.loader is not None
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)
    wg2 = tests.two_groups

    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (128, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 128)).astype(np.float16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    bad = 0
    for dev in ("interp", "ptx"):
        c = np.full((128, 128), np.nan, np.float32)
        try:
            wg2.launch(a, b, c, grid=1, device=dev)
            err = float(np.abs(c - ref).max()) if np.isfinite(c).all() else float("inf")
            print(f"sarek wg2 128x128x32 on {dev:6s} max|err| {err:.3g} {'ok' if err < 1e-2 else 'WRONG'}")
            bad += err >= 1e-2
        except Exception as e:  # the report is the point
            print(f"sarek wg2 on {dev} FAILED {type(e).__name__}: {e}")
            bad += 1
    return bad + run_row()


def run_row() -> int:
    """bench_gemm's `sarek wgmma` row on ptx: 256x512x320 against numpy (f16 and bf16), then 4096^3 f16 timed
    against torch.matmul (CUDA events, median of 5 batches of 10) when torch is installed."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    import gemm_pipelines as gp  # pyright: ignore[reportMissingImports]
    from sarek import bf16, f16
    from sarek.types import bf16_from_f32, bf16_to_f32

    bad = 0
    rng = np.random.default_rng(7)
    m, n, k = 256, 512, 320
    a32, b32 = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    for t in (f16, bf16):
        if t is f16:
            a, b = a32.astype(np.float16), b32.astype(np.float16)
            want = a.astype(np.float64) @ b.astype(np.float64)
        else:
            a, b = bf16_from_f32(a32), bf16_from_f32(b32)
            want = bf16_to_f32(a).astype(np.float64) @ bf16_to_f32(b).astype(np.float64)
        c = np.zeros((m, n), np.float32)
        try:
            gp.gemm_wgmma[t].launch(a, b, c, grid=(n // gp.BNW, m // gp.BM), block=gp.TW, device="ptx")
            err = float(np.abs(c - want).max() / np.abs(want).max())
            print(f"sarek wgmma row {t.name} {m}x{n}x{k} on ptx: relative error {err:.2e} {'ok' if err < 1e-4 else 'WRONG'}")
            bad += err >= 1e-4
        except Exception as e:
            print(f"sarek wgmma row {t.name} on ptx FAILED {type(e).__name__}: {e}")
            return bad + 1
    try:
        import torch
    except ImportError:
        print("torch not installed: no timing")
        return bad
    size = 4096
    x = torch.randn(size, size, device="cuda", dtype=torch.float16)
    y = torch.randn(size, size, device="cuda", dtype=torch.float16)
    out = torch.empty(size, size, device="cuda", dtype=torch.float32)

    t_ref = _timed(torch, lambda: torch.matmul(x, y))
    t_wg = _timed(torch, lambda: gp.gemm_wgmma[f16].launch(x, y, out, grid=(size // gp.BNW, size // gp.BM), block=gp.TW,
                                                  device="ptx"))
    err = float((out - x.float() @ y.float()).abs().max()) / float((x.float() @ y.float()).abs().max())
    flop = 2.0 * size ** 3
    print(f"4096^3 f16: cuBLAS {flop / t_ref / 1e12:.1f} TFLOP/s, sarek wgmma (ptx) {flop / t_wg / 1e12:.1f} TFLOP/s "
          f"= {t_ref / t_wg:.3f}x cuBLAS, relative error {err:.1e}")
    return bad


def run_profile() -> int:
    """Where `sarek wgmma`'s time goes (4096^3 f16, the row's own PTX loaded through the driver, CUDA events):
    the full kernel, then variants with its wgmma.mma_async lines removed (the copy pipeline alone) and with its
    cp.async copies removed (the MMAs alone, on whatever shared memory holds): the slower part is the limit."""
    import re
    from pathlib import Path

    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import gemm_pipelines as gp  # pyright: ignore[reportMissingImports]
    from sarek import f16

    d, _, ok = _driver()
    text = gp.gemm_wgmma[f16].source("ptx", arch="sm_90a")
    shared = int(re.search(r"sarek-dynamic-shared gemm_wgmma: (\d+) bytes", text).group(1))  # type: ignore[union-attr]
    variants = {"full": text,
                "no wgmma (copies, waits, barriers)": re.sub(r"^\s*wgmma\.mma_async.*$", "", text, flags=re.M),
                "no cp.async copies (wgmma alone)": re.sub(r"^\s*cp\.async\.c[ag]\.shared.*$", "", text, flags=re.M)}
    n = 4096
    x = torch.randn(n, n, device="cuda", dtype=torch.float16)
    y = torch.randn(n, n, device="cuda", dtype=torch.float16)
    out = torch.zeros(n, n, device="cuda", dtype=torch.float32)
    t_ref = _timed(torch, lambda: torch.matmul(x, y))
    print(f"4096^3 f16 cuBLAS {2 * n ** 3 / t_ref / 1e12:.1f} TFLOP/s")
    for name, src in variants.items():
        buf = np.frombuffer(src.encode() + b"\x00", dtype=np.uint8)
        mod = ok(d.cuModuleLoadData(buf.ctypes.data), "cuModuleLoadData")
        fn = ok(d.cuModuleGetFunction(mod, b"gemm_wgmma"), "getfunction")
        ok(d.cuFuncSetAttribute(fn, d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared),
           "setattr")
        vals = [ctypes.c_uint64(x.data_ptr()), ctypes.c_int32(n), ctypes.c_int32(n), ctypes.c_uint64(y.data_ptr()),
                ctypes.c_int32(n), ctypes.c_int32(n), ctypes.c_uint64(out.data_ptr()), ctypes.c_int32(n),
                ctypes.c_int32(n)]
        ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.addressof(v) for v in vals])

        def launch() -> None:
            ok((d.cuLaunchKernel(fn, n // gp.BNW, n // gp.BM, 1, gp.TW, 1, 1, shared, 0, ctypes.addressof(ptrs),
                                 0)[0], None), "launch")

        t = _timed(torch, launch)
        extra = ""
        if name == "full":
            ref = x.float() @ y.float()
            extra = f", relative error {float((out - ref).abs().max()) / float(ref.abs().max()):.1e}"
        print(f"sarek wgmma {name}: {t * 1e3:.3f} ms = {2 * n ** 3 / t / 1e12:.1f} TFLOP/s-equivalent, "
              f"{t_ref / t:.3f}x cuBLAS's time{extra}", flush=True)
    return 0


def _timed(torch, fn) -> float:  # type: ignore[no-untyped-def]
    """Median seconds per call of `fn` over 5 batches of 10 (CUDA events), after one warm-up call."""
    import statistics

    fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(5):
        s0, s1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s0.record()
        for _ in range(10):
            fn()
        s1.record()
        torch.cuda.synchronize()
        ts.append(s0.elapsed_time(s1) / 1e3 / 10)
    return statistics.median(ts)


def main() -> int:
    if "--ptx" in sys.argv or "--check" in sys.argv:
        rng = np.random.default_rng(0)
        for case in cases():
            text = build(case, rng)[0]
            if "--ptx" in sys.argv:
                print(f"// {case.name}\n{text}")
            else:
                print(f"{case.name:50s} ptxas sm_90a: {ptxas_check(text) or 'ok'}")
        return 0
    if "--sarek" in sys.argv:
        return run_sarek()
    if "--profile" in sys.argv:
        return run_profile()
    if "--case" in sys.argv:
        return run_case(int(sys.argv[sys.argv.index("--case") + 1]))
    return run_device()


if __name__ == "__main__":
    raise SystemExit(main())
