"""bench_gemm's deeper cp.async pipelines (rows `sarek async4 4w unroll`, `sarek async4 4w unroll grp`,
`sarek async4 wide dyn`, `sarek async4 4w fp`, `sarek async3 4w k64`, `sarek wgmma`, `sarek global 4w`), kept
apart so bench_gemm.py stays short.

`gemm_async4_4w_dyn`'s K loop steps one stage at a time, so the stage it reads (kt % 4) and the one it refills
((kt + 3) % 4) are run-time values: every K step recomputes each shared address (ldmatrix and cp.async) from
them. Here the loop steps over all four stages at once and the stage loop is unrolled: each stage's shared
offsets are constants, folded into the addresses. `grp` also launches the blocks in groups of GROUP block rows
(block ids walk down a group's rows before moving right), so the blocks resident together share B's column
tiles in L2 (8192^3: B is 128 MiB, past L2). `fp` double-buffers the fragments across a K step's two k16
halves instead, with the barrier between them; `k64` takes K steps of 64 in three stages (half the barriers).
"""

from __future__ import annotations

from sarek import Array, TypeVar, bf16, coop, f16, f32, kernel, pragma
from sarek.gpu import (barrier, block_idx_x, block_idx_y, copy_async, copy_async_commit, copy_async_wait,
                       grid_dim_x, grid_dim_y, shared, thread_idx_x, warp_id)

BM, BN, BK, CH = 128, 128, 32, 8  # block tile, K step, halves per 16-byte copy
PA, PB = BK + 8, BN + 8  # padded shared rows (conflict-free ldmatrix)
S = 4  # stages
T4 = 128  # 4 warps (2x2) of 64x64
BN2 = 256  # the wide rows' block columns
PB2 = BN2 + 8
GROUP = 8  # block rows per launch group (`grp`)

T = TypeVar("T", f16, bf16)


@kernel(block=T4)
def gemm_async4_4w_unroll(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async4_4w_dyn` (four stages of 128x128x32, 4 warps of 64x64, 74 KiB) with the K loop unrolled by
    its stages: stage s of step k0 + s is read and stage (s + 3) % 4 refilled, both constants."""
    sa = shared(T, (S * BM, PA))
    sb = shared(T, (S * BK, PB))
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
        for p in range(S - 1):
            if p < nk:
                with pragma("unroll"):
                    for r in range(4):
                        copy_async(sa[p * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, p * BK + ca], CH)
                        copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
            copy_async_commit()
    for k0 in range(0, nk, S):
        with pragma("unroll"):
            for s in range(S):
                if k0 + s < nk:
                    copy_async_wait(S - 2)
                    barrier()
                    if k0 + s + S - 1 < nk:
                        n = (s + S - 1) % S
                        k = (k0 + s + S - 1) * BK
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


@kernel(block=T4)
def gemm_async4_4w_unroll_grp(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async4_4w_unroll` with the blocks' tiles in groups of GROUP block rows: block id
    b = block_idx_y * grid_dim_x + block_idx_x takes row g0 + (b % (GROUP * gx)) % rows and column
    (b % (GROUP * gx)) // rows of its group g0 (rows: GROUP, fewer in the last group)."""
    sa = shared(T, (S * BM, PA))
    sb = shared(T, (S * BK, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    bid = block_idx_y * grid_dim_x + block_idx_x
    per = GROUP * grid_dim_x
    g0 = (bid // per) * GROUP
    rows = min(grid_dim_y - g0, GROUP)
    i0 = (g0 + (bid % per) % rows) * BM
    j0 = ((bid % per) // rows) * BN
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
        for p in range(S - 1):
            if p < nk:
                with pragma("unroll"):
                    for r in range(4):
                        copy_async(sa[p * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, p * BK + ca], CH)
                        copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
            copy_async_commit()
    for k0 in range(0, nk, S):
        with pragma("unroll"):
            for s in range(S):
                if k0 + s < nk:
                    copy_async_wait(S - 2)
                    barrier()
                    if k0 + s + S - 1 < nk:
                        n = (s + S - 1) % S
                        k = (k0 + s + S - 1) * BK
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


@kernel(block=2 * T4)
def gemm_async4_wide_dyn(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """128x256 block tiles, 8 warps (2x4) of 64x64, four stages of K=32 (106 KiB of the dynamic window), K
    loop unrolled by the stages as `gemm_async4_4w_unroll`; each thread copies 2 chunks of A and 4 of B per
    step. Grid (N / 256, M / 128)."""
    sa = shared(T, (S * BM, PA))
    sb = shared(T, (S * BK, PB2))
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
    with pragma("unroll"):
        for p in range(S - 1):
            if p < nk:
                with pragma("unroll"):
                    for r in range(2):
                        copy_async(sa[p * BM + ra + 64 * r, ca], A[i0 + ra + 64 * r, p * BK + ca], CH)
                with pragma("unroll"):
                    for r in range(4):
                        copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
            copy_async_commit()
    for k0 in range(0, nk, S):
        with pragma("unroll"):
            for s in range(S):
                if k0 + s < nk:
                    copy_async_wait(S - 2)
                    barrier()
                    if k0 + s + S - 1 < nk:
                        n = (s + S - 1) % S
                        k = (k0 + s + S - 1) * BK
                        with pragma("unroll"):
                            for r in range(2):
                                copy_async(sa[n * BM + ra + 64 * r, ca], A[i0 + ra + 64 * r, k + ca], CH)
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


@kernel(block=T4)
def gemm_async4_4w_fp(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async4_4w_dyn` with the fragments double-buffered across the two k16 halves of a K step: the
    second half's fragments (a1, b1) are loaded while the first half multiplies, and the next step's first half
    (a0, b0) after the barrier, while the second half multiplies, so no ldmatrix waits at a barrier with an idle
    tensor core. The barrier of step kt + 1 sits between the halves of step kt (every warp has read stage kt % 4
    by then), and the stage it frees is refilled at once with step kt + 4: all four stages hold data, three in
    flight (prologue: four groups; wait(2) leaves the two newest pending). The K loop is not unrolled by the
    stages: unrolled, CUDA needs 255 registers and spills (124 bytes in bf16)."""
    sa = shared(T, (S * BM, PA))
    sb = shared(T, (S * BK, PB))
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
    a0 = coop.fragment("a", T, 64, 16)
    b0 = coop.fragment("b", T, 16, 64)
    a1 = coop.fragment("a", T, 64, 16)
    b1 = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    with pragma("unroll"):
        for p in range(S):
            if p < nk:
                with pragma("unroll"):
                    for r in range(4):
                        copy_async(sa[p * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, p * BK + ca], CH)
                        copy_async(sb[p * BK + rb + 8 * r, cb], B[p * BK + rb + 8 * r, j0 + cb], CH)
            copy_async_commit()
    copy_async_wait(S - 1)
    barrier()
    coop.load(a0, sa, wy * 64, 0)
    coop.load(b0, sb, 0, wx * 64)
    for kt in range(nk):
        s = kt % S
        coop.load(a1, sa, s * BM + wy * 64, 16)
        coop.load(b1, sb, s * BK + 16, wx * 64)
        coop.mma(acc, a0, b0, acc)
        if kt + 1 < nk:
            copy_async_wait(S - 2)
            barrier()
            if kt + S < nk:
                k = (kt + S) * BK
                with pragma("unroll"):
                    for r in range(4):
                        copy_async(sa[s * BM + ra + 32 * r, ca], A[i0 + ra + 32 * r, k + ca], CH)
                        copy_async(sb[s * BK + rb + 8 * r, cb], B[k + rb + 8 * r, j0 + cb], CH)
            copy_async_commit()
            n = (kt + 1) % S
            coop.load(a0, sa, n * BM + wy * 64, 0)
            coop.load(b0, sb, n * BK, wx * 64)
        coop.mma(acc, a1, b1, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


BK64, S3 = 64, 3  # gemm_async3_4w_k64: three stages of K=64
PA64 = BK64 + 8


@kernel(block=T4)
def gemm_async3_4w_k64(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`gemm_async4_4w_dyn` (4 warps of 64x64) with K steps of 64 in three stages (105 KiB: two blocks per SM
    still fit in 227 KiB): half the barriers and waits per flop, four k16 multiplies between two barriers; each
    thread copies 8 chunks of A (rows ra + 16 r) and 8 of B (rows rb + 8 r) per step."""
    sa = shared(T, (S3 * BM, PA64))
    sb = shared(T, (S3 * BK64, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BN
    t = thread_idx_x
    nk = A.shape[1] // BK64
    ra = t // (BK64 // CH)
    ca = (t % (BK64 // CH)) * CH
    rb = t // (BN // CH)
    cb = (t % (BN // CH)) * CH
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for p in range(S3 - 1):
        if p < nk:
            with pragma("unroll"):
                for r in range(8):
                    copy_async(sa[p * BM + ra + 16 * r, ca], A[i0 + ra + 16 * r, p * BK64 + ca], CH)
                    copy_async(sb[p * BK64 + rb + 8 * r, cb], B[p * BK64 + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
    for kt in range(nk):
        s = kt % S3
        copy_async_wait(S3 - 2)
        barrier()
        if kt + S3 - 1 < nk:
            n = (kt + S3 - 1) % S3
            k = (kt + S3 - 1) * BK64
            with pragma("unroll"):
                for r in range(8):
                    copy_async(sa[n * BM + ra + 16 * r, ca], A[i0 + ra + 16 * r, k + ca], CH)
                    copy_async(sb[n * BK64 + rb + 8 * r, cb], B[k + rb + 8 * r, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BK64, 16):
                coop.load(a, sa, s * BM + wy * 64, kk)
                coop.load(b, sb, s * BK64 + kk, wx * 64)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + wy * 64, j0 + wx * 64)


BKW, BNW, SW = 64, 256, 3  # `sarek wgmma`: K step (four k16 mmas per stage), block columns, stages
TW = 256  # two warpgroups, each 64 rows of the 128-row block tile
PER_A, PER_B = 8 * TW // BKW, 8 * TW // BNW  # rows of A (32) and of B (8) copied per pass


@kernel(block=TW)
def gemm_wgmma(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """`sarek wgmma`: 128x256 block tiles of two warpgroups (each 64x256: one m64n256k16 wgmma per k16), K
    staged by copy_async in three stages of 64 through core-layout shared arrays (144 KiB of the dynamic window).
    Thread t copies 16-byte chunks at row 8 (t // (8 * chunks per row)) + t % 8, chunk (t // 8) % (chunks per
    row): eight consecutive threads fill one 128-byte core matrix (no shared bank conflicts) while reading full
    32-byte sectors of global rows. sarek-wgmma-waits puts the wait before the next K step's barrier: a step's
    wgmmas run while the copies of the stages ahead land. Grid (N / 256, M / 128); K a multiple of 64."""
    sa = shared(T, (SW * BM, BKW), layout="core")
    sb = shared(T, (SW * BKW, BNW), layout="core")
    g = warp_id // 4
    i0 = block_idx_y * BM
    j0 = block_idx_x * BNW
    t = thread_idx_x
    nk = A.shape[1] // BKW
    ra = (t // (8 * (BKW // CH))) * 8 + t % 8
    ca = ((t // 8) % (BKW // CH)) * CH
    rb = (t // (8 * (BNW // CH))) * 8 + t % 8
    cb = ((t // 8) % (BNW // CH)) * CH
    a = coop.fragment("a", T, 64, 16, scope="warpgroup")
    b = coop.fragment("b", T, 16, BNW, scope="warpgroup")
    acc = coop.fragment("acc", f32, 64, BNW, scope="warpgroup")
    coop.fill(acc, 0.0)
    with pragma("unroll"):
        for p in range(SW - 1):
            if p < nk:
                with pragma("unroll"):
                    for r in range(BM // PER_A):
                        copy_async(sa[p * BM + ra + PER_A * r, ca], A[i0 + ra + PER_A * r, p * BKW + ca], CH)
                with pragma("unroll"):
                    for r in range(BKW // PER_B):
                        copy_async(sb[p * BKW + rb + PER_B * r, cb], B[p * BKW + rb + PER_B * r, j0 + cb], CH)
            copy_async_commit()
    for kt in range(nk):
        s = kt % SW
        copy_async_wait(SW - 2)
        barrier()
        if kt + SW - 1 < nk:
            n = (kt + SW - 1) % SW
            k = (kt + SW - 1) * BKW
            with pragma("unroll"):
                for r in range(BM // PER_A):
                    copy_async(sa[n * BM + ra + PER_A * r, ca], A[i0 + ra + PER_A * r, k + ca], CH)
            with pragma("unroll"):
                for r in range(BKW // PER_B):
                    copy_async(sb[n * BKW + rb + PER_B * r, cb], B[k + rb + PER_B * r, j0 + cb], CH)
        copy_async_commit()
        with pragma("unroll"):
            for kk in range(0, BKW, 16):
                coop.load(a, sa, s * BM + g * 64, kk)
                coop.load(b, sb, s * BKW + kk, 0)
                coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0 + g * 64, j0)


@kernel(block=T4)
def gemm_global(A: Array[T, 2], B: Array[T, 2], C: Array[f32, 2]):
    """Row `sarek global 4w`: fragments loaded straight from the global arrays (no shared staging), 4 warps of
    64x64 per 128x128 block tile: what the staged rows gain over reading L1/L2 directly."""
    i0 = block_idx_y * BM + (warp_id // 2) * 64
    j0 = block_idx_x * BN + (warp_id % 2) * 64
    a = coop.fragment("a", T, 64, 16)
    b = coop.fragment("b", T, 16, 64)
    acc = coop.fragment("acc", f32, 64, 64)
    coop.fill(acc, 0.0)
    for k in range(0, A.shape[1], 16):
        coop.load(a, A, i0, k)
        coop.load(b, B, k, j0)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, i0, j0)
