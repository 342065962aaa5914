"""Library kernels against the library a user would call instead (`python3 benchmarks/bench_library.py [--out DIR]
[--quick] [--sizes 24,26] [--devices cuda,ptx,opencl,vulkan,vulkan-glsl] [--only JOB,...]`): examples/library.py's
sum, row argmax, row softmax, row layer norm, 5-point stencil and histogram against torch (cuBLAS/cuDNN-class
kernels: torch.sum, torch.max(dim=1), torch.softmax, torch.nn.functional.layer_norm, a slicing expression for the
stencil, torch.bincount) in the same run; the `*4` rows are the same jobs with 128-bit loads (`Vec[f32x4]`),
`layer_norm_bf16` bf16 rows in and out (torch: layer_norm of the bf16 tensor, bf16 weights), `sgemm`,
`sgemm_kt` and `sgemm_kt4` examples/sgemm.py's register-blocked f32 GEMMs against torch.matmul (cuBLAS, TF32
off: torch's default for f32 matmul). Two sizes (`--sizes`, log2 of the element count; default 2^24 and 2^26):
rows of 4096 columns (4096 and 16384 rows), a square stencil grid, SGEMM 2048^3 and 4096^3.

Method: device-resident data (torch tensors passed zero-copy on cuda and ptx; sarek.Vectors uploaded once on
OpenCL and Vulkan); one warm-up launch checked against numpy (float64, computed once per job). Host-timed
(`wall`): batches of back-to-back launches and one synchronize, timed with `time.perf_counter`, per launch, a
batch sized to about 10 ms (at least 10 launches), the median of 7 batches; this includes the host's cost of a
launch, which exceeds the GPU time of a 2^24-element job. GPU-timed (cuda, ptx, torch and the copy): the same
batches queued behind `torch.cuda._sleep` and timed with CUDA events, so the GPU never waits for the host (a
batch where it did is repeated with a longer sleep). ratio = torch time / sarek time (> 1: sarek faster): GPU
time on cuda and ptx, host-timed on OpenCL and Vulkan (against torch host-timed). The device copy of the same
bytes (torch's clone of the job's input: read + write) is the bandwidth reference: `frac` = the job's
compulsory traffic per second / the copy's (SGEMM: TFLOP/s instead). Results: a table per size on stdout and
DIR/bench_library.json. `--quick` (no GPU: CPU devices, small sizes) only checks that every row runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import library as L  # noqa: E402  # pyright: ignore[reportMissingImports]
import sgemm as G  # noqa: E402  # pyright: ignore[reportMissingImports]

import sarek  # noqa: E402

BATCH_S = 0.01  # seconds per timed batch
BATCHES = 7
COLS = 4096  # the row jobs' row length


def _time(fn: Any, sync: Any, batch_s: float = BATCH_S) -> float:
    """Seconds per launch: warm up, size a batch to `batch_s` from three launches (10 to 5000 launches), then
    the median over BATCHES batches of back-to-back launches closed by one synchronize (`batch_s` 0: one launch
    a batch, for the CPU check)."""
    fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(3):
        fn()
    sync()
    est = (time.perf_counter() - t0) / 3
    reps = 1 if batch_s <= 0 else max(10, min(5000, int(batch_s / max(est, 1e-7))))
    batches = []
    for _ in range(BATCHES):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        batches.append((time.perf_counter() - t0) / reps)
    return statistics.median(batches)


_SLEEP_HZ: list[float] = []


def _time_gpu(fn: Any, T: Any, batch_s: float = BATCH_S) -> float | None:
    """Seconds of GPU time per launch on the default stream (cuda, ptx, torch), without the host's launch cost:
    `torch.cuda._sleep` holds the GPU while a batch is queued behind it, CUDA events time the batch; a batch
    counts only when its first event was still pending once the whole batch was queued (the GPU never waited
    for the host). The median of BATCHES batches; None when the host could not keep ahead."""
    if not _SLEEP_HZ:  # the spin's cycles per second, measured once
        a, b = T.cuda.Event(enable_timing=True), T.cuda.Event(enable_timing=True)
        a.record()
        T.cuda._sleep(20_000_000)
        b.record()
        b.synchronize()
        _SLEEP_HZ.append(20_000_000 / (a.elapsed_time(b) / 1e3))
    fn()
    T.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(3):
        fn()
    host = (time.perf_counter() - t0) / 3
    T.cuda.synchronize()
    e0, e1 = T.cuda.Event(enable_timing=True), T.cuda.Event(enable_timing=True)
    e0.record()
    fn()
    e1.record()
    e1.synchronize()
    est = e0.elapsed_time(e1) / 1e3
    reps = max(10, min(500, int(batch_s / max(est, 1e-7)), int(0.02 / max(host, 1e-7))))  # within the launch queue
    batches: list[float] = []
    for _ in range(BATCHES):
        for tries in range(3):
            T.cuda._sleep(int(_SLEEP_HZ[0] * (2 * reps * host + 1e-3) * 2 ** tries))
            e0.record()
            for _ in range(reps):
                fn()
            e1.record()
            ahead = not e0.query()
            e1.synchronize()
            if ahead:
                batches.append(e0.elapsed_time(e1) / 1e3 / reps)
                break
        else:
            return None
    return statistics.median(batches)


_BF16_W: dict[int, Any] = {}


def _torch_ln_bf16(t: Any, T: Any, rows: int, cols: int) -> Any:
    """torch's bf16 layer norm of the bf16 rows (bf16 weights, converted once)."""
    if id(t[1]) not in _BF16_W:
        _BF16_W.clear()
        _BF16_W[id(t[1])] = (t[1].reshape(-1).bfloat16(), t[2].reshape(-1).bfloat16())
    g, b = _BF16_W[id(t[1])]
    return T.nn.functional.layer_norm(t[0].view(T.bfloat16).view(rows, cols), (cols,), g, b, 1e-5)


def jobs(n: int, rows: int, sq: int) -> list[dict[str, Any]]:
    """(name, kernel, host args, grid, block, output indices, numpy-or-torch reference maker; `decode`: the
    output's host array to the values the reference gives; `bytes`: the compulsory global traffic, or `flops`)."""
    rng = np.random.default_rng(0)
    cols = n // rows
    x = (rng.random(n, dtype=np.float32) * 2 - 1).astype(np.float32)
    x4 = x.reshape(-1, 4)
    xb = L.bf16_round(x * 3.0 + 0.5)
    ma = rng.standard_normal((sq, sq)).astype(np.float32)
    mb = rng.standard_normal((sq, sq)).astype(np.float32)
    mc: list[np.ndarray] = []

    def gemm_ref() -> list[np.ndarray]:
        if not mc:
            mc.append(ma.astype(np.float64) @ mb.astype(np.float64))
        return mc
    g = rng.random(cols, dtype=np.float32)
    b = rng.random(cols, dtype=np.float32)
    side = int(np.sqrt(n))
    u = x[: side * side].copy()
    d = rng.integers(0, 1 << 20, n).astype(np.int32)
    out = [
        dict(name="sum", k=L.grid_sum, args=[x, np.zeros(1, np.float32), n], grid=1024, block=L.B, outs=[1],
             torch=lambda t, T: T.sum(t[0], dtype=T.float32).reshape(1),
             ref=lambda: [np.array([x.astype(np.float64).sum()])], tol=1e-3 * np.sqrt(n)),
        dict(name="row_argmax", k=L.row_argmax, args=[x, np.zeros(rows, np.float32), np.zeros(rows, np.int32), cols],
             grid=rows, block=L.B, outs=[1, 2], torch=lambda t, T: T.max(t[0].view(rows, cols), dim=1),
             ref=lambda: [x.reshape(rows, cols).max(1), x.reshape(rows, cols).argmax(1)], tol=0.0),
        dict(name="softmax", k=L.softmax_rows, args=[x, np.zeros(n, np.float32), cols], grid=rows, block=L.B, outs=[1],
             torch=lambda t, T: T.softmax(t[0].view(rows, cols), dim=1),
             ref=lambda: [L.softmax_ref(x, rows)],
             tol=1e-6),
        dict(name="layer_norm", k=L.layer_norm_rows,
             args=[x, g, b, np.zeros(n, np.float32), cols, np.float32(1e-5)], grid=rows, block=L.B, outs=[3],
             torch=lambda t, T: T.nn.functional.layer_norm(t[0].view(rows, cols), (cols,), t[1], t[2], 1e-5),
             ref=lambda: [L.layer_norm_ref(x, g, b, rows, 1e-5)], tol=1e-4),
        dict(name="sum4", k=L.grid_sum4, args=[x4, x, np.zeros(1, np.float32), n], grid=1024, block=L.B, outs=[2],
             torch=lambda t, T: T.sum(t[1], dtype=T.float32).reshape(1),
             ref=lambda: [np.array([x.astype(np.float64).sum()])], tol=1e-3 * np.sqrt(n)),
        dict(name="row_argmax4", k=L.row_argmax4, args=[x4, np.zeros(rows, np.float32), np.zeros(rows, np.int32), cols],
             grid=rows, block=L.B, outs=[1, 2], torch=lambda t, T: T.max(t[0].view(rows, cols), dim=1),
             ref=lambda: [x.reshape(rows, cols).max(1), x.reshape(rows, cols).argmax(1)], tol=0.0),
        dict(name="softmax4", k=L.softmax_rows4, args=[x4, np.zeros_like(x4), cols], grid=rows, block=L.B, outs=[1],
             torch=lambda t, T: T.softmax(t[0].view(rows, cols), dim=1),
             ref=lambda: [L.softmax_ref(x, rows)], tol=1e-6),
        dict(name="layer_norm4", k=L.layer_norm_rows4,
             args=[x4, g.reshape(-1, 4), b.reshape(-1, 4), np.zeros_like(x4), cols, np.float32(1e-5)], grid=rows,
             block=L.B, outs=[3],
             torch=lambda t, T: T.nn.functional.layer_norm(t[0].view(rows, cols), (cols,), t[1].view(-1), t[2].view(-1),
                                                           1e-5),
             ref=lambda: [L.layer_norm_ref(x, g, b, rows, 1e-5)], tol=1e-4),
        dict(name="layer_norm_bf16", k=L.layer_norm_bf16,
             args=[xb.view(np.int32).reshape(-1, 4), g.reshape(-1, 4), b.reshape(-1, 4),
                   np.zeros((n // 8, 4), np.int32), cols, np.float32(1e-5)], grid=rows, block=L.B, outs=[3],
             torch=lambda t, T: _torch_ln_bf16(t, T, rows, cols), decode=L.bf16_values,
             ref=lambda: [L.layer_norm_ref(L.bf16_values(xb), g, b, rows, 1e-5)], tol=3e-2),
        dict(name="sgemm", k=G.sgemm_8x8, args=[ma.reshape(-1, 4), mb.reshape(-1, 4), np.zeros((sq * sq // 4, 4), np.float32),
                                                sq, sq, sq], grid=G.sgemm_grid(sq, sq), block=G.THREADS, outs=[2],
             torch=lambda t, T: T.matmul(t[0].view(sq, sq), t[1].view(sq, sq)), ref=gemm_ref, tol=1e-3 * np.sqrt(sq)),
        dict(name="sgemm_kt", k=G.sgemm_kt,
             args=[ma.reshape(-1), mb.reshape(-1, 4), np.zeros((sq * sq // 4, 4), np.float32), sq, sq, sq],
             grid=G.sgemm_grid(sq, sq), block=G.THREADS, outs=[2],
             torch=lambda t, T: T.matmul(t[0].view(sq, sq), t[1].view(sq, sq)), ref=gemm_ref, tol=1e-3 * np.sqrt(sq)),
        dict(name="sgemm_kt4", k=G.sgemm_kt4,
             args=[ma.reshape(-1), mb.reshape(-1, 4), np.zeros((sq * sq // 4, 4), np.float32), sq, sq, sq],
             grid=G.sgemm_grid(sq, sq), block=G.THREADS, outs=[2],
             torch=lambda t, T: T.matmul(t[0].view(sq, sq), t[1].view(sq, sq)), ref=gemm_ref, tol=1e-3 * np.sqrt(sq)),
        dict(name="stencil5", k=L.stencil5, args=[u, np.zeros_like(u), side, side],
             grid=((side + 31) // 32, (side + 7) // 8), block=(32, 8), outs=[1],
             torch=lambda t, T: _torch_stencil(t[0].view(side, side), T),
             ref=lambda: [L._stencil_ref((u, None, side, side))[1]], tol=1e-6),
        dict(name="histogram", k=L.histogram256, args=[d, np.zeros(L.NBINS, np.int32), n], grid=1024, block=L.B,
             outs=[1], torch=lambda t, T: T.bincount(T.bitwise_and(t[0], 255), minlength=L.NBINS),
             ref=lambda: [np.bincount(d & 255, minlength=L.NBINS)], tol=0.0),
    ]
    traffic = {"sum": 4 * n, "row_argmax": 4 * n, "softmax": 8 * n, "layer_norm": 8 * n, "sum4": 4 * n,
               "row_argmax4": 4 * n, "softmax4": 8 * n, "layer_norm4": 8 * n, "layer_norm_bf16": 4 * n,
               "stencil5": 8 * side * side, "histogram": 4 * n}
    for j in out:
        if j["name"].startswith("sgemm"):
            j["flops"] = 2 * sq ** 3
        else:
            j["bytes"] = traffic[j["name"]]
        j["ref"] = _once(j["ref"])
    return out


def _gpu_or_wall(fn: Any, T: Any, wall: float, batch_s: float) -> float:
    """The GPU time per launch (`_time_gpu`), or `wall` when it cannot be measured."""
    try:
        g = _time_gpu(fn, T, batch_s)
    except Exception:  # noqa: BLE001 - no torch.cuda._sleep or events here: the wall time stands
        g = None
    return wall if g is None else g


def _once(make: Any) -> Any:
    """A reference maker that computes once (the float64 references of 2^26+ elements take seconds)."""
    memo: list[Any] = []

    def ref() -> Any:
        if not memo:
            memo.append(make())
        return memo[0]
    return ref


def _host(a: Any) -> np.ndarray:
    if isinstance(a, sarek.Vector):
        h = a.to_numpy()
        fields: Any = h.dtype.fields
        return h if fields is None else h.view(next(iter(fields.values()))[0]).reshape(-1)
    if hasattr(a, "cpu"):
        return a.cpu().numpy()
    return np.asarray(a)


def _check(j: dict[str, Any], args: list[Any]) -> str:
    """The first launch's outputs against numpy (float64): 'ok' or the largest error."""
    worst = 0.0
    decode = j.get("decode", lambda a: a)
    for k, want in zip(j["outs"], j["ref"]()):
        got = np.asarray(decode(_host(args[k]))).astype(np.float64).reshape(-1)
        worst = max(worst, float(np.max(np.abs(got - np.asarray(want, np.float64).reshape(-1)))))
    return "ok" if worst <= j["tol"] else f"WRONG (max error {worst:.3g} > {j['tol']:.3g})"


def _torch_stencil(u: Any, T: Any) -> Any:
    v = u.clone()
    v[1:-1, 1:-1] = 0.2 * (u[1:-1, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1])
    return v


def _vector(a: np.ndarray) -> Any:
    """A sarek.Vector of a host array: an (m, 4) float32/int32 array as m f32x4/i32x4 elements."""
    if a.ndim == 2:
        lanes = {np.dtype(np.float32): sarek.f32x4, np.dtype(np.int32): sarek.i32x4}[a.dtype]
        return sarek.Vector(np.ascontiguousarray(a).view(lanes.dtype)[:, 0])
    return sarek.Vector(a.copy())


def run(devices: list[str], n: int, rows: int, sq: int, only: list[str] | None = None,
        batch_s: float = BATCH_S) -> list[dict[str, Any]]:
    """Every job (or those in `only`) at n elements (`rows` rows, SGEMM sq^3) on each device, against torch and
    the device copy when torch has a GPU; one JSON line per job on stdout as it finishes."""
    try:
        import torch as T
        have_torch = T.cuda.is_available()
        T.backends.cuda.matmul.allow_tf32 = False  # the sgemm row compares with cuBLAS's f32 SGEMM, not TF32
    except ImportError:
        T, have_torch = None, False
    out: list[dict[str, Any]] = []
    copy_bw = None
    if have_torch:
        assert T is not None
        src = T.empty(n, dtype=T.float32, device="cuda")
        copy_s = _gpu_or_wall(lambda: src.clone(), T, _time(lambda: src.clone(), T.cuda.synchronize, batch_s), batch_s)
        copy_bw = 2 * 4 * n / copy_s
        out.append({"job": "device copy", "n": n, "torch_ms": 1e3 * copy_s, "torch_frac": 1.0})
        print(json.dumps(out[-1]), flush=True)
        del src
    for j in jobs(n, rows, sq):
        if only and j["name"] not in only:
            continue
        row: dict[str, Any] = {"job": j["name"], "n": n if "bytes" in j else sq}

        def rate(s: float) -> dict[str, float]:
            if "flops" in j:
                return {"tflops": j["flops"] / s / 1e12}
            return {"frac": j["bytes"] / s / copy_bw} if copy_bw else {}
        if have_torch:
            assert T is not None
            tt = [T.from_numpy(a).cuda() if isinstance(a, np.ndarray) else a for a in j["args"]]
            fn_t = lambda: j["torch"](tt, T)  # noqa: E731
            row["torch_wall_ms"] = 1e3 * _time(fn_t, T.cuda.synchronize, batch_s)
            s = _gpu_or_wall(fn_t, T, row["torch_wall_ms"] / 1e3, batch_s)
            row["torch_ms"] = 1e3 * s
            row.update({f"torch_{k}": v for k, v in rate(s).items()})
            del tt
        for name in devices:
            try:
                dev = sarek.get_device(name)
                if name.split(":")[0] in ("cuda", "ptx") and have_torch:
                    assert T is not None
                    args = [T.from_numpy(a).cuda() if isinstance(a, np.ndarray) else a for a in j["args"]]
                else:
                    args = [_vector(a) if isinstance(a, np.ndarray) else a for a in j["args"]]
                j["k"].launch(*args, grid=j["grid"], block=j["block"], device=dev)
                dev.synchronize()
                row[f"{name}_check"] = _check(j, args)
                fn_k = lambda: j["k"].launch(*args, grid=j["grid"], block=j["block"], device=dev)  # noqa: E731
                s = _time(fn_k, dev.synchronize, batch_s)
                row[f"{name}_wall_ms"] = 1e3 * s
                gpu = name.split(":")[0] in ("cuda", "ptx") and have_torch
                if gpu:
                    s = _gpu_or_wall(fn_k, T, s, batch_s)
                row[f"{name}_ms"] = 1e3 * s
                row.update({f"{name}_{k}": v for k, v in rate(s).items()})
                if "torch_ms" in row:  # GPU time against GPU time (cuda, ptx), else host-timed against host-timed
                    row[f"{name}_ratio"] = row["torch_ms" if gpu else "torch_wall_ms"] / row[f"{name}_ms"]
                    row[f"{name}_wall_ratio"] = row["torch_wall_ms"] / row[f"{name}_wall_ms"]
                del args
            except Exception as e:  # a device that cannot run a row says why, in the table
                row[f"{name}_error"] = f"{type(e).__name__}: {str(e)[:200]}"
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def _rate(r: dict[str, Any], d: str) -> str:
    if f"{d}_tflops" in r:
        return f"{r[f'{d}_tflops']:.2f} TF/s"
    return f"frac {r[f'{d}_frac']:.2f}" if f"{d}_frac" in r else ""


def table(rows: list[dict[str, Any]], devices: list[str]) -> str:
    """Markdown: one line per job and size; a cell is `ms (ratio to torch, on cuda/ptx the host-timed ratio
    too, frac of the device copy or TFLOP/s)`."""
    head = "| job | n | torch ms | " + " | ".join(f"{d} ms (ratio, rate)" for d in devices) + " |"
    lines = [head, "|" + "---|" * (3 + len(devices))]
    for r in rows:
        cells = []
        for d in devices:
            if r["job"] == "device copy":
                cells.append("")
            elif f"{d}_ms" in r:
                ratio, wall = r.get(f"{d}_ratio"), r.get(f"{d}_wall_ratio")
                parts = [f"{ratio:.2f}"] if ratio else []
                if wall and d.split(":")[0] in ("cuda", "ptx"):
                    parts.append(f"wall {wall:.2f}")
                if _rate(r, d):
                    parts.append(_rate(r, d))
                cell = f"{r[f'{d}_ms']:.4f}" + (f" ({', '.join(parts)})" if parts else "")
                check = r.get(f"{d}_check", "unchecked")
                cells.append(cell if check == "ok" else f"{cell} {check}")
            else:
                cells.append("error: " + r.get(f"{d}_error", "-")[:60])
        t = f"{r['torch_ms']:.4f} ({_rate(r, 'torch')})" if "torch_ms" in r else "-"
        lines.append(f"| {r['job']} | {r.get('n', '')} | {t} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=os.environ.get("OUT"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--devices", default="cuda:0,ptx:0,opencl:0,vulkan:0,vulkan-glsl:0")
    ap.add_argument("--sizes", default="24,26", help="log2 of each size's element count (two by default)")
    ap.add_argument("--only", default="", help="comma-separated job names (default: all)")
    a = ap.parse_args()
    devices = ["interp", "opencl:0"] if a.quick else [d for d in a.devices.split(",") if d]
    logs = [12, 14] if a.quick else [int(v) for v in a.sizes.split(",") if v]
    t0 = time.perf_counter()
    rows_out: list[dict[str, Any]] = []
    for i, lg in enumerate(logs):
        n = 1 << lg
        sq = (128 << i) if a.quick else min(4096, 2048 << i)  # SGEMM 2048^3, then 4096^3
        rows_out += run(devices, n, max(1, n // COLS) if not a.quick else 16, sq,
                        [o for o in a.only.split(",") if o] or None, 0.0 if a.quick else BATCH_S)
    text = table(rows_out, devices)
    print(text)
    print(f"({time.perf_counter() - t0:.0f} s)")
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / "bench_library.json").write_text(json.dumps(rows_out, indent=1))
        (Path(a.out) / "bench_library.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
