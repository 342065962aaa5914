"""Kernels written the way CUDA programmers write them (issue 34), each with its numpy reference:

- `sgemm_reg`: a register-tiled SGEMM: a 64x64 block tile, 16x16 threads each accumulating a 4x4 tile of C in a
  `local_array` (read before it is written: slots start at zero), A and B staged through shared memory,
  the products accumulated in nested constant-trip loops. It is launched twice into the same output, so a
  device that leaves the previous launch's local memory in the accumulator shows it (the result doubles).
- `fresh_slots`: a local and a shared array read before any write (`+=` on a fresh slot), launched twice.
- `bitonic_shared`: the CUDA samples' `bitonicSortShared`: each block sorts 512 keys (and their values) in
  shared memory, `ddd = dir ^ u32((tid & (size // 2)) != 0)` picking each comparator's direction. The samples
  launch 512-thread blocks on 1024 keys; here blocks are 256 threads on 512 keys (every CPU device takes
  256), the same kernel at half the block.
"""

import numpy as np

from sarek import Array, Vec, f32, i32, kernel, u32
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_idx_x, block_idx_y, local_array, shared, thread_idx_x, thread_idx_y

BM, BN, BK = 64, 64, 16  # the block's tile of C and the depth of one shared-memory stage
TM, TN = 4, 4  # each thread's tile of C (16 x 16 threads)
M, K, N = 70, 40, 66  # not multiples of the tiles: the edges are guarded


@kernel
def sgemm_reg(a: Array[f32, 2], b: Array[f32, 2], c: Array[f32, 2]):
    """c = a @ b; each thread accumulates a TM x TN tile of c in a local array."""
    a_s = shared(f32, (BM, BK))
    b_s = shared(f32, (BK, BN))
    acc = local_array(f32, (TM, TN))
    tx = thread_idx_x
    ty = thread_idx_y
    tid = ty * 16 + tx
    row0 = block_idx_y * BM
    col0 = block_idx_x * BN
    m = a.shape[0]
    kd = a.shape[1]
    n = b.shape[1]
    for k0 in range(0, kd, BK):
        for l in range(4):
            e = tid + l * 256
            ar = e // BK
            ac = e % BK
            a_s[ar, ac] = a[row0 + ar, k0 + ac] if row0 + ar < m and k0 + ac < kd else 0.0
            br = e // BN
            bc = e % BN
            b_s[br, bc] = b[k0 + br, col0 + bc] if k0 + br < kd and col0 + bc < n else 0.0
        barrier()
        for kk in range(BK):
            for i in range(TM):
                for j in range(TN):
                    acc[i, j] += a_s[ty * TM + i, kk] * b_s[kk, tx * TN + j]
        barrier()
    for i in range(TM):
        for j in range(TN):
            r = row0 + ty * TM + i
            q = col0 + tx * TN + j
            if r < m and q < n:
                c[r, q] = acc[i, j]


@kernel
def fresh_slots(out: Vec[f32], bumps: i32):
    """Reads before writes: each thread adds to a local and a shared slot it never wrote. Both start at zero,
    on every launch (the case launches twice: a device that kept the last launch's memory doubles them)."""
    s = shared(f32, (2, 128))
    t = local_array(f32, 8)
    tid = thread_idx_x
    for k in range(bumps):
        t[k % 8] += 1.0
    s[tid // 128, tid % 128] += t[tid % 8] + 1.0
    barrier()
    out[block_idx_x * 256 + tid] = s[tid // 128, tid % 128] + s[1 - tid // 128, (tid + 1) % 128]


def _fresh_args(n):
    return (np.zeros(2 * 256, np.float32), 11)


def _fresh_ref(a):
    tid = np.arange(256)
    bumps = a[1]
    t = np.array([len(range(j, bumps, 8)) for j in range(8)], np.float32)
    s = (t[tid % 8] + 1.0).reshape(2, 128)
    mine = s[tid // 128, tid % 128]
    other = s[1 - tid // 128, (tid + 1) % 128]
    return {0: np.tile(mine + other, 2)}


def _fresh_twice(kern, args, device):
    for _ in range(2):
        kern.launch(*args, grid=2, block=256, device=device)


SHARED = 512  # keys per block (the samples' SHARED_SIZE_LIMIT at half the block)


@kernel
def bitonic_shared(dst_key: Vec[u32], dst_val: Vec[u32], src_key: Vec[u32], src_val: Vec[u32], dir: u32):
    """Sort each block's SHARED keys (ascending for dir = 1) with their values, in shared memory."""
    s_key = shared(u32, SHARED)
    s_val = shared(u32, SHARED)
    tid = thread_idx_x
    g = block_idx_x * SHARED + tid
    s_key[tid] = src_key[g]
    s_val[tid] = src_val[g]
    s_key[tid + SHARED // 2] = src_key[g + SHARED // 2]
    s_val[tid + SHARED // 2] = src_val[g + SHARED // 2]
    size = 2
    while size <= SHARED:
        ddd = dir ^ u32((tid & (size // 2)) != 0) if size < SHARED else dir
        stride = size // 2
        while stride > 0:
            barrier()
            pos = 2 * tid - (tid & (stride - 1))
            ka = s_key[pos]
            kb = s_key[pos + stride]
            if u32(ka > kb) == ddd:
                va = s_val[pos]
                s_key[pos] = kb
                s_key[pos + stride] = ka
                s_val[pos] = s_val[pos + stride]
                s_val[pos + stride] = va
            stride = stride // 2
        size = size * 2
    barrier()
    dst_key[g] = s_key[tid]
    dst_val[g] = s_val[tid]
    dst_key[g + SHARED // 2] = s_key[tid + SHARED // 2]
    dst_val[g + SHARED // 2] = s_val[tid + SHARED // 2]


def _sgemm_args(n):
    rng = np.random.default_rng(341)
    return (rng.random((M, K), dtype=np.float32) - 0.5, rng.random((K, N), dtype=np.float32) - 0.5,
            np.zeros((M, N), np.float32))


def _sgemm_twice(kern, args, device):
    """Two launches into the same c: a stale accumulator would double the second result."""
    grid = ((N + BN - 1) // BN, (M + BM - 1) // BM)
    for _ in range(2):
        kern.launch(*args, grid=grid, block=(16, 16), device=device)


BLOCKS = 3


def _bitonic_args(n):
    rng = np.random.default_rng(342)
    keys = rng.integers(0, 2**32, BLOCKS * SHARED, dtype=np.uint64).astype(np.uint32)
    keys[:40] = keys[40:80]  # equal keys too
    vals = np.arange(BLOCKS * SHARED, dtype=np.uint32)
    return (np.zeros_like(keys), np.zeros_like(vals), keys, vals, 1)


def _bitonic_ref(a):
    keys = a[2].reshape(BLOCKS, SHARED)
    return {0: np.sort(keys, axis=1).reshape(-1)}


def _bitonic_check_values(kern, args, device):
    kern.launch(*args, grid=BLOCKS, block=SHARED // 2, device=device)
    # the values travel with their keys: each output value names an input key equal to its output key
    assert (args[2][args[1]] == args[0]).all(), "bitonic_shared: a value left its key"
    assert (np.sort(args[1].reshape(BLOCKS, SHARED) // SHARED, axis=1)
            == np.repeat(np.arange(BLOCKS), SHARED).reshape(BLOCKS, SHARED)).all(), "bitonic_shared: values mixed"


CASES = [
    Case("fresh_slots", fresh_slots, _fresh_args, _fresh_ref, launch=_fresh_twice, rtol=0, atol=0,
         features=frozenset({"shared"})),
    Case("sgemm_reg", sgemm_reg, _sgemm_args, lambda a: {2: (a[0].astype(np.float64) @ a[1]).astype(np.float32)},
         launch=_sgemm_twice, rtol=1e-4, atol=1e-5, features=frozenset({"shared"})),
    Case("bitonic_shared", bitonic_shared, _bitonic_args, _bitonic_ref, launch=_bitonic_check_values, rtol=0,
         atol=0, features=frozenset({"shared"})),
]
