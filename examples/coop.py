"""Cooperative matrices (tensor cores, `sarek.coop`): one 16x16x16 f16 tile; a 128x128x128 f16 GEMM of 4 warps
staging tiles through shared memory; bf16; the seed's 8-bit path (u8 x u8 -> i32 at 16x16x32, and i8 accumulating
into i32 with C's wrap-around); a column-major B; an f16 accumulator (small integers: exact in any order); an
accumulator stored to shared memory and post-processed (bias + ReLU). Float references are exact (float64 of the f16/bf16 inputs): a device sums in its own order, within
the tolerance docs/KERNELS.md states."""

import numpy as np

from sarek import Array, Vec, bf16, coop, f16, f32, i8, i32, kernel, u8
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_idx_x, block_idx_y, shared, thread_idx_x, warp_id
from sarek.types import bf16_from_f32, bf16_to_f32

COOP = frozenset({"coop", "f16"})
# "coop-bf16": bf16 fragments; "coop-f16acc": f16 accumulators
INT8 = frozenset({"coop", "coop-int8"})  # the 8-bit path: cuda, ptx, hip (CDNA) and glsl (Metal has no integer matrices)
BM = 32  # the GEMM's block tile: 32x32 of C per block of 4 warps (2x2 warps of 16x16)
BK = 16


@kernel(block=32)
def tile16(A: Array[f16, 2], B: Array[f16, 2], C: Array[f32, 2]):
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    coop.fill(acc, 0.0)
    coop.load(a, A, 0, 0)
    coop.load(b, B, 0, 0)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 0)


@kernel(block=128)
def hgemm_shared(A: Array[f16, 2], B: Array[f16, 2], C: Array[f32, 2]):
    sa = shared(f16, (BM, BK))
    sb = shared(f16, (BK, BM))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BM
    t = thread_idx_x
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    coop.fill(acc, 0.0)
    for k in range(0, A.shape[1], BK):
        for e in range(t, BM * BK, 128):       # 128 threads stage 32x16 of A and 16x32 of B
            sa[e // BK, e % BK] = A[i0 + e // BK, k + e % BK]
            sb[e // BM, e % BM] = B[k + e // BM, j0 + e % BM]
        barrier()
        coop.load(a, sa, wy * 16, 0)
        coop.load(b, sb, 0, wx * 16)
        coop.mma(acc, a, b, acc)
        barrier()
    coop.store(acc, C, i0 + wy * 16, j0 + wx * 16)


@kernel(block=32)
def bf16_gemm(A: Array[bf16, 2], B: Array[bf16, 2], C: Array[f32, 2]):
    a = coop.fragment("a", bf16, 16, 16)
    b = coop.fragment("b", bf16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    i0 = block_idx_y * 16
    j0 = block_idx_x * 16
    coop.fill(acc, 0.0)
    for k in range(0, A.shape[1], 16):
        coop.load(a, A, i0, k)
        coop.load(b, B, k, j0)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0, j0)


@kernel(block=32)
def u8_tile(A: Vec[u8], B: Vec[u8], C: Vec[i32]):
    a = coop.fragment("a", u8, 16, 32)
    b = coop.fragment("b", u8, 32, 16)
    acc = coop.fragment("acc", i32, 16, 16)
    coop.fill(acc, 0)
    coop.load(a, A, 0, 32)
    coop.load(b, B, 0, 16)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 16)


@kernel(block=32)
def i8_accumulate(A: Vec[i8], B: Vec[i8], C: Vec[i32]):
    a = coop.fragment("a", i8, 16, 32)
    b = coop.fragment("b", i8, 32, 16)
    acc = coop.fragment("acc", i32, 16, 16)
    coop.load(acc, C, 0, 16)                  # C starts near the i32 limits: the sum wraps as in C
    coop.load(a, A, 0, 32)
    coop.load(b, B, 0, 16)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 16)


@kernel(block=64)
def col_major_b(A: Array[f16, 2], BT: Array[f16, 2], C: Array[f32, 2]):
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    j0 = warp_id * 16                         # two warps: two 16-column tiles of C
    coop.fill(acc, 0.0)
    for k in range(0, A.shape[1], 16):
        coop.load(a, A, 0, k)
        coop.load(b, BT, k, j0, col_major=True)  # BT holds B transposed (B[k, j] = BT[j, k])
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, j0)


@kernel(block=32)
def f16_acc(A: Array[f16, 2], B: Array[f16, 2], C: Array[f16, 2]):
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f16, 16, 16)
    coop.load(acc, C, 0, 0)                   # an f16 accumulator, loaded and stored as f16
    coop.load(a, A, 0, 0)
    coop.load(b, B, 0, 0)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 0)


@kernel(block=64)
def bias_relu(A: Array[f16, 2], B: Array[f16, 2], bias: Vec[f32], C: Array[f32, 2]):
    s = shared(f32, (16, 32))
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    j0 = warp_id * 16
    coop.fill(acc, 0.0)
    coop.load(a, A, 0, 0)
    coop.load(b, B, 0, j0)
    coop.mma(acc, a, b, acc)
    coop.store(acc, s, 0, j0)
    barrier()
    for e in range(thread_idx_x, 16 * 32, 64):
        r = e // 32
        c = e % 32
        C[r, c] = max(s[r, c] + bias[c], 0.0)


def _h(rng, shape):
    return rng.standard_normal(shape).astype(np.float16)


def _exact(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


def _tile_args(n):
    rng = np.random.default_rng(29)
    return (_h(rng, (16, 16)), _h(rng, (16, 16)), np.zeros((16, 16), np.float32))


def _gemm_args(n):
    rng = np.random.default_rng(30)
    return (_h(rng, (n, n)), _h(rng, (n, n)), np.zeros((n, n), np.float32))


def _bf16_args(n):
    rng = np.random.default_rng(31)
    return (bf16_from_f32(rng.standard_normal((n, n)).astype(np.float32)),
            bf16_from_f32(rng.standard_normal((n, n)).astype(np.float32)), np.zeros((n, n), np.float32))


def _u8_args(n):
    rng = np.random.default_rng(32)
    return (rng.integers(0, 256, 16 * 32).astype(np.uint8), rng.integers(0, 256, 32 * 16).astype(np.uint8),
            np.zeros(256, np.int32))


def _i8_args(n):
    rng = np.random.default_rng(33)
    c = rng.choice(np.array([2**31 - 1000, -2**31 + 1000, 0], np.int64), 256).astype(np.int32)
    return (rng.integers(-128, 128, 16 * 32).astype(np.int8), rng.integers(-128, 128, 32 * 16).astype(np.int8), c)


def _i8_ref(a):
    s = a[2].astype(np.int64) + (a[0].reshape(16, 32).astype(np.int64) @ a[1].reshape(32, 16)).reshape(-1)
    return {2: ((s + 2**31) % 2**32 - 2**31).astype(np.int32)}


def _colb_args(n):
    rng = np.random.default_rng(34)
    return (_h(rng, (16, n)), np.ascontiguousarray(_h(rng, (n, 32)).T), np.zeros((16, 32), np.float32))


def _f16_acc_args(n):
    # small integers: every product and partial sum is exact in f16, so any summation order gives the reference
    rng = np.random.default_rng(36)
    return tuple(rng.integers(-3, 4, (16, 16)).astype(np.float16) for _ in range(3))


def _bias_args(n):
    rng = np.random.default_rng(35)
    return (_h(rng, (16, 16)), _h(rng, (16, 32)), rng.standard_normal(32).astype(np.float32),
            np.zeros((16, 32), np.float32))


# float tolerances: a device sums the exact products in its own order (docs/KERNELS.md)
F = dict(rtol=1e-3, atol=1e-3)

CASES = [
    Case("coop_tile16", tile16, _tile_args, lambda a: {2: _exact(a[0], a[1])}, n=16, grid=1, block=32,
         features=COOP, **F),
    Case("coop_hgemm_shared", hgemm_shared, _gemm_args, lambda a: {2: _exact(a[0], a[1])}, n=128,
         grid=lambda n: (n // BM, n // BM), block=128, features=COOP | {"shared"}, **F),
    Case("coop_bf16", bf16_gemm, _bf16_args, lambda a: {2: _exact(bf16_to_f32(a[0]), bf16_to_f32(a[1]))}, n=32,
         grid=lambda n: (n // 16, n // 16), block=32, features=frozenset({"coop", "coop-bf16"}), **F),
    Case("coop_u8", u8_tile, _u8_args,
         lambda a: {2: (a[0].reshape(16, 32).astype(np.int64) @ a[1].reshape(32, 16)).reshape(-1).astype(np.int32)},
         n=16, grid=1, block=32, features=INT8, rtol=0, atol=0),
    Case("coop_i8_wrap", i8_accumulate, _i8_args, _i8_ref, n=16, grid=1, block=32, features=INT8, rtol=0, atol=0),
    Case("coop_col_major_b", col_major_b, _colb_args, lambda a: {2: _exact(a[0], a[1].T)}, n=32, grid=1, block=64,
         features=COOP, **F),
    Case("coop_f16_acc", f16_acc, _f16_acc_args, lambda a: {2: (_exact(a[0], a[1]) + a[2]).astype(np.float16)},
         n=16, grid=1, block=32, features=COOP | {"coop-f16acc"}, rtol=0, atol=0),
    Case("coop_bias_relu", bias_relu, _bias_args,
         lambda a: {3: np.maximum(_exact(a[0], a[1]) + a[2], 0)}, n=16, grid=1, block=64,
         features=COOP | {"shared"}, **F),
]
