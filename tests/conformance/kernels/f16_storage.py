"""Issue 33's f16 storage cases: f16 vectors read, computed in f32 and stored rounded to nearest even on every
target (OpenCL, Metal, GLSL and WGSL through sarek-widen-f16), exactly as numpy's float16. The edge values
are finite (the runner's tolerance compare has no inf - inf); tests/unit/test_f16_storage.py checks inf and NaN
bit for bit; the round trip has no arithmetic, so it is exact everywhere."""

import numpy as np

from sarek import Vec, f16, f32, kernel
from sarek.gpu import global_thread_id
from sarek.runtime.conformance import Case


@kernel
def axpy_f16(a: f16, x: Vec[f16], y: Vec[f16]):
    """y = a * x + y in f16 storage: computed in f32, rounded to nearest even on the store."""
    i = global_thread_id
    if i < len(y):
        y[i] = a * x[i] + y[i]


@kernel
def f16_round_trip(x: Vec[f32], h: Vec[f16], back: Vec[f32]):
    """Each f32 rounded to f16 (stored), and the stored half read back widened."""
    i = global_thread_id
    if i < len(x):
        h[i] = f16(x[i])
        back[i] = f32(h[i])


def _axpy_args(rng):
    return (np.float16(1.2345), rng.standard_normal(1000).astype(np.float16),
            rng.standard_normal(1000).astype(np.float16))


def _axpy_ref(a):
    return {2: (np.float32(a[0]) * a[1].astype(np.float32) + a[2].astype(np.float32)).astype(np.float16)}


def _edges():
    """Finite f32 values at the rounding edges: every other finite half >= 2^-24 and the midpoints (ties to
    even) and their neighbours, subnormals, the largest half, -0.0; both signs."""
    h = np.arange(1, 0x7C00, 2, dtype=np.uint16).view(np.float16).astype(np.float32)
    mids = ((h[:-1].astype(np.float64) + h[1:]) / 2).astype(np.float32)
    near = np.concatenate([np.nextafter(mids, np.float32(0)), np.nextafter(mids, np.float32(np.inf))])
    special = np.array([-0.0, 65504.0, 65519.996, 2.0 ** -25, 1.5 * 2.0 ** -25, 2.0 ** -26, 1e-45], np.float32)
    v = np.concatenate([h, mids, near, special])
    return np.concatenate([v, -v]).astype(np.float32)


def _trip_args(rng):
    x = _edges()
    return (x, np.zeros(x.size, np.float16), np.zeros(x.size, np.float32))


def _trip_ref(a):
    h = a[0].astype(np.float16)
    return {1: h, 2: h.astype(np.float32)}


N_EDGES = _edges().size
CASES = [
    # CUDA, HIP and PTX round the product to f16 too, and a compiler may contract to an FMA: within an f16 ulp
    Case("axpy_f16", axpy_f16, _axpy_args, _axpy_ref, grid=4, block=256, rtol=2e-3, atol=1e-3),
    Case("f16_round_trip", f16_round_trip, _trip_args, _trip_ref, grid=(N_EDGES + 255) // 256, block=256, rtol=0,
         atol=0),
]
