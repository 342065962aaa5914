"""Tensor-core GEMM: the best f16 and bf16 GEMM written in sarek (`sarek.coop`) against torch.matmul (cuBLAS) and
a Triton `tl.dot` matmul of the same shapes in the same run (`python3 benchmarks/bench_gemm.py [--out DIR]
[--sizes 4096,8192] [--devices cuda,ptx] [--rows 'sarek db,sarek async2'] [--dry-run]`).

The sarek kernel: a 128x128 block tile of C per block of 8 warps (2x4), each warp a 64x32 accumulator (8 wmma
fragments on cuda: the register blocking is the lowering's composition of a 64x32 `coop` fragment), K staged in
steps of 32 through padded shared-memory tiles (rows of 40 and 136 halves), one barrier before and one after the
tile's four 16-deep multiply-accumulates. C is f32 (the accumulator stored as it is). Candidates, one row each
(`KERNELS`): `sarek` (that kernel), `sarek db` (the next K step prefetched into registers while the warps
multiply, two shared stages, one barrier per step), `sarek db 4w` (the same with 4 warps of 64x64); with
asynchronous copies (`sarek.gpu.copy_async`: cp.async, 16 bytes per copy, no staging registers):
`sarek async2` (two stages of K=32), `sarek async4` (four stages of K=16), `sarek async2 4w` (two stages, 4
warps of 64x64), `sarek async4 4w` (four stages of K=16, 4 warps of 64x64), `sarek async3 wide` (128x256
block tiles, three stages of K=16, 8 warps of 64x64); past the 48 KiB static limit (the shared arrays in the
dynamic window, sized at launch): `sarek async3 dyn` (three stages of K=32, 8 warps of 64x32, 56 KiB) and
`sarek async4 4w dyn` (four stages of K=32, 4 warps of 64x64, 74 KiB), `sarek async3 wide dyn` (128x256 block
tiles, three stages of K=32, 8 warps of 64x64, 80 KiB). In benchmarks/gemm_pipelines.py, variants of `async4 4w
dyn`: `sarek async4 4w unroll` (the K loop unrolled by the four stages: constant stage offsets), `sarek async4
4w unroll grp` (the same, blocks in groups of 8 block rows for L2 reuse of B), `sarek async4 wide dyn` (128x256,
8 warps of 64x64, four stages of K=32, 106 KiB, unrolled likewise), `sarek async4 4w fp` (fragments
double-buffered across a K step's two k16 halves, the barrier between them), `sarek async3 4w k64` (three
stages of K=64, 105 KiB: half the barriers per flop, two blocks per SM still), and `sarek wgmma` (Hopper's
warpgroup MMA: 128x256 block tiles of two warpgroups, each one m64n256k16 `wgmma.mma_async` per k16 from
core-layout shared arrays, three copy_async stages of K=64, 144 KiB; PTX only, `.target sm_90a`: the cuda
device refuses it with the reason); `sarek global 4w` (fragments loaded straight from the global arrays, no
shared staging: 4 warps of 64x64). A Vulkan device (`--devices
cuda,ptx,vulkan-glsl`) runs `VULKAN_ROWS` (GLSL allows 64 KiB of shared arrays; warpgroup fragments are PTX's; a
copy_async is a plain copy there); its inputs are host arrays uploaded by each launch and each launch is timed by
the device's GPU timestamps around its dispatch (`gpu_timer`), not CUDA events.

Method: device-resident torch tensors (passed zero-copy to sarek); one warm-up launch per contender checked
against torch.matmul in f32 (max |error| / max |C| < 1e-2); then CUDA-event timing of `REPS` back-to-back
launches, the median of 5 batches. TFLOP/s = 2 M N K / time; ratio = contender / cuBLAS. A device that refuses
the kernel is reported with its reason. Results: a table on stdout and
DIR/bench_gemm.json.

`--dry-run` (no GPU): compiles every candidate to CUDA through NVRTC (sm_90) and to PTX through ptxas (sm_90;
the wgmma row at sm_90a), runs a 128x256x64 instance on the interpreter against numpy, and prints what each
device would do.

What the async rows compile to (ptxas 13 -v, sm_90, f16; SASS from nvdisasm): no spills anywhere; `sarek async2` 124
registers, per K step 4 LDGSTS.E.BYPASS.128, one DEPBAR + BAR.SYNC, 16 LDSM and 32 HMMA.16816.F32 with about 60
integer instructions (the ldmatrix alignment test is folded away); `async4` 96 registers (41 KiB shared), `async2
4w` 222, `async4 4w` 168, `async3 wide` 168 (43.8 KiB: one block per SM); `async3 dyn` 122 (cuda) / 128 (ptx),
`async4 4w dyn` 208 / 254 (160 SASS per K step on cuda, 182 on ptx, 64 HMMA and 16 LDSM each), `async4 4w unroll`
240 / 254 (136.5 on cuda; on ptx sarek-unroll's max-ops=512 keeps its stage loop rolled: 182), `async4 wide dyn` 226
/ 254 (133 on cuda), `async4 4w fp` 244 / 238 (174 on cuda: the stage index stays a run-time value, as unrolled it
needs 255 registers and spills 124 bytes in bf16), `async3 4w k64` 184 / 254 (per 32 of K: 141.5 on cuda, 167 on
ptx). On PTX each pair of 16x8 b pieces is one ldmatrix.x4 (async2: 12 LDSM per K step, as CUDA; 16 before). bf16 on
CUDA: wmma's bf16 loads reach ptxas with generic addresses (48 LD + 16 MOVM per K step of async2 instead of 12 LDSM:
bf16 ran at 0.21x cuBLAS against f16's 0.38x); sarek now names the shared state space in inline PTX for them, and
every row's bf16 SASS matches f16's. Limits left: fragments are double-buffered only in `async4 4w fp`, and mma.sync
is not Hopper's warpgroup MMA.

The path to `wgmma`, now taken by `sarek wgmma` (warpgroup fragments, docs/KERNELS.md; checked here: ptxas 13 assembles `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`
only for `.target sm_90a`, to HGMMA.64x128x16.F32 with 90 registers, and refuses that PTX for sm_90): (1) an
opt-in PTX target option writing `.target sm_90a`, chosen only on compute capability 9.0 devices, in the
cache key; (2) warpgroup-owned accumulators (4 consecutive warps, m64nN, N up to 256; a `coop` fragment scope
with warpgroup-uniform arguments, `warp_id // 4`, in the convergence analysis; each thread's registers are the
mma.sync m16n8 layout of its warp's 16 rows, so stores reuse the PTX coop store); (3) operands read from
shared memory through 64-bit matrix descriptors (start address >> 4, leading and stride byte offsets >> 4,
swizzle mode), which need the tile in the core-matrix layout (8 rows x 16 contiguous bytes) or the 128-byte
XOR swizzle, not sarek's padded row-major arrays: a shared-array layout (`shared(T, shape, swizzle=...)`) that
element accesses, copy_async and coop loads address through (16-byte chunks stay whole, so cp.async fits);
(4) `wgmma.fence` / `commit_group` / `wait_group N` placed so one K step's MMAs run while the next stage is
copied (an asynchronous `coop.mma` with an explicit wait, or a wait before every barrier that releases a
stage). TMA (`cp.async.bulk.tensor`) additionally needs host-built tensor maps (cuTensorMapEncodeTiled).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import sarek  # noqa: E402
from sarek import Array, TypeVar, bf16, coop, f16, f32, kernel, pragma  # noqa: E402
from sarek.gpu import (barrier, block_idx_x, block_idx_y, copy_async, copy_async_commit, copy_async_wait,  # noqa: E402
                       local_array, shared, thread_idx_x, warp_id)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gemm_pipelines import (  # noqa: E402  pyright: ignore[reportMissingImports]
    BNW, TW, gemm_async3_4w_k64, gemm_async4_4w_fp, gemm_async4_4w_unroll, gemm_async4_4w_unroll_grp,
    gemm_async4_wide_dyn, gemm_global, gemm_wgmma)

BM, BN, BK = 128, 128, 32
WM, WN = 64, 32
THREADS = 256
PA, PB = BK + 8, BN + 8  # padded shared rows (multiples of 8 halves: wmma's ldm rule)
REPS = 10

T = TypeVar("T", f16, bf16)


@kernel(block=THREADS)
def gemm(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    sa = shared(T, (BM, PA))
    sb = shared(T, (BK, PB))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    a = coop.fragment("a", T, WM, 16)
    b = coop.fragment("b", T, 16, WN)
    acc = coop.fragment("acc", f32, WM, WN)
    coop.fill(acc, 0.0)
    for k in range(0, A.shape[1], BK):
        for e in range(t, BM * BK, THREADS):
            sa[e // BK, e % BK] = A[i0 + e // BK, k + e % BK]
        for e in range(t, BK * BN, THREADS):
            sb[e // BN, e % BN] = B[k + e // BN, j0 + e % BN]
        barrier()
        for kk in range(0, BK, 16):
            coop.load(a, sa, wy * WM, kk)
            coop.load(b, sb, kk, wx * WN)
            coop.mma(acc, a, b, acc)
        barrier()
    coop.store(acc, C, i0 + wy * WM, j0 + wx * WN)


NA, NB = BM * BK // THREADS, BK * BN // THREADS  # elements of A and of B each thread stages per K step


@kernel(block=THREADS)
def gemm_db(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm` with the next K step's elements prefetched into registers (unrolled) while the warps multiply the
    current one, and two shared stages: one barrier per K step instead of two."""
    sa = shared(T, (2 * BM, PA))
    sb = shared(T, (2 * BK, PB))
    ra = local_array(T, NA)
    rb = local_array(T, NB)
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    kt = A.shape[1]
    a = coop.fragment("a", T, WM, 16)
    b = coop.fragment("b", T, 16, WN)
    acc = coop.fragment("acc", f32, WM, WN)
    coop.fill(acc, 0.0)
    with pragma("unroll"):
        for r in range(NA):
            ra[r] = A[i0 + (t + r * THREADS) // BK, (t + r * THREADS) % BK]
    with pragma("unroll"):
        for r in range(NB):
            rb[r] = B[(t + r * THREADS) // BN, j0 + (t + r * THREADS) % BN]
    for k in range(0, kt, BK):
        s = (k // BK) % 2
        with pragma("unroll"):
            for r in range(NA):
                sa[s * BM + (t + r * THREADS) // BK, (t + r * THREADS) % BK] = ra[r]
        with pragma("unroll"):
            for r in range(NB):
                sb[s * BK + (t + r * THREADS) // BN, (t + r * THREADS) % BN] = rb[r]
        barrier()
        if k + BK < kt:
            with pragma("unroll"):
                for r in range(NA):
                    ra[r] = A[i0 + (t + r * THREADS) // BK, k + BK + (t + r * THREADS) % BK]
            with pragma("unroll"):
                for r in range(NB):
                    rb[r] = B[k + BK + (t + r * THREADS) // BN, j0 + (t + r * THREADS) % BN]
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * WM, kk)
                coop.load(b, sb, s * BK + kk, wx * WN)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * WM, j0 + wx * WN)


T4 = 128  # threads of gemm_db4: 4 warps (2x2), each a 64x64 accumulator (16 wmma fragments)
NA4, NB4 = BM * BK // T4, BK * BN // T4


@kernel(block=T4)
def gemm_db4(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_db` with 4 warps of 64x64 (more fragments per warp: each `a` fragment is reused across 4 pieces of
    b and each `b` one across 4 of a, half the shared-memory reads per mma of 8 warps of 64x32)."""
    sa = shared(T, (2 * BM, PA))
    sb = shared(T, (2 * BK, PB))
    ra = local_array(T, NA4)
    rb = local_array(T, NB4)
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    kt = A.shape[1]
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    with pragma("unroll"):
        for r in range(NA4):
            ra[r] = A[i0 + (t + r * T4) // BK, (t + r * T4) % BK]
    with pragma("unroll"):
        for r in range(NB4):
            rb[r] = B[(t + r * T4) // BN, j0 + (t + r * T4) % BN]
    for k in range(0, kt, BK):
        s = (k // BK) % 2
        with pragma("unroll"):
            for r in range(NA4):
                sa[s * BM + (t + r * T4) // BK, (t + r * T4) % BK] = ra[r]
        with pragma("unroll"):
            for r in range(NB4):
                sb[s * BK + (t + r * T4) // BN, (t + r * T4) % BN] = rb[r]
        barrier()
        if k + BK < kt:
            with pragma("unroll"):
                for r in range(NA4):
                    ra[r] = A[i0 + (t + r * T4) // BK, k + BK + (t + r * T4) % BK]
            with pragma("unroll"):
                for r in range(NB4):
                    rb[r] = B[k + BK + (t + r * T4) // BN, j0 + (t + r * T4) % BN]
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * 64, kk)
                coop.load(b, sb, s * BK + kk, wx * 64)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


# Asynchronous-copy pipelines (`sarek.gpu.copy_async`: cp.async on cuda and ptx): each thread copies 16-byte
# chunks (8 halves) of the A and B tiles straight into shared memory, STAGES tiles in flight, one barrier per K
# step. The static shared-memory limit (48 KiB) bounds STAGES x tile: 2 stages of K=32 or 4 of K=16.
CH = 8  # halves per 16-byte copy
assert BM == 2 * THREADS // (BK // CH) and BK == 2 * THREADS // (BN // CH)  # gemm_async: two chunks of each per thread


@kernel(block=THREADS)
def gemm_async(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """Two-stage cp.async pipeline, 128x128x32 tiles (padded rows: no ldmatrix bank conflicts), 8 warps of
    64x32: the copies of K step k+1 fly while the warps multiply step k. Each thread copies rows ra and ra + 64
    of the A tile and rows rb and rb + 16 of the B tile (one 16-byte chunk each)."""
    sa = shared(T, (2 * BM, PA))
    sb = shared(T, (2 * BK, PB))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK
    ra = t // (BK // CH)
    ca = (t % (BK // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, WM, 16)
    b = coop.fragment("b", T, 16, WN)
    acc = coop.fragment("acc", f32, WM, WN)
    coop.fill(acc, 0.0)
    copy_async(sa[ra, ca], A[i0 + ra, ca], CH)
    copy_async(sa[ra + 64, ca], A[i0 + ra + 64, ca], CH)
    copy_async(sb[rb, cb], B[rb, j0 + cb], CH)
    copy_async(sb[rb + 16, cb], B[rb + 16, j0 + cb], CH)
    copy_async_commit()
    for kt in range(nk):
        s = kt % 2
        copy_async_wait(0)
        barrier()
        if kt + 1 < nk:
            n = 1 - s
            k = (kt + 1) * BK
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sa[n * BM + ra + 64, ca], A[i0 + ra + 64, k + ca], CH)
            copy_async(sb[n * BK + rb, cb], B[k + rb, j0 + cb], CH)
            copy_async(sb[n * BK + rb + 16, cb], B[k + rb + 16, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * WM, kk)
                coop.load(b, sb, s * BK + kk, wx * WN)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * WM, j0 + wx * WN)


S4, BK4 = 4, 16  # gemm_async4: 4 stages of K=16
PA4 = BK4 + 8


@kernel(block=THREADS)
def gemm_async4(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """Four-stage cp.async pipeline, 128x128x16 tiles, 8 warps of 64x32: three K steps in flight while the
    warps multiply one (each thread one 16-byte copy of A and one of B per step)."""
    sa = shared(T, (S4 * BM, PA4))
    sb = shared(T, (S4 * BK4, PB))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK4
    ra = t // (BK4 // CH)
    ca = (t % (BK4 // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, WM, 16)
    b = coop.fragment("b", T, 16, WN)
    acc = coop.fragment("acc", f32, WM, WN)
    coop.fill(acc, 0.0)
    for p in range(S4 - 1):
        if p < nk:
            copy_async(sa[p * BM + ra, ca], A[i0 + ra, p * BK4 + ca], CH)
            copy_async(sb[p * BK4 + rb, cb], B[p * BK4 + rb, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S4
        copy_async_wait(S4 - 2)
        barrier()
        if kt + S4 - 1 < nk:
            n = (kt + S4 - 1) % S4
            k = (kt + S4 - 1) * BK4
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sb[n * BK4 + rb, cb], B[k + rb, j0 + cb], CH)
        copy_async_commit()
        coop.load(a, sa, s * BM + wy * WM, 0)
        coop.load(b, sb, s * BK4, wx * WN)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * WM, j0 + wx * WN)


T4A = 128  # gemm_async_4w: 4 warps (2x2) of 64x64 accumulators, the classic CUTLASS 128x128x32 shape


@kernel(block=T4A)
def gemm_async_4w(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async` with 4 warps of 64x64: each `a` piece is reused across 8 mma of b and each `b` piece across
    4 of a (half the ldmatrix per mma of 8 warps of 64x32); no staging registers (cp.async), so the register
    pressure that slowed `sarek db 4w` is only the accumulators'. Each thread copies 4 chunks of A and 4 of B."""
    sa = shared(T, (2 * BM, PA))
    sb = shared(T, (2 * BK, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK
    ra = t // (BK // CH)
    ca = (t % (BK // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    with pragma("unroll"):
        for r in range(4):
            copy_async(sa[ra + 32 * r, ca], A[i0 + ra + 32 * r, ca], CH)
            copy_async(sb[rb + 8 * r, cb], B[rb + 8 * r, j0 + cb], CH)
    copy_async_commit()
    for kt in range(nk):
        s = kt % 2
        copy_async_wait(0)
        barrier()
        if kt + 1 < nk:
            n = 1 - s
            k = (kt + 1) * BK
            with pragma("unroll"):
                for r in range(4):
                    copy_async(sa[n * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, k + ca], CH)
                    copy_async(sb[n * BK + rb + 8 * r, cb], B[k + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * 64, kk)
                coop.load(b, sb, s * BK + kk, wx * 64)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


@kernel(block=T4A)
def gemm_async4_4w(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async4`'s four stages of K=16 with `gemm_async_4w`'s 4 warps of 64x64 (each thread copies 2 chunks
    of A and 2 of B per step): the deeper pipeline and the warp tile that halves shared-memory reads per mma."""
    sa = shared(T, (S4 * BM, PA4))
    sb = shared(T, (S4 * BK4, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK4
    ra = t // (BK4 // CH)
    ca = (t % (BK4 // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for p in range(S4 - 1):
        if p < nk:
            copy_async(sa[p * BM + ra, ca], A[i0 + ra, p * BK4 + ca], CH)
            copy_async(sa[p * BM + ra + 64, ca], A[i0 + ra + 64, p * BK4 + ca], CH)
            copy_async(sb[p * BK4 + rb, cb], B[p * BK4 + rb, j0 + cb], CH)
            copy_async(sb[p * BK4 + rb + 8, cb], B[p * BK4 + rb + 8, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S4
        copy_async_wait(S4 - 2)
        barrier()
        if kt + S4 - 1 < nk:
            n = (kt + S4 - 1) % S4
            k = (kt + S4 - 1) * BK4
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sa[n * BM + ra + 64, ca], A[i0 + ra + 64, k + ca], CH)
            copy_async(sb[n * BK4 + rb, cb], B[k + rb, j0 + cb], CH)
            copy_async(sb[n * BK4 + rb + 8, cb], B[k + rb + 8, j0 + cb], CH)
        copy_async_commit()
        coop.load(a, sa, s * BM + wy * 64, 0)
        coop.load(b, sb, s * BK4, wx * 64)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


BN2, S3 = 256, 3  # gemm_async_wide: 128x256 block tiles, 3 stages of K=16
PB2 = BN2 + 8


@kernel(block=THREADS)
def gemm_async_wide(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """128x256 block tiles (each A element feeds 256 columns: half the global traffic per flop of 128x128), 8
    warps (2x4) of 64x64, K steps of 16 in 3 cp.async stages (44 KiB of shared memory, under the 48 KiB static
    limit). Launched with grid (N / 256, M / 128)."""
    sa = shared(T, (S3 * BM, PA4))
    sb = shared(T, (S3 * BK4, PB2))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN2
    t = thread_idx_x
    nk = A.shape[1] // BK4
    ra = t // (BK4 // CH)
    ca = (t % (BK4 // CH)) * CH
    rb = t // (BN2 // CH)
    cb = (t % (BN2 // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for p in range(S3 - 1):
        if p < nk:
            copy_async(sa[p * BM + ra, ca], A[i0 + ra, p * BK4 + ca], CH)
            copy_async(sb[p * BK4 + rb, cb], B[p * BK4 + rb, j0 + cb], CH)
            copy_async(sb[p * BK4 + rb + 8, cb], B[p * BK4 + rb + 8, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S3
        copy_async_wait(S3 - 2)
        barrier()
        if kt + S3 - 1 < nk:
            n = (kt + S3 - 1) % S3
            k = (kt + S3 - 1) * BK4
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sb[n * BK4 + rb, cb], B[k + rb, j0 + cb], CH)
            copy_async(sb[n * BK4 + rb + 8, cb], B[k + rb + 8, j0 + cb], CH)
        copy_async_commit()
        coop.load(a, sa, s * BM + wy * 64, 0)
        coop.load(b, sb, s * BK4, wx * 64)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


# Past the 48 KiB static limit: deeper pipelines of 128x128x32 tiles, whose shared arrays the cuda and ptx
# lowerings place in the dynamic shared-memory window (sarek.analysis.shared_window), sized at launch.
S3D, S4D = 3, 4


@kernel(block=THREADS)
def gemm_async3_dyn(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async` with three stages of K=32 (56 KiB of shared memory: the dynamic window): two K steps in
    flight while the 8 warps of 64x32 multiply one; the stage written at step kt is the one read at kt - 1,
    released by step kt's barrier."""
    sa = shared(T, (S3D * BM, PA))
    sb = shared(T, (S3D * BK, PB))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK
    ra = t // (BK // CH)
    ca = (t % (BK // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, WM, 16)
    b = coop.fragment("b", T, 16, WN)
    acc = coop.fragment("acc", f32, WM, WN)
    coop.fill(acc, 0.0)
    for p in range(S3D - 1):
        if p < nk:
            copy_async(sa[p * BM + ra, ca], A[i0 + ra, p * BK + ca], CH)
            copy_async(sa[p * BM + ra + 64, ca], A[i0 + ra + 64, p * BK + ca], CH)
            copy_async(sb[p * BK + rb, cb], B[p * BK + rb, j0 + cb], CH)
            copy_async(sb[p * BK + rb + 16, cb], B[p * BK + rb + 16, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S3D
        copy_async_wait(S3D - 2)
        barrier()
        if kt + S3D - 1 < nk:
            n = (kt + S3D - 1) % S3D
            k = (kt + S3D - 1) * BK
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sa[n * BM + ra + 64, ca], A[i0 + ra + 64, k + ca], CH)
            copy_async(sb[n * BK + rb, cb], B[k + rb, j0 + cb], CH)
            copy_async(sb[n * BK + rb + 16, cb], B[k + rb + 16, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * WM, kk)
                coop.load(b, sb, s * BK + kk, wx * WN)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * WM, j0 + wx * WN)


@kernel(block=T4A)
def gemm_async4_4w_dyn(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async_4w` (4 warps of 64x64) with four stages of K=32 (74 KiB of shared memory: the dynamic
    window): three K steps in flight; each thread copies 4 chunks of A and 4 of B per step."""
    sa = shared(T, (S4D * BM, PA))
    sb = shared(T, (S4D * BK, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK
    ra = t // (BK // CH)
    ca = (t % (BK // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for p in range(S4D - 1):
        if p < nk:
            with pragma("unroll"):
                for r in range(4):
                    copy_async(sa[p * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, p * BK + ca], CH)
                    copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S4D
        copy_async_wait(S4D - 2)
        barrier()
        if kt + S4D - 1 < nk:
            n = (kt + S4D - 1) % S4D
            k = (kt + S4D - 1) * BK
            with pragma("unroll"):
                for r in range(4):
                    copy_async(sa[n * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, k + ca], CH)
                    copy_async(sb[n * BK + rb + 8 * r, cb], B[k + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * 64, kk)
                coop.load(b, sb, s * BK + kk, wx * 64)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


@kernel(block=THREADS)
def gemm_async3_wide_dyn(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async_wide` (128x256 block tiles, 8 warps of 64x64) with three stages of K=32 (80 KiB of shared
    memory: the dynamic window); each thread copies 2 chunks of A and 4 of B per step. Grid (N / 256, M / 128)."""
    sa = shared(T, (S3D * BM, PA))
    sb = shared(T, (S3D * BK, PB2))
    wy = warp_id // 4
    wx = warp_id % 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN2
    t = thread_idx_x
    nk = A.shape[1] // BK
    ra = t // (BK // CH)
    ca = (t % (BK // CH)) * CH
    rb = t // (BN2 // CH)
    cb = (t % (BN2 // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for p in range(S3D - 1):
        if p < nk:
            copy_async(sa[p * BM + ra, ca], A[i0 + ra, p * BK + ca], CH)
            copy_async(sa[p * BM + ra + 64, ca], A[i0 + ra + 64, p * BK + ca], CH)
            with pragma("unroll"):
                for r in range(4):
                    copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S3D
        copy_async_wait(S3D - 2)
        barrier()
        if kt + S3D - 1 < nk:
            n = (kt + S3D - 1) % S3D
            k = (kt + S3D - 1) * BK
            copy_async(sa[n * BM + ra, ca], A[i0 + ra, k + ca], CH)
            copy_async(sa[n * BM + ra + 64, ca], A[i0 + ra + 64, k + ca], CH)
            with pragma("unroll"):
                for r in range(4):
                    copy_async(sb[n * BK + rb + 8 * r, cb], B[k + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK, 16):
                coop.load(a, sa, s * BM + wy * 64, kk)
                coop.load(b, sb, s * BK + kk, wx * 64)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


#: the candidates, one table row per device each: (row name, kernel, threads per block, columns of C per block)
KERNELS = [("sarek", gemm, THREADS, BN), ("sarek db", gemm_db, THREADS, BN), ("sarek db 4w", gemm_db4, T4, BN),
           ("sarek async2", gemm_async, THREADS, BN), ("sarek async4", gemm_async4, THREADS, BN),
           ("sarek async2 4w", gemm_async_4w, T4A, BN), ("sarek async4 4w", gemm_async4_4w, T4A, BN),
           ("sarek async3 wide", gemm_async_wide, THREADS, BN2), ("sarek async3 dyn", gemm_async3_dyn, THREADS, BN),
           ("sarek async4 4w dyn", gemm_async4_4w_dyn, T4A, BN),
           ("sarek async3 wide dyn", gemm_async3_wide_dyn, THREADS, BN2),
           ("sarek async4 4w unroll", gemm_async4_4w_unroll, T4A, BN),
           ("sarek async4 4w unroll grp", gemm_async4_4w_unroll_grp, T4A, BN),
           ("sarek async4 wide dyn", gemm_async4_wide_dyn, THREADS, BN2),
           ("sarek async4 4w fp", gemm_async4_4w_fp, T4A, BN), ("sarek async3 4w k64", gemm_async3_4w_k64, T4A, BN),
           ("sarek wgmma", gemm_wgmma, TW, BNW), ("sarek global 4w", gemm_global, T4A, BN)]
#: rows a Vulkan device runs (`--devices vulkan-glsl`): those within 48 KiB of shared arrays (the H200's Vulkan
#: limit; the dynamic-window rows are refused at launch with it) and without warpgroup fragments (PTX's)
VULKAN_ROWS = ("sarek", "sarek db", "sarek db 4w", "sarek async2", "sarek async4", "sarek async2 4w",
               "sarek async4 4w", "sarek async3 wide", "sarek global 4w")
VK_REPS = 3
#: rows of warpgroup fragments (Hopper's wgmma): PTX only (`.target sm_90a`, which the ptx device writes on compute
#: capability 9.0); the cuda device refuses them with the reason
WGMMA_ROWS = ("sarek wgmma",)


def dry_run() -> int:
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.types import bf16_from_f32, bf16_to_f32

    from sarek.validate import ptx as ptxas

    for name, kern, _, _ in KERNELS:
        for t in (f16, bf16):
            if name in WGMMA_ROWS:
                src = kern[t].source("ptx", arch="sm_90a")
                ptxas.check(src, "sm_90a")
                print(f"{name} ptx {t.name}: ptxas sm_90a ok, {src.count('wgmma.mma_async')} wgmma.mma_async, "
                      f"{src.count('wgmma.wait_group')} wgmma.wait_group; cuda refuses it (warpgroup fragments)")
                continue
            ptx = nvrtc_compile(kern[t].source("cuda"), "sm_90", output="ptx").decode()
            print(f"{name} cuda {t.name}: NVRTC ok, {ptx.count('wmma.mma.sync')} wmma.mma.sync in the PTX")
            src = kern[t].source("ptx")
            ptxas.check(src)
            print(f"{name} ptx {t.name}: ptxas ok, {src.count('mma.sync')} mma.sync, {src.count('ldmatrix')} ldmatrix")
    from sarek.validate import glsl

    for name, kern, _, _ in KERNELS:
        if name in VULKAN_ROWS:
            glsl.check(kern[f16].source("glsl"))
            print(f"{name} glsl f16: glslang 13 + spirv-val ok (bf16 refused on GLSL: the pinned glslang lacks "
                  "GL_EXT_bfloat16)")
    rng = np.random.default_rng(0)
    m, n, k = 128, 256, 64
    for t in (f16, bf16):
        a32, b32 = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
        a, b = (a32.astype(np.float16), b32.astype(np.float16)) if t is f16 else (bf16_from_f32(a32), bf16_from_f32(b32))
        wa = a.astype(np.float64) if t is f16 else bf16_to_f32(a).astype(np.float64)
        wb = b.astype(np.float64) if t is f16 else bf16_to_f32(b).astype(np.float64)
        for name, kern, _, bn in KERNELS:
            c = np.zeros((m, n), np.float32)
            kern[t].launch(a, b, c, grid=(n // bn, m // BM), device="interp")
            err = float(np.abs(c - wa @ wb).max())
            print(f"{name} interp {t.name} {m}x{n}x{k}: max error {err:.2e} vs the exact product")
            if err > 1e-3:
                return 1
    return 0


def triton_matmul() -> Any:
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        pa = a + rm[:, None] * sam + rk[None, :] * sak
        pb = b + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for _ in range(0, K, BLOCK_K):
            acc += tl.dot(tl.load(pa), tl.load(pb))
            pa += BLOCK_K * sak
            pb += BLOCK_K * sbk
        tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc)

    def run(x: Any, y: Any, out: Any) -> None:
        M, K = x.shape
        N = y.shape[1]
        grid = (M // 128, N // 128)
        mm[grid](x, y, out, M, N, K, x.stride(0), x.stride(1), y.stride(0), y.stride(1), out.stride(0),
                 out.stride(1), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)

    return run


def bench(sizes: list[int], devices: list[str], out: Path) -> int:
    import torch

    def timed(fn: Any) -> float:
        fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(5):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(REPS):
                fn()
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e) / 1e3 / REPS)
        return statistics.median(times)

    tri = triton_matmul()
    rows: list[dict[str, Any]] = []
    bad = 0
    for dt_name, st, tt in (("f16", f16, torch.float16), ("bf16", bf16, torch.bfloat16)):
        for n in sizes:
            g = torch.Generator(device="cuda").manual_seed(n)
            x = torch.randn(n, n, device="cuda", dtype=tt, generator=g)
            y = torch.randn(n, n, device="cuda", dtype=tt, generator=g)
            ref = x.float() @ y.float()
            scale = float(ref.abs().max())
            flop = 2.0 * n ** 3
            t_cublas = timed(lambda: torch.matmul(x, y))
            out32 = torch.empty(n, n, device="cuda", dtype=torch.float32)
            contenders: list[tuple[str, Any]] = [("triton tl.dot", lambda: tri(x, y, out32))]
            for dev in (d for d in devices if not d.startswith("vulkan")):
                for name, kern, threads, bn in KERNELS:
                    contenders.append((f"{name} {dev}", lambda dev=dev, kern=kern, threads=threads, bn=bn: kern[st].launch(
                        x, y, out32, grid=(n // bn, n // BM), block=threads, device=dev)))
            rows.append({"dtype": dt_name, "n": n, "impl": "torch.matmul (cuBLAS)", "tflops": flop / t_cublas / 1e12,
                         "ratio": 1.0, "error": 0.0})
            for name, fn in contenders:
                out32.zero_()
                try:
                    fn()
                    torch.cuda.synchronize()
                except Exception as ex:  # a refusal (ptx): reported with its reason
                    rows.append({"dtype": dt_name, "n": n, "impl": name, "refused": str(ex).splitlines()[0]})
                    continue
                err = float((out32 - ref).abs().max()) / scale
                rows.append(measured(dt_name, n, name, err, timed(fn), t_cublas, flop))
                bad += not rows[-1]["ok"]
            for dev in (d for d in devices if d.startswith("vulkan")):
                bad += vulkan_rows(dev, dt_name, st, n, x, y, ref, scale, flop, t_cublas, rows)
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench_gemm.json").write_text(json.dumps(rows, indent=1))
    print(f"{'dtype':5} {'n':>5} {'implementation':24} {'TFLOP/s':>8} {'x cuBLAS':>9} {'rel err':>8}")
    for r in rows:
        if "refused" in r:
            print(f"{r['dtype']:5} {r['n']:5} {r['impl']:24} refused: {r['refused'][:90]}")
        else:
            flag = "" if r.get("ok", True) else "  WRONG"
            print(f"{r['dtype']:5} {r['n']:5} {r['impl']:24} {r['tflops']:8.1f} {r['ratio']:9.3f} {r['error']:8.1e}{flag}")
    return 1 if bad else 0


def measured(dt_name: str, n: int, impl: str, err: float, t: float, t_cublas: float, flop: float) -> dict[str, Any]:
    """One timed contender's row: TFLOP/s, the ratio to cuBLAS, its relative error and whether it is right."""
    return {"dtype": dt_name, "n": n, "impl": impl, "tflops": flop / t / 1e12, "ratio": t_cublas / t, "error": err,
            "ok": err < 1e-2}


def vulkan_rows(dev_name: str, dt_name: str, st: Any, n: int, x: Any, y: Any, ref: Any, scale: float, flop: float,
                t_cublas: float, rows: list[dict[str, Any]]) -> int:
    """The Vulkan device's rows (`--devices vulkan-glsl`, VULKAN_ROWS): host arrays (uploaded by each launch), each
    launch timed by the device's GPU timestamps around its dispatch (`gpu_timer`, the upload outside them), the
    median of VK_REPS. Returns the number of wrong results."""
    import torch

    dev = sarek.get_device(dev_name)
    bits = (lambda t: t.cpu().numpy()) if dt_name == "f16" else \
        (lambda t: t.view(torch.int16).cpu().numpy().view(np.uint16))  # bf16: its bits
    xa, ya, want = bits(x), bits(y), ref.cpu().numpy()
    bad = 0
    for name, kern, threads, bn in KERNELS:
        if name not in VULKAN_ROWS:
            continue
        c = np.zeros((n, n), np.float32)

        def launch(kern: Any = kern, threads: int = threads, bn: int = bn, c: Any = c) -> None:
            kern[st].launch(xa, ya, c, grid=(n // bn, n // BM), block=threads, device=dev)

        label = f"{name} {dev_name}"
        try:
            launch()
        except Exception as ex:  # a refusal (bf16 on GLSL): reported with its reason
            rows.append({"dtype": dt_name, "n": n, "impl": label, "refused": str(ex).splitlines()[0]})
            continue
        err = float(np.abs(c - want).max()) / scale
        with dev.gpu_timer() as tm:
            for _ in range(VK_REPS):
                launch()
        rows.append(measured(dt_name, n, label, err, statistics.median(tm.kernels_ms) / 1e3, t_cublas, flop))
        bad += not rows[-1]["ok"]
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="bench-results")
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--devices", default="cuda,ptx")
    ap.add_argument("--rows", default="", help="comma-separated sarek rows to run (default: all), e.g. "
                                                "'sarek db,sarek async2'")
    ap.add_argument("--dry-run", action="store_true", help="no GPU: NVRTC compile and an interpreter check")
    args = ap.parse_args()
    if args.rows:
        want = [r.strip() for r in args.rows.split(",")]
        unknown = [r for r in want if r not in {k[0] for k in KERNELS}]
        if unknown:
            ap.error(f"unknown rows {unknown}; the rows are {[k[0] for k in KERNELS]}")
        KERNELS[:] = [k for k in KERNELS if k[0] in want]
    if args.dry_run:
        return dry_run()
    return bench([int(s) for s in args.sizes.split(",")], args.devices.split(","), Path(args.out))


if __name__ == "__main__":
    sys.exit(main())
