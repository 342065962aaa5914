"""PTX device checks and benchmark, for the GPU machine (`python3 benchmarks/bench_ptx.py [--out DIR]`).

1. accuracy: every f32 math intrinsic on the `ptx` device against a correctly rounded reference (numpy in
   float64, rounded to f32), next to the same function in CUDA C (`sinf`, ... compiled by NVRTC) on the same
   inputs: max and mean error in ulps.
2. correctness: every kernel of examples/*.mlir (and extra kernels below) on the `ptx` device against the
   interpreter (`sarek.interp`) and, when the cuda target exists, the `cuda` device.
3. speed: per kernel, median kernel time (CUDA events around back-to-back launches on resident buffers) on the
   `ptx` device and the `cuda` device (NVRTC) in the same run; ratio = cuda_time / ptx_time (>= 0.9 is the goal).

`run_all()` returns the result rows; the script prints a short table last and writes JSON when --out is given.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

UNARY_DOMAINS: dict[str, tuple[float, float]] = {
    "sin": (-100.0, 100.0), "cos": (-100.0, 100.0), "tan": (-10.0, 10.0), "asin": (-1.0, 1.0),
    "acos": (-1.0, 1.0), "atan": (-50.0, 50.0), "sinh": (-20.0, 20.0), "cosh": (-20.0, 20.0),
    "tanh": (-10.0, 10.0), "exp": (-80.0, 80.0), "exp2": (-120.0, 120.0), "log": (1e-30, 1e30),
    "log2": (1e-30, 1e30), "log10": (1e-30, 1e30), "sqrt": (0.0, 1e6), "rsqrt": (1e-6, 1e6),
    "cbrt": (-1e6, 1e6), "floor": (-1e4, 1e4), "ceil": (-1e4, 1e4), "round": (-1e4, 1e4),
    "trunc": (-1e4, 1e4), "fabs": (-1e4, 1e4), "expm1": (-10.0, 10.0), "log1p": (-0.9, 100.0),
}
BINARY_DOMAINS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "atan2": ((-10.0, 10.0), (-10.0, 10.0)), "pow": ((0.01, 10.0), (-10.0, 10.0)),
    "fmin": ((-10.0, 10.0), (-10.0, 10.0)), "fmax": ((-10.0, 10.0), (-10.0, 10.0)),
    "fmod": ((-1000.0, 1000.0), (0.1, 10.0)), "hypot": ((-1e3, 1e3), (-1e3, 1e3)),
    "copysign": ((-10.0, 10.0), (-10.0, 10.0)),
}
CUDA_NAMES = {"fabs": "fabsf", "rsqrt": "rsqrtf"}


def _ref(name: str, x: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
    xd = x.astype(np.float64)
    yd = None if y is None else y.astype(np.float64)
    f = {
        "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
        "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "exp": np.exp, "exp2": np.exp2, "log": np.log,
        "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt, "rsqrt": lambda v: 1.0 / np.sqrt(v), "cbrt": np.cbrt,
        "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "fabs": np.abs, "expm1": np.expm1,
        "log1p": np.log1p, "round": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
        "atan2": np.arctan2, "pow": np.power, "fmin": np.fmin, "fmax": np.fmax, "fmod": np.fmod,
        "hypot": np.hypot, "copysign": np.copysign,
    }[name]
    with np.errstate(all="ignore"):
        return (f(xd) if yd is None else f(xd, yd)).astype(np.float32)


def ulp_error(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of the last place of want (f32); NaN agreement counts 0, disagreement inf."""
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    with np.errstate(all="ignore"):
        spacing = np.spacing(np.abs(want)).astype(np.float64)
        spacing = np.where(spacing == 0, np.finfo(np.float32).smallest_subnormal, spacing)
        e = np.abs(g - w) / spacing
    both_nan = np.isnan(g) & np.isnan(w)
    same = (g == w)
    e = np.where(both_nan | same, 0.0, e)
    e = np.where(np.isnan(e), np.inf, e)
    return e


def _math_module(name: str, arity: int, t: str = "f32") -> str:
    ins = "".join(f'%a{i} : !sarek.vec<{t}> "a{i}", ' for i in range(arity))
    reads = "\n".join(f"      %x{i} = sarek.array_read %a{i}[%g] : !sarek.vec<{t}>" for i in range(arity))
    xs = ", ".join(f"%x{i}" for i in range(arity))
    ts = ", ".join([t] * arity)
    return f'''builtin.module {{
  sarek.kernel @m_{name}({ins}%b : !sarek.vec<{t}> "b", %n : i32 "n") {{
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {{
{reads}
      %y = sarek.intrinsic "{name}"({xs}) : ({ts}) -> {t}
      %p = sarek.elem_ref %b[%g] : !sarek.vec<{t}>
      sarek.store %p, %y : !sarek.ref<{t}>
    }}
  }}
}}'''


def _cuda_math_source(name: str, arity: int) -> str:
    fn = CUDA_NAMES.get(name, name + "f")
    params = "".join(f"const float* a{i}, int la{i}, " for i in range(arity))
    call = ", ".join(f"a{i}[i]" for i in range(arity))
    return (f'extern "C" __global__ void m_{name}({params}float* b, int lb, int n) {{\n'
            f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) b[i] = {fn}({call});\n}}\n")


# ------------------------------------------------------------------------------------------------ plumbing


def _ptx_device() -> Any:
    from sarek.runtime.ptx import ptx_devices

    return ptx_devices()[0]


def _cuda_function(dev: Any, source: str, name: str) -> Any:
    """Load CUDA C compiled by NVRTC on the ptx device's context (for the accuracy baseline)."""
    from sarek.runtime.cuda import _driver, check, nvrtc_compile

    img = nvrtc_compile(source, dev.arch, f"{name}.cu")
    dev.activate()
    buf = np.frombuffer(img + b"\x00", dtype=np.uint8)
    mod = check(_driver().cuModuleLoadData(buf.ctypes.data), "cuModuleLoadData")
    fn = check(_driver().cuModuleGetFunction(mod, name.encode()), "cuModuleGetFunction")
    return fn, mod, buf


def _launch_raw(dev: Any, fn: Any, storage: list[np.ndarray], grid: tuple[int, int, int],
                block: tuple[int, int, int], sync: bool = True) -> None:
    from sarek.runtime.cuda import _driver, check

    d = _driver()
    ptrs = np.array([s.ctypes.data for s in storage], dtype=np.uint64)
    check(d.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0, 0, ptrs.ctypes.data, 0),
          "cuLaunchKernel")
    if sync:
        check(d.cuCtxSynchronize(), "cuCtxSynchronize")


def _vec_args(dev: Any, arrays: list[np.ndarray]) -> tuple[list[Any], list[np.ndarray]]:
    bufs = []
    storage: list[np.ndarray] = []
    for a in arrays:
        b = dev._alloc(max(a.nbytes, 1))
        dev._upload(b, a)
        bufs.append(b)
        storage += [np.array([int(b)], dtype=np.uint64), np.array([a.size], dtype=np.int32)]
    return bufs, storage


# ------------------------------------------------------------------------------------------------ 1. accuracy


def accuracy(n: int = 1 << 20, seed: int = 1) -> list[dict[str, Any]]:
    from sarek.runtime.core import kernel_spec
    from sarek.tools.ir import parse_module

    dev = _ptx_device()
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    cases: list[tuple[str, list[np.ndarray]]] = []
    for name, (lo, hi) in UNARY_DOMAINS.items():
        if lo > 0 and hi / lo > 1e6:
            x = np.exp(rng.uniform(math.log(lo), math.log(hi), n)).astype(np.float32)
        else:
            x = rng.uniform(lo, hi, n).astype(np.float32)
        x[:8] = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1e-7, -1e-7, 2.0], dtype=np.float32)
        cases.append((name, [x]))
    for name, ((lx, hx), (ly, hy)) in BINARY_DOMAINS.items():
        cases.append((name, [rng.uniform(lx, hx, n).astype(np.float32), rng.uniform(ly, hy, n).astype(np.float32)]))
    for name, ins in cases:
        row: dict[str, Any] = {"fn": name, "n": n}
        try:
            want = _ref(name, *ins)
            module = parse_module(_math_module(name, len(ins)))
            out = np.zeros(n, dtype=np.float32)
            dev.launch(module, f"m_{name}", [*ins, out, n], grid=((n + 255) // 256,), block=(256,))
            e = ulp_error(out, want)
            row.update(ptx_max_ulp=float(e.max()), ptx_mean_ulp=float(e.mean()),
                       ptx_worst_input=[float(v[int(e.argmax())]) for v in ins])
            try:
                fn = _cuda_function(dev, _cuda_math_source(name, len(ins)), f"m_{name}")[0]
                bufs, storage = _vec_args(dev, [*ins, np.zeros(n, dtype=np.float32)])
                storage.append(np.array([n], dtype=np.int32))
                _launch_raw(dev, fn, storage, ((n + 255) // 256, 1, 1), (256, 1, 1))
                got = np.zeros(n, dtype=np.float32)
                dev._download(bufs[-1], got)
                for b in bufs:
                    dev._free(b)
                ec = ulp_error(got, want)
                row.update(cuda_max_ulp=float(ec.max()), cuda_mean_ulp=float(ec.mean()))
            except Exception as ex:  # the baseline is informative only
                row["cuda_error"] = f"{type(ex).__name__}: {ex}"[:300]
        except Exception as ex:
            row["error"] = f"{type(ex).__name__}: {ex}"[:2000]
        rows.append(row)
        print(f"[bench_ptx] accuracy {name}", flush=True)
    return rows


# ------------------------------------------------------------------------------------------------ 2./3. corpus


EXTRA_KERNELS = {
    "mandel_iter": '''builtin.module {
  sarek.kernel @mandel_iter(%cx : !sarek.vec<f32> "cx", %out : !sarek.vec<i32> "out", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %c = sarek.array_read %cx[%g] : !sarek.vec<f32>
      %z0 = sarek.constant 0.0 : f32
      %zr = sarek.let_mut "zr" %z0 : f32
      %zi = sarek.let_mut "zi" %z0 : f32
      %i0 = sarek.constant 0 : i32
      %it = sarek.let_mut "it" %i0 : i32
      %ci = sarek.constant 0.25 : f32
      sarek.while {
        %a = sarek.load %zr : !sarek.ref<f32>
        %b = sarek.load %zi : !sarek.ref<f32>
        %aa = sarek.binop mul %a, %a : f32
        %bb = sarek.binop mul %b, %b : f32
        %m = sarek.binop add %aa, %bb : f32
        %four = sarek.constant 4.0 : f32
        %inside = sarek.binop lt %m, %four : f32
        %k = sarek.load %it : !sarek.ref<i32>
        %lim = sarek.constant 256 : i32
        %more = sarek.binop lt %k, %lim : i32
        %both = sarek.binop and %inside, %more : i1
        sarek.yield %both : i1
      } do {
        %a = sarek.load %zr : !sarek.ref<f32>
        %b = sarek.load %zi : !sarek.ref<f32>
        %aa = sarek.binop mul %a, %a : f32
        %bb = sarek.binop mul %b, %b : f32
        %d = sarek.binop sub %aa, %bb : f32
        %nr = sarek.binop add %d, %c : f32
        %ab = sarek.binop mul %a, %b : f32
        %two = sarek.constant 2.0 : f32
        %ab2 = sarek.binop mul %ab, %two : f32
        %ni = sarek.binop add %ab2, %ci : f32
        sarek.store %zr, %nr : !sarek.ref<f32>
        sarek.store %zi, %ni : !sarek.ref<f32>
        %k = sarek.load %it : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %k1 = sarek.binop add %k, %one : i32
        sarek.store %it, %k1 : !sarek.ref<i32>
      }
      %r = sarek.load %it : !sarek.ref<i32>
      %p = sarek.elem_ref %out[%g] : !sarek.vec<i32>
      sarek.store %p, %r : !sarek.ref<i32>
    }
  }
}''',
    "math_mix": '''builtin.module {
  sarek.kernel @math_mix(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%g] : !sarek.vec<f32>
      %y = sarek.array_read %b[%g] : !sarek.vec<f32>
      %xx = sarek.binop mul %x, %x : f32
      %yy = sarek.binop mul %y, %y : f32
      %s = sarek.binop add %xx, %yy : f32
      %r = sarek.intrinsic "sqrt"(%s) : (f32) -> f32
      %xy = sarek.binop add %x, %y : f32
      %k = sarek.constant -0.1 : f32
      %e = sarek.binop mul %k, %xy : f32
      %ex = sarek.intrinsic "exp"(%e) : (f32) -> f32
      %p = sarek.binop mul %x, %y : f32
      %co = sarek.intrinsic "cos"(%p) : (f32) -> f32
      %t = sarek.binop mul %r, %ex : f32
      %v = sarek.binop mul %t, %co : f32
      %o = sarek.elem_ref %c[%g] : !sarek.vec<f32>
      sarek.store %o, %v : !sarek.ref<f32>
    }
  }
}''',
}


def corpus() -> list[tuple[str, str]]:
    """(label, module text) of every examples/*.mlir file and the extra kernels above."""
    out = [(p.stem, p.read_text()) for p in sorted((ROOT / "examples").glob("*.mlir"))]
    out += list(EXTRA_KERNELS.items())
    out += [(p.stem, p.read_text()) for p in sorted((ROOT / "tests" / "unit" / "ptx_kernels").glob("*.mlir"))]
    return out


def make_args(module: Any, kernel: str, n: int, rng: np.random.Generator) -> tuple[list[Any], int]:
    """Arguments from the signature: vectors of n random elements (variants get valid tags), `n`-like i32
    scalars = n, other scalars small."""
    from sarek.dialect.sarek import VariantType
    from sarek.runtime.core import kernel_spec

    spec = kernel_spec(module, kernel)
    args: list[Any] = []
    for p in spec.params:
        if p.kind == "vec":
            dt = p.dtype
            a = np.zeros(n, dtype=dt)
            if dt.fields is None:
                if dt.kind == "f":
                    a[:] = rng.uniform(-2, 2, n)
                elif dt.kind in "iu":
                    a[:] = rng.integers(0, 100, n)
            else:
                raw = rng.uniform(-2, 2, (n, dt.itemsize // 4)).astype(np.float32)
                a = raw.view(np.uint8).reshape(n, -1)[:, :dt.itemsize].copy().view(dt).reshape(n)
                if isinstance(p.type.element_type, VariantType):
                    from sarek.analysis.layout import layout_of

                    lay = layout_of(module, p.type.element_type)
                    a["tag"] = rng.integers(0, len(lay.ctors), n)
                    # make every payload a finite float pattern
            args.append(a)
        elif p.kind == "record":
            r = np.zeros(1, dtype=p.dtype)
            for f in p.dtype.names or ():
                if p.dtype[f].fields is None:
                    r[f] = 3 if p.dtype[f].kind in "iu" else 0.25
            args.append(r)
        elif p.dtype.kind in "iu":
            args.append(n if p.name in ("n", "len", "size", "count") else 3)
        elif p.dtype.kind == "f":
            args.append(p.dtype.type(1.5))
        else:
            args.append(True)
    return args, n


def _run_on(dev: Any, module: Any, kernel: str, args: list[Any], n: int) -> list[Any]:
    outs = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    dev.launch(module, kernel, outs, grid=((n + 255) // 256,), block=(256,))
    return outs


def _close(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-element agreement; structured arrays field by field (a variant: its tag only)."""
    if x.dtype.fields is None:
        if x.dtype.kind == "f":
            return np.isclose(x, y, rtol=1e-5, atol=1e-5, equal_nan=True)
        return x == y
    if "tag" in x.dtype.names:
        return x["tag"] == y["tag"]
    ok = np.ones(len(x), dtype=bool)
    for f in x.dtype.names:
        c = _close(x[f], y[f])
        ok &= c.reshape(len(x), -1).all(axis=1)
    return ok


def _compare(a: list[Any], b: list[Any]) -> str | None:
    for i, (x, y) in enumerate(zip(a, b)):
        if not isinstance(x, np.ndarray):
            continue
        ok = _close(x, np.asarray(y))
        if not ok.all():
            k = int(np.argmax(~ok))
            return f"arg {i} differs at [{k}] ({int((~ok).sum())} elements): {x[k]!r} vs {np.asarray(y)[k]!r}"
    return None


def correctness(n_small: int = 1024, seed: int = 2) -> list[dict[str, Any]]:
    from sarek.runtime import get_device
    from sarek.runtime.core import kernel_names
    from sarek.tools.ir import parse_module

    dev = _ptx_device()
    try:
        cuda = get_device("cuda:0")
    except Exception:
        cuda = None
    try:
        interp = get_device("interp")
    except Exception:
        interp = None
    rows = []
    rng = np.random.default_rng(seed)
    for label, text in corpus():
        module = parse_module(text, label)
        for k in kernel_names(module):
            row: dict[str, Any] = {"kernel": f"{label}:{k}"}
            try:
                args, n = make_args(module, k, n_small, rng)
                got = _run_on(dev, module, k, args, n)
                row["ptx"] = "ran"
                for ref_name, ref in (("interp", interp), ("cuda", cuda)):
                    if ref is None:
                        row[f"vs_{ref_name}"] = "no device"
                        continue
                    try:
                        want = _run_on(ref, module, k, args, n)
                        diff = _compare(got, want)
                        row[f"vs_{ref_name}"] = "agree" if diff is None else f"DIFFER: {diff}"
                    except Exception as ex:
                        row[f"vs_{ref_name}"] = f"{ref_name} failed: {type(ex).__name__}: {str(ex)[:200]}"
            except Exception as ex:
                row["ptx"] = f"FAILED: {type(ex).__name__}: {str(ex)[:1500]}"
            rows.append(row)
            print(f"[bench_ptx] correctness {row}", flush=True)
    return rows


def _time_fn(dev: Any, fn: Any, storage: list[np.ndarray], grid: tuple[int, int, int], block: tuple[int, int, int],
             reps: int) -> float:
    """Median per-launch milliseconds over `reps` batches of 10 launches, timed with CUDA events."""
    from sarek.runtime.cuda import _driver, check

    d = _driver()
    _launch_raw(dev, fn, storage, grid, block)
    start = check(d.cuEventCreate(0), "cuEventCreate")
    stop = check(d.cuEventCreate(0), "cuEventCreate")
    times = []
    for _ in range(reps):
        check(d.cuEventRecord(start, 0), "cuEventRecord")
        for _ in range(10):
            _launch_raw(dev, fn, storage, grid, block, sync=False)
        check(d.cuEventRecord(stop, 0), "cuEventRecord")
        check(d.cuEventSynchronize(stop), "cuEventSynchronize")
        times.append(float(check(d.cuEventElapsedTime(start, stop), "cuEventElapsedTime")) / 10)
    return float(np.median(times))


def speed(n: int = 1 << 24, reps: int = 20, seed: int = 3) -> list[dict[str, Any]]:
    """ptx device vs cuda device (NVRTC) per kernel, same inputs, same launch shape, one run."""
    from sarek.runtime import get_device
    from sarek.runtime.core import kernel_names, kernel_spec
    from sarek.tools.ir import parse_module

    dev = _ptx_device()
    try:
        cuda = get_device("cuda:0")
    except Exception as ex:
        cuda = None
        cuda_err = f"{type(ex).__name__}: {ex}"
    rng = np.random.default_rng(seed)
    rows = []
    for label, text in corpus():
        module = parse_module(text, label)
        for k in kernel_names(module):
            row: dict[str, Any] = {"kernel": f"{label}:{k}", "n": n}
            try:
                args, _ = make_args(module, k, n, rng)
                spec = kernel_spec(module, k)
                grid, block = ((n + 255) // 256, 1, 1), (256, 1, 1)
                timings = {}
                for name, d in (("ptx", dev), ("ptx_fmad", dev), ("cuda", cuda)):
                    if d is None:
                        row["cuda"] = f"unavailable: {cuda_err}"[:300]
                        continue
                    try:
                        if name == "ptx_fmad":
                            from sarek.lowering.ptx import entry_name
                            from sarek.runtime.cuda import _driver, check
                            from sarek.targets.ptx.target import emit_ptx

                            mod = d.load(emit_ptx(module, fmad=True))
                            fn = check(_driver().cuModuleGetFunction(mod, entry_name(k).encode()), "get function")
                        else:
                            fn = d._function(spec)[0]
                        bufs: list[Any] = []
                        bound: list[Any] = []
                        for p, a in zip(spec.params, args):
                            if p.kind == "vec":
                                b = d._alloc(max(a.nbytes, 1))
                                d._upload(b, a)
                                bufs.append(b)
                                bound.append((b, a.size))
                            else:
                                bound.append(np.array([a], dtype=p.dtype)[0] if p.kind == "scalar" else a)
                        storage = PtxPack.pack(spec, bound)
                        timings[name] = _time_fn(d, fn, storage, grid, block, reps)
                        for b in bufs:
                            d._free(b)
                    except Exception as ex:
                        row[name] = f"failed: {type(ex).__name__}: {str(ex)[:300]}"
                for name, t in timings.items():
                    row[f"{name}_ms"] = t
                if "ptx" in timings and "cuda" in timings:
                    row["speed_ratio"] = timings["cuda"] / timings["ptx"]
                if "ptx_fmad" in timings and "cuda" in timings:
                    row["speed_ratio_fmad"] = timings["cuda"] / timings["ptx_fmad"]
            except Exception as ex:
                row["error"] = f"{type(ex).__name__}: {str(ex)[:500]}"
            rows.append(row)
            print(f"[bench_ptx] speed {row}", flush=True)
    return rows


class PtxPack:
    @staticmethod
    def pack(spec: Any, bound: list[Any]) -> list[np.ndarray]:
        from sarek.runtime.ptx import PtxDevice

        return PtxDevice.pack_args(spec, bound)


def run_all(out: str | None = None, quick: bool = False, only: str = "") -> dict[str, Any]:
    import faulthandler

    faulthandler.dump_traceback_later(float(os.environ.get("BENCH_PTX_WATCHDOG", "400")), exit=True)
    res: dict[str, Any] = {}
    for name, fn, kw in (("accuracy", accuracy, {"n": 1 << 16} if quick else {}),
                         ("correctness", correctness, {}),
                         ("speed", speed, {"n": 1 << 20, "reps": 5} if quick else {})):
        if only and name not in only.split(","):
            continue
        t0 = time.time()
        try:
            res[name] = fn(**kw)
        except Exception:
            res[name] = [{"error": traceback.format_exc()[-3000:]}]
        res[f"{name}_seconds"] = time.time() - t0
        print(f"[bench_ptx] {name} done in {time.time() - t0:.1f}s", flush=True)
    if out:
        os.makedirs(out, exist_ok=True)
        fname = f"bench_ptx{'_' + only.replace(',', '_') if only else ''}.json"
        with open(os.path.join(out, fname), "w") as f:
            json.dump(res, f, indent=1, default=str)
    return res


def print_tables(res: dict[str, Any]) -> None:
    print("\n== accuracy (ulp vs correctly rounded; cuda = CUDA C libm through NVRTC)")
    for r in res.get("accuracy", []):
        if "error" in r:
            print(f"  {r.get('fn', '?'):9} ERROR {r['error'][:400]}")
        else:
            print(f"  {r['fn']:9} ptx max {r['ptx_max_ulp']:8.3f} mean {r['ptx_mean_ulp']:.4f}   "
                  f"cuda max {r.get('cuda_max_ulp', float('nan')):8.3f} mean {r.get('cuda_mean_ulp', float('nan')):.4f}"
                  f"   worst@{r['ptx_worst_input']}")
    print("\n== correctness (ptx vs interp / cuda)")
    for r in res.get("correctness", []):
        print(f"  {r.get('kernel', '?'):32} ptx {r.get('ptx', r.get('error', ''))[:300]}  interp {r.get('vs_interp', '')[:200]}"
              f"  cuda {r.get('vs_cuda', '')[:200]}")
    print("\n== speed (median kernel ms; ratio = cuda/ptx, >= 0.9 is the goal)")
    for r in res.get("speed", []):
        if "speed_ratio" in r:
            print(f"  {r['kernel']:32} ptx {r['ptx_ms']:.4f}  cuda {r['cuda_ms']:.4f}  ratio {r['speed_ratio']:.3f}"
                  f"   ptx{{fmad=true}} {r.get('ptx_fmad_ms', float('nan')):.4f} ratio "
                  f"{r.get('speed_ratio_fmad', float('nan')):.3f}")
        else:
            print(f"  {r.get('kernel', '?'):32} ptx {r.get('ptx_ms', r.get('ptx', ''))}  "
                  f"cuda {r.get('cuda_ms', r.get('cuda', ''))} {r.get('error', '')[:300]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.environ.get("OUT"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated phases: accuracy,correctness,speed")
    a = ap.parse_args()
    res = run_all(a.out, a.quick, a.only)
    print_tables(res)


if __name__ == "__main__":
    main()
