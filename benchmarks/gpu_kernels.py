"""The kernels of benchmarks/bench_gpu.py: each as a sarek kernel and as hand-written CUDA C of the same
algorithm (same parameters in sarek's C ABI: a vector is its pointer followed by an `int` length), with its
inputs, launch shape and the bytes it must move (memory-bound kernels are compared with a device copy).

`CASES` lists them; `mlir_cases()` adds the PTX bench's kernels (control, storage, int_ops, atomics_warp from
tests/unit/ptx_kernels, math_mix), whose reference is a hand-written CUDA version where one exists here and
sarek's own CUDA otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sarek import Vec, f32, i32, kernel, superstep
from sarek.frontend.corpus import load_examples
from sarek.gpu import block_dim_x, block_dim_y, block_idx_x, block_idx_y, global_thread_id, shared, thread_idx_x, thread_idx_y

ROOT = Path(__file__).resolve().parents[1]
B = 256
T = 16  # sgemm / transpose tile
#: the corpus's kernels of these algorithms (examples/*.py): vector_add, reduce_sum (256-slot shared tree),
#: matmul_tiled (16x16 tiles), mandelbrot (64 iterations)
EX = load_examples()
#: 1-D sizes: 65535 blocks of 256 (Vulkan's grid limit per dimension is 65535 workgroups)
N1D = 65535 * B


@kernel
def saxpy(x: Vec[f32], y: Vec[f32], out: Vec[f32], alpha: f32, n: i32):
    i = global_thread_id
    if i < n:
        out[i] = alpha * x[i] + y[i]


@kernel
def transpose_tiled(src: Vec[f32], dst: Vec[f32], rows: i32, cols: i32):
    tile = shared(f32, T * (T + 1))
    tx = thread_idx_x
    ty = thread_idx_y
    with superstep():
        tile[ty * (T + 1) + tx] = src[(block_idx_y * T + ty) * cols + block_idx_x * T + tx]
    dst[(block_idx_x * T + ty) * rows + block_idx_y * T + tx] = tile[tx * (T + 1) + ty]


@kernel
def jacobi2d(a: Vec[f32], b: Vec[f32], w: i32, h: i32):
    x = block_idx_x * block_dim_x + thread_idx_x
    y = block_idx_y * block_dim_y + thread_idx_y
    if x > 0 and y > 0 and x < w - 1 and y < h - 1:
        i = y * w + x
        b[i] = 0.25 * (a[i - 1] + a[i + 1] + a[i - w] + a[i + w])


HAND: dict[str, str] = {
    "vadd": """extern "C" __global__ void vector_add(const float* a, int la, const float* b, int lb, float* c, int lc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}""",
    "saxpy": """extern "C" __global__ void saxpy(const float* x, int lx, const float* y, int ly, float* out, int lo,
                                  float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * x[i] + y[i];
}""",
    "block_sum": """extern "C" __global__ void reduce_sum(const float* a, int la, float* out, int lo, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = g < n ? a[g] : 0.0f;
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}""",
    "transpose_tiled": """extern "C" __global__ void transpose_tiled(const float* src, int ls, float* dst, int ld, int rows,
                                            int cols) {
  __shared__ float tile[16 * 17];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * 17 + tx] = src[(blockIdx.y * 16 + ty) * cols + blockIdx.x * 16 + tx];
  __syncthreads();
  dst[(blockIdx.x * 16 + ty) * rows + blockIdx.y * 16 + tx] = tile[tx * 17 + ty];
}""",
    "jacobi2d": """extern "C" __global__ void jacobi2d(const float* a, int la, float* b, int lb, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    int i = y * w + x;
    b[i] = 0.25f * (a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);
  }
}""",
    "sgemm_tiled": """extern "C" __global__ void matmul_tiled(const float* a, int la, const float* b, int lb, float* c, int lc,
                                        int n) {
  __shared__ float ta[256], tb[256];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / 16; t++) {
    ta[ty * 16 + tx] = a[row * n + t * 16 + tx];
    tb[ty * 16 + tx] = b[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; k++) acc += ta[ty * 16 + k] * tb[k * 16 + tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}""",
    "mandel": """extern "C" __global__ void mandelbrot(int* out, int lo, int w, int h) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px < w && py < h) {
    float cx = (float)px / (float)w * 3.0f - 2.0f, cy = (float)py / (float)h * 2.0f - 1.0f;
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < 64 && x * x + y * y <= 4.0f) {
      float xt = x * x - y * y + cx;
      y = 2.0f * x * y + cy;
      x = xt;
      it++;
    }
    out[py * w + px] = it;
  }
}""",
    "math_mix": """extern "C" __global__ void math_mix(const float* a, int la, const float* b, int lb, float* c, int lc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = a[i], y = b[i];
    c[i] = sqrtf(x * x + y * y) * expf(-0.1f * (x + y)) * cosf(x * y);
  }
}""",
}

Dims = tuple[int, int, int]


@dataclass
class Case:
    """One benchmark: a sarek kernel (module + name), its reference CUDA (None: sarek's own CUDA), inputs."""

    name: str
    module: Any
    kernel: str
    make_args: Callable[[np.random.Generator], list[Any]]
    grid: Dims
    block: Dims
    hand: str | None = None
    bytes_moved: int = 0  # > 0: memory-bound, compared with the device-copy bandwidth
    outputs: tuple[int, ...] = ()  # argument indices compared between sarek and the reference
    tol: float = 1e-3  # floats: max |diff| / max(1, |ref|); integers: the fraction of elements that differ
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=lambda: {})


def _f(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.uniform(-1.0, 1.0, n).astype(np.float32)


def cases(scale: int = 1) -> list[Case]:
    """The seven algorithm kernels; `scale` < 1 shrinks them (CPU-side tests)."""
    n = N1D // scale
    s2 = 4096 // scale  # transpose / jacobi side
    g = 1024 // scale  # sgemm side
    m = 2048 // scale  # mandelbrot side
    out: list[Case] = [
        Case("vadd", EX["vector_add"].vector_add.module, "vector_add", lambda r: [_f(r, n), _f(r, n), np.zeros(n, np.float32), n],
             ((n + B - 1) // B, 1, 1), (B, 1, 1), HAND["vadd"], 12 * n, (2,)),
        Case("saxpy", saxpy.module, "saxpy",
             lambda r: [_f(r, n), _f(r, n), np.zeros(n, np.float32), np.float32(1.5), n],
             ((n + B - 1) // B, 1, 1), (B, 1, 1), HAND["saxpy"], 12 * n, (2,)),
        Case("block_sum", EX["reduce"].reduce_sum.module, "reduce_sum", lambda r: [_f(r, n), np.zeros(n // B, np.float32), n],
             (n // B, 1, 1), (B, 1, 1), HAND["block_sum"], 4 * n, (1,), tol=1e-2),
        Case("transpose_tiled", transpose_tiled.module, "transpose_tiled",
             lambda r: [_f(r, s2 * s2), np.zeros(s2 * s2, np.float32), s2, s2],
             (s2 // T, s2 // T, 1), (T, T, 1), HAND["transpose_tiled"], 8 * s2 * s2, (1,)),
        Case("jacobi2d", jacobi2d.module, "jacobi2d", lambda r: [_f(r, s2 * s2), np.zeros(s2 * s2, np.float32), s2, s2],
             (s2 // 32, s2 // 8, 1), (32, 8, 1), HAND["jacobi2d"], 8 * s2 * s2, (1,)),
        Case("sgemm_tiled", EX["matmul"].matmul_tiled.module, "matmul_tiled",
             lambda r: [_f(r, g * g), _f(r, g * g), np.zeros(g * g, np.float32), g],
             (g // T, g // T, 1), (T, T, 1), HAND["sgemm_tiled"], 0, (2,), tol=1e-2),
        Case("mandel", EX["mandelbrot"].mandelbrot.module, "mandelbrot", lambda r: [np.zeros(m * m, np.int32), m, m],
             (m // 16, m // 16, 1), (16, 16, 1), HAND["mandel"], 0, (0,), tol=0.02,
             notes="iteration counts; contraction changes a few near the set's boundary"),
    ]
    return out


def mlir_cases(scale: int = 1) -> list[Case]:
    """control, storage, int_ops, atomics_warp (tests/unit/ptx_kernels) and math_mix (bench_ptx): inputs made
    from the signature by bench_ptx.make_args; reference: HAND where present, else sarek's CUDA."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_ptx  # pyright: ignore[reportMissingImports]

    from sarek.registry import parse_module

    n = N1D // scale
    texts = [(p.stem, p.read_text()) for p in sorted((ROOT / "tests" / "unit" / "ptx_kernels").glob("*.mlir"))]
    texts.append(("math_mix", bench_ptx.EXTRA_KERNELS["math_mix"]))
    out: list[Case] = []
    for label, text in texts:
        module = parse_module(text, label)
        from sarek.runtime.core import kernel_names

        for k in kernel_names(module):
            def make(r: np.random.Generator, module: Any = module, k: str = k) -> list[Any]:
                return bench_ptx.make_args(module, k, n, r)[0]

            out.append(Case(label if label == k else f"{label}:{k}", module, k, make, ((n + B - 1) // B, 1, 1),
                            (B, 1, 1), HAND.get(k), tol=0.0 if label in ("int_ops", "control") else 1e-3))
    return out
