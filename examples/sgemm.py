"""SGEMM in f32 on the SIMT cores, written for speed: C = A B with A (M x K), B (K x N), C (M x N) row-major,
M and N multiples of 128, K of 8. Each block of 256 threads computes a 128 x 128 tile of C, each thread an 8 x 8
sub-tile held in registers (16 f32x4 accumulators). K advances 8 at a time through two shared-memory stages:
while the threads multiply out one stage, each has already loaded its piece of the next A and B tiles into
registers (one 128-bit load each), and stores it into the other stage afterwards, so one barrier per step
suffices. The matrices travel as `Vec[f32x4]` (a float32 array viewed `(-1, 4)`): 128-bit global loads and
stores, and the shared tiles are f32x4 arrays read 128 bits at a time (A's tile row-major, four k values per
element; B's four columns per element). `sgemm_kt` stores A's tile transposed instead (k-major, four rows
per f32x4, written as each thread's four scalar loads of one k column), so a k step is two 128-bit shared loads
of A and two of B for the thread's 8 x 8 outer product; with two k per loop iteration it needs 128 registers
where sgemm_8x8 takes 129 (CUDA) to 167 (PTX) on sm_90: two blocks per SM instead of one. Its A is a flat
`Vec[f32]`. benchmarks/bench_library.py's `sgemm` and `sgemm_kt` rows run them against torch.matmul (cuBLAS);
here the reference is numpy."""

import numpy as np

from sarek import Vec, f32, f32x4, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_idx_x, block_idx_y, local_array, shared, thread_idx_x

TILE = 128  # C tile per block (rows and columns)
BK = 8  # K step per stage
THREADS = 256


@kernel(block=THREADS)
def sgemm_8x8(A: Vec[f32x4], B: Vec[f32x4], C: Vec[f32x4], M: i32, N: i32, K: i32):
    """C = A B (see the module docstring): grid (N // 128, M // 128), block 256."""
    sa = shared(f32x4, 2 * TILE * 2)  # [stage][row m][k // 4]: 128 rows of 8 k
    sb = shared(f32x4, 2 * BK * 32)  # [stage][k][column // 4]: 8 rows of 128 columns
    acc = local_array(f32x4, 16)  # acc[2 i + c]: row ty * 8 + i, columns tx * 8 + 4 c .. + 3
    ra = local_array(f32x4, 8)  # the thread's 8 rows of A, 4 k values each
    t = thread_idx_x
    tx = t % 16
    ty = t // 16
    k4s = K // 4
    n4s = N // 4
    i0 = block_idx_y * TILE
    j4 = block_idx_x * (TILE // 4)
    ar = t // 2  # this thread's piece of the A tile: row ar, k values 4 ak .. 4 ak + 3
    ak = t % 2
    br = t // 32  # of the B tile: row br, columns 4 bc .. 4 bc + 3
    bc = t % 32
    sa[ar * 2 + ak] = A[(i0 + ar) * k4s + ak]
    sb[br * 32 + bc] = B[br * n4s + j4 + bc]
    barrier()
    steps = K // BK
    for s in range(steps):
        na = f32x4(0.0)
        nb = f32x4(0.0)
        if s + 1 < steps:  # the next step's pieces, in flight while this one multiplies
            na = A[(i0 + ar) * k4s + (s + 1) * 2 + ak]
            nb = B[((s + 1) * BK + br) * n4s + j4 + bc]
        a0 = (s % 2) * (TILE * 2)
        b0 = (s % 2) * (BK * 32)
        for k4 in range(2):
            # four k values per f32x4 of A, each written out (a loop over them stays rolled under sarek-unroll's
            # max-ops, and a lane picked by a loop variable is no field name): 8 rows x 8 columns each
            ka = a0 + ty * 16 + k4  # row ty * 8 of this stage's A tile at k4: rows 2 elements apart
            for i in range(8):
                ra[i] = sa[ka + 2 * i]
            kb = b0 + k4 * 4 * 32 + tx * 2
            p = sb[kb]
            q = sb[kb + 1]
            for i in range(8):
                acc[2 * i] += ra[i].x * p
                acc[2 * i + 1] += ra[i].x * q
            p = sb[kb + 32]
            q = sb[kb + 33]
            for i in range(8):
                acc[2 * i] += ra[i].y * p
                acc[2 * i + 1] += ra[i].y * q
            p = sb[kb + 64]
            q = sb[kb + 65]
            for i in range(8):
                acc[2 * i] += ra[i].z * p
                acc[2 * i + 1] += ra[i].z * q
            p = sb[kb + 96]
            q = sb[kb + 97]
            for i in range(8):
                acc[2 * i] += ra[i].w * p
                acc[2 * i + 1] += ra[i].w * q
        if s + 1 < steps:
            o = (s + 1) % 2
            sa[o * (TILE * 2) + ar * 2 + ak] = na
            sb[o * (BK * 32) + br * 32 + bc] = nb
        barrier()
    for i in range(8):
        row = (i0 + ty * 8 + i) * n4s + j4 + tx * 2
        C[row] = acc[2 * i]
        C[row + 1] = acc[2 * i + 1]


@kernel(block=THREADS)
def sgemm_kt(A: Vec[f32], B: Vec[f32x4], C: Vec[f32x4], M: i32, N: i32, K: i32):
    """C = A B: A's tile stored transposed (k-major, four rows per f32x4), so a k step reads two f32x4 of A and
    two of B (128-bit shared loads) for the thread's 8 x 8 outer product; grid (N // 128, M // 128)."""
    sa = shared(f32x4, 2 * BK * 32)  # [stage][k][row // 4]
    sb = shared(f32x4, 2 * BK * 32)  # [stage][k][column // 4]
    acc = local_array(f32x4, 16)  # acc[2 i + c]: row 4 ty + i (+ 60 from i = 4), columns 4 tx + 64 c .. + 3
    t = thread_idx_x
    tx = t % 16
    ty = t // 16
    n4s = N // 4
    i0 = block_idx_y * TILE
    j4 = block_idx_x * (TILE // 4)
    ak = t % 8  # this thread's piece of the A tile: column ak, rows 4 am .. 4 am + 3
    am = t // 8
    ra = (i0 + 4 * am) * K + ak
    br = t // 32  # of the B tile: row br, columns 4 bc .. 4 bc + 3
    bc = t % 32
    sa[ak * 32 + am] = f32x4(A[ra], A[ra + K], A[ra + 2 * K], A[ra + 3 * K])
    sb[br * 32 + bc] = B[br * n4s + j4 + bc]
    barrier()
    steps = K // BK
    for s in range(steps):
        na = f32x4(0.0)
        nb = f32x4(0.0)
        if s + 1 < steps:  # the next step's pieces, in flight while this one multiplies
            r = ra + (s + 1) * BK
            na = f32x4(A[r], A[r + K], A[r + 2 * K], A[r + 3 * K])
            nb = B[((s + 1) * BK + br) * n4s + j4 + bc]
        st = (s % 2) * (BK * 32)
        for k in range(0, BK, 2):  # two k values an iteration (the loop of eight stays rolled: sarek-unroll's max-ops)
            e = st + k * 32
            a = sa[e + ty]
            c = sa[e + 16 + ty]
            p = sb[e + tx]
            q = sb[e + 16 + tx]
            a1 = sa[e + 32 + ty]
            c1 = sa[e + 48 + ty]
            p1 = sb[e + 32 + tx]
            q1 = sb[e + 48 + tx]
            acc[0] += a.x * p
            acc[1] += a.x * q
            acc[2] += a.y * p
            acc[3] += a.y * q
            acc[4] += a.z * p
            acc[5] += a.z * q
            acc[6] += a.w * p
            acc[7] += a.w * q
            acc[8] += c.x * p
            acc[9] += c.x * q
            acc[10] += c.y * p
            acc[11] += c.y * q
            acc[12] += c.z * p
            acc[13] += c.z * q
            acc[14] += c.w * p
            acc[15] += c.w * q
            acc[0] += a1.x * p1
            acc[1] += a1.x * q1
            acc[2] += a1.y * p1
            acc[3] += a1.y * q1
            acc[4] += a1.z * p1
            acc[5] += a1.z * q1
            acc[6] += a1.w * p1
            acc[7] += a1.w * q1
            acc[8] += c1.x * p1
            acc[9] += c1.x * q1
            acc[10] += c1.y * p1
            acc[11] += c1.y * q1
            acc[12] += c1.z * p1
            acc[13] += c1.z * q1
            acc[14] += c1.w * p1
            acc[15] += c1.w * q1
        if s + 1 < steps:
            o = ((s + 1) % 2) * (BK * 32)
            sa[o + ak * 32 + am] = na
            sb[o + br * 32 + bc] = nb
        barrier()
    for i in range(8):
        row = (i0 + 4 * ty + i + 60 * (i // 4)) * n4s + j4 + tx  # rows 4 ty .. + 3, then 64 + 4 ty .. + 3
        C[row] = acc[2 * i]
        C[row + 16] = acc[2 * i + 1]


@kernel(block=THREADS)
def sgemm_kt4(A: Vec[f32], B: Vec[f32x4], C: Vec[f32x4], M: i32, N: i32, K: i32):
    """sgemm_kt with four k per loop iteration instead of two (125 registers on ptx, no spills): the compiler
    may hoist the next k's shared loads over the current one's multiply-adds."""
    sa = shared(f32x4, 2 * BK * 32)  # [stage][k][row // 4]
    sb = shared(f32x4, 2 * BK * 32)  # [stage][k][column // 4]
    acc = local_array(f32x4, 16)  # acc[2 i + c]: row 4 ty + i (+ 60 from i = 4), columns 4 tx + 64 c .. + 3
    t = thread_idx_x
    tx = t % 16
    ty = t // 16
    n4s = N // 4
    i0 = block_idx_y * TILE
    j4 = block_idx_x * (TILE // 4)
    ak = t % 8  # this thread's piece of the A tile: column ak, rows 4 am .. 4 am + 3
    am = t // 8
    ra = (i0 + 4 * am) * K + ak
    br = t // 32  # of the B tile: row br, columns 4 bc .. 4 bc + 3
    bc = t % 32
    sa[ak * 32 + am] = f32x4(A[ra], A[ra + K], A[ra + 2 * K], A[ra + 3 * K])
    sb[br * 32 + bc] = B[br * n4s + j4 + bc]
    barrier()
    steps = K // BK
    for s in range(steps):
        na = f32x4(0.0)
        nb = f32x4(0.0)
        if s + 1 < steps:  # the next step's pieces, in flight while this one multiplies
            r = ra + (s + 1) * BK
            na = f32x4(A[r], A[r + K], A[r + 2 * K], A[r + 3 * K])
            nb = B[((s + 1) * BK + br) * n4s + j4 + bc]
        st = (s % 2) * (BK * 32)
        for k in range(0, BK, 4):
            e = st + k * 32
            a0 = sa[e + ty]
            c0 = sa[e + 16 + ty]
            p0 = sb[e + tx]
            q0 = sb[e + 16 + tx]
            a1 = sa[e + 32 + ty]
            c1 = sa[e + 32 + 16 + ty]
            p1 = sb[e + 32 + tx]
            q1 = sb[e + 32 + 16 + tx]
            a2 = sa[e + 64 + ty]
            c2 = sa[e + 64 + 16 + ty]
            p2 = sb[e + 64 + tx]
            q2 = sb[e + 64 + 16 + tx]
            a3 = sa[e + 96 + ty]
            c3 = sa[e + 96 + 16 + ty]
            p3 = sb[e + 96 + tx]
            q3 = sb[e + 96 + 16 + tx]
            acc[0] += a0.x * p0
            acc[1] += a0.x * q0
            acc[2] += a0.y * p0
            acc[3] += a0.y * q0
            acc[4] += a0.z * p0
            acc[5] += a0.z * q0
            acc[6] += a0.w * p0
            acc[7] += a0.w * q0
            acc[8] += c0.x * p0
            acc[9] += c0.x * q0
            acc[10] += c0.y * p0
            acc[11] += c0.y * q0
            acc[12] += c0.z * p0
            acc[13] += c0.z * q0
            acc[14] += c0.w * p0
            acc[15] += c0.w * q0
            acc[0] += a1.x * p1
            acc[1] += a1.x * q1
            acc[2] += a1.y * p1
            acc[3] += a1.y * q1
            acc[4] += a1.z * p1
            acc[5] += a1.z * q1
            acc[6] += a1.w * p1
            acc[7] += a1.w * q1
            acc[8] += c1.x * p1
            acc[9] += c1.x * q1
            acc[10] += c1.y * p1
            acc[11] += c1.y * q1
            acc[12] += c1.z * p1
            acc[13] += c1.z * q1
            acc[14] += c1.w * p1
            acc[15] += c1.w * q1
            acc[0] += a2.x * p2
            acc[1] += a2.x * q2
            acc[2] += a2.y * p2
            acc[3] += a2.y * q2
            acc[4] += a2.z * p2
            acc[5] += a2.z * q2
            acc[6] += a2.w * p2
            acc[7] += a2.w * q2
            acc[8] += c2.x * p2
            acc[9] += c2.x * q2
            acc[10] += c2.y * p2
            acc[11] += c2.y * q2
            acc[12] += c2.z * p2
            acc[13] += c2.z * q2
            acc[14] += c2.w * p2
            acc[15] += c2.w * q2
            acc[0] += a3.x * p3
            acc[1] += a3.x * q3
            acc[2] += a3.y * p3
            acc[3] += a3.y * q3
            acc[4] += a3.z * p3
            acc[5] += a3.z * q3
            acc[6] += a3.w * p3
            acc[7] += a3.w * q3
            acc[8] += c3.x * p3
            acc[9] += c3.x * q3
            acc[10] += c3.y * p3
            acc[11] += c3.y * q3
            acc[12] += c3.z * p3
            acc[13] += c3.z * q3
            acc[14] += c3.w * p3
            acc[15] += c3.w * q3
        if s + 1 < steps:
            o = ((s + 1) % 2) * (BK * 32)
            sa[o + ak * 32 + am] = na
            sb[o + br * 32 + bc] = nb
        barrier()
    for i in range(8):
        row = (i0 + 4 * ty + i + 60 * (i // 4)) * n4s + j4 + tx  # rows 4 ty .. + 3, then 64 + 4 ty .. + 3
        C[row] = acc[2 * i]
        C[row + 16] = acc[2 * i + 1]


def sgemm_grid(m: int, n: int) -> tuple[int, int]:
    return (n // TILE, m // TILE)


def _args(m, n=TILE, k=24):
    rng = np.random.default_rng(31)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    return (a.reshape(-1).view(f32x4.dtype), b.reshape(-1).view(f32x4.dtype), np.zeros(m * n // 4, f32x4.dtype), m, n, k)


def _args_kt(m, n=TILE, k=24):
    a = _args(m, n, k)
    return (a[0].view(np.float32),) + a[1:]


def _ref(a):
    m, n, k = a[3], a[4], a[5]
    c = a[0].view(np.float32).reshape(m, k).astype(np.float64) @ a[1].view(np.float32).reshape(k, n).astype(np.float64)
    return {2: c.astype(np.float32).reshape(-1).view(f32x4.dtype)}


CASES = [
    Case("sgemm_8x8", sgemm_8x8, _args, _ref, n=2 * TILE, grid=lambda m: sgemm_grid(m, TILE), block=THREADS,
         rtol=1e-4, atol=1e-4),
    Case("sgemm_kt", sgemm_kt, _args_kt, _ref, n=2 * TILE, grid=lambda m: sgemm_grid(m, TILE), block=THREADS,
         rtol=1e-4, atol=1e-4),
    Case("sgemm_kt4", sgemm_kt4, _args_kt, _ref, n=2 * TILE, grid=lambda m: sgemm_grid(m, TILE), block=THREADS,
         rtol=1e-4, atol=1e-4),
]
