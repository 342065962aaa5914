"""Issue 14's cases on the data users have: 8/16-bit integers and bf16 in vectors, N-dimensional arrays and
records (C's integer promotions: small operands compute as i32; stores convert back). Each kernel with its
numpy reference; integer results are exact."""

import numpy as np

from sarek import Array, Vec, bf16, f32, i8, i32, kernel, record, u8, u16
from sarek.frontend.corpus import Case
from sarek.gpu import atomic_add, global_idx_x, global_idx_y, global_size, global_thread_id
from sarek.types import BF16_DTYPE

H, W = 23, 41


@kernel
def rgb_to_gray(img: Array[u8, 3], gray: Array[u8, 2]):
    """ITU-R 601 luma in fixed point: (77 r + 150 g + 29 b + 128) >> 8, each channel a u8."""
    i = global_idx_y
    j = global_idx_x
    if i < img.shape[0] and j < img.shape[1]:
        y = 77 * i32(img[i, j, 0]) + 150 * i32(img[i, j, 1]) + 29 * i32(img[i, j, 2]) + 128
        gray[i, j] = u8(y >> 8)


@kernel
def dot_i8(a: Vec[i8], b: Vec[i8], out: Vec[i32]):
    """sum(a * b) over i8 vectors, accumulated in i32 (grid-stride partial sums, one atomic per thread)."""
    acc = 0
    i = global_thread_id
    while i < len(a):
        acc += i32(a[i]) * i32(b[i])
        i += global_size
    atomic_add(out, 0, acc)


@kernel
def histogram_u16(data: Vec[u16], hist: Vec[i32]):
    """256 bins of the high byte of each u16 sample."""
    i = global_thread_id
    if i < len(data):
        atomic_add(hist, i32(data[i]) >> 8, 1)


@kernel
def axpy_bf16(a: f32, x: Vec[bf16], y: Vec[bf16]):
    """y = a * x + y in bf16 storage: computed in f32, rounded to nearest even on the store."""
    i = global_thread_id
    if i < len(y):
        y[i] = bf16(a * f32(x[i]) + f32(y[i]))


@record
class RGBA:
    r: u8
    g: u8
    b: u8
    a: u8


@kernel
def premultiply(px: Array[RGBA, 2]):
    """Premultiplied alpha on a 2-D image of RGBA records of u8 fields: c = (c * a + 127) // 255."""
    i = global_idx_y
    j = global_idx_x
    if i < px.shape[0] and j < px.shape[1]:
        al = i32(px[i, j].a)
        px[i, j].r = u8((i32(px[i, j].r) * al + 127) // 255)
        px[i, j].g = u8((i32(px[i, j].g) * al + 127) // 255)
        px[i, j].b = u8((i32(px[i, j].b) * al + 127) // 255)


def _rgb_args(n):
    rng = np.random.default_rng(146)
    return (rng.integers(0, 256, (H, W, 3), dtype=np.uint8), np.zeros((H, W), np.uint8))


def _rgb_ref(a):
    c = a[0].astype(np.int32)
    return {1: ((77 * c[..., 0] + 150 * c[..., 1] + 29 * c[..., 2] + 128) >> 8).astype(np.uint8)}


N_DOT = 3000


def _dot_args(n):
    rng = np.random.default_rng(147)
    return (rng.integers(-128, 128, N_DOT, dtype=np.int8), rng.integers(-128, 128, N_DOT, dtype=np.int8),
            np.zeros(1, np.int32))


def _hist_args(n):
    rng = np.random.default_rng(148)
    return (rng.integers(0, 65536, 5000, dtype=np.uint16), np.zeros(256, np.int32))


def _hist_ref(a):
    return {1: np.bincount(a[0] >> 8, minlength=256).astype(np.int32)}


def _bf16(x):
    """f32 -> bf16 storage, rounded to nearest even (ml_dtypes when present, else the bits by hand)."""
    x = np.asarray(x, np.float32)
    if BF16_DTYPE != np.dtype(np.uint16):
        return x.astype(BF16_DTYPE)
    b = x.view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def _f32(x):
    x = np.asarray(x)
    if x.dtype == np.uint16:
        return (x.astype(np.uint32) << 16).view(np.float32)
    return x.astype(np.float32)


def _axpy_args(n):
    rng = np.random.default_rng(149)
    return (np.float32(1.75), _bf16(rng.standard_normal(1000).astype(np.float32)),
            _bf16(rng.standard_normal(1000).astype(np.float32)))


def _axpy_ref(a):
    return {2: _bf16(np.float32(a[0]) * _f32(a[1]) + _f32(a[2]))}


def _rgba_args(n):
    rng = np.random.default_rng(150)
    px = np.zeros((9, 13), RGBA.dtype)
    for f in ("r", "g", "b", "a"):
        px[f] = rng.integers(0, 256, (9, 13), dtype=np.uint8)
    return (px,)


def _rgba_ref(a):
    px = a[0].copy()
    al = px["a"].astype(np.int32)
    for f in ("r", "g", "b"):
        px[f] = ((px[f].astype(np.int32) * al + 127) // 255).astype(np.uint8)
    return {0: px}


def _grid(h, w, b=16):
    return ((w + b - 1) // b, (h + b - 1) // b)


CASES = [
    Case("rgb_to_gray", rgb_to_gray, _rgb_args, _rgb_ref, grid=_grid(H, W), block=(16, 16), rtol=0, atol=0),
    Case("dot_i8", dot_i8, _dot_args, lambda a: {2: np.array([int(np.dot(a[0].astype(np.int64), a[1]))], np.int32)},
         grid=4, block=128, rtol=0, atol=0, features=frozenset({"atomics"})),
    Case("histogram_u16", histogram_u16, _hist_args, _hist_ref, grid=20, block=256, rtol=0, atol=0,
         features=frozenset({"atomics"})),
    Case("axpy_bf16", axpy_bf16, _axpy_args, _axpy_ref, grid=4, block=256, rtol=0, atol=0),
    Case("premultiply", premultiply, _rgba_args, _rgba_ref, grid=_grid(9, 13), block=(16, 16), rtol=0, atol=0,
         features=frozenset({"records"})),
]
