"""NVIDIA's OpenCL: the real work-group limit and float atomics that finish under contention (issue 34 items 4, 8).

Measured on the H200 (driver 580): CL_KERNEL_WORK_GROUP_SIZE is 256 for every kernel, a 12-register vector add
too, yet blocks of 512 and 1024 run; the limit comes from the registers ptxas reports (`-cl-nv-verbose`). A float
atomic_add through the compare-and-swap loop is quadratic under contention (2^18 threads on one float: 4.7 s;
bench_gpu's atomics_warp at 2^24 never finished); NVIDIA's OpenCL compiles inline PTX, so add/sub use
`atom.global.add` there (2^24 threads: 0.03 s).
"""

from typing import Any

import numpy as np
import pytest

import sarek.runtime as rt
from sarek import Vec, f32, f64, i32, kernel
from sarek.gpu import atomic_add, atomic_sub, block_barrier, block_idx_x, block_idx_y, global_thread_id, shared
from sarek.gpu import block_dim_y, thread_idx_x, thread_idx_y
from sarek.runtime.opencl import nv_registers, nv_thread_limit

# the build log of NVIDIA's OpenCL for a vector add with -cl-nv-verbose (H200, driver 580)
LOG = """(): Warning: Function vadd is a kernel, so overriding noinline attribute. The function may be inlined when called.

ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'helper_k' for 'sm_90a'
ptxas info    : Function properties for helper_k
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers
ptxas info    : Compiling entry function 'vadd' for 'sm_90a'
ptxas info    : Function properties for vadd
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compile time = 2.497 ms"""


def test_registers_of_the_entry_from_the_build_log():
    assert nv_registers(LOG, "vadd") == 12
    assert nv_registers(LOG, "helper_k") == 40
    assert nv_registers("no ptxas output", "vadd") is None


@pytest.mark.parametrize(("regs", "limit"), [(None, 1024), (12, 1024), (32, 1024), (33, 1024), (80, 800), (64, 1024),
                                             (65, 896), (128, 512), (168, 384), (255, 256), (256, 256)])
def test_thread_limit_from_registers(regs: int | None, limit: int):
    """65536 registers per block, allocated per warp in units of 256 (multiples of 8 per thread)."""
    assert nv_thread_limit(regs, 1024) == limit


def _nvidia_opencl() -> Any:
    found = [d for d in rt.devices() if d.kind == "opencl" and not getattr(d, "is_pocl", False)]
    assert found, f"no NVIDIA OpenCL device; unavailable: {rt.unavailable}"
    return found[0]


@kernel
def transpose_32x16(src: Vec[f32], dst: Vec[f32], w: i32, h: i32):
    """CUDA samples' tiled transpose: a 32x32 tile, blocks of 32 x (16 or 32) threads on a 2-D grid."""
    t = shared(f32, (32, 33))
    x = block_idx_x * 32 + thread_idx_x
    y = block_idx_y * 32 + thread_idx_y
    for j in range(0, 32, block_dim_y):
        if x < w and y + j < h:
            t[thread_idx_y + j, thread_idx_x] = src[(y + j) * w + x]
    block_barrier()
    x2 = block_idx_y * 32 + thread_idx_x
    y2 = block_idx_x * 32 + thread_idx_y
    for j in range(0, 32, block_dim_y):
        if x2 < h and y2 + j < w:
            dst[(y2 + j) * h + x2] = t[thread_idx_x, thread_idx_y + j]


@kernel
def count_into_one(s: Vec[f32], d: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(s, 0, 1.0)
        atomic_sub(d, 0, 0.5)


@pytest.mark.gpu
@pytest.mark.parametrize("block", [(32, 16), (32, 32)])
def test_blocks_of_512_and_1024_threads_run(block: tuple[int, int]):
    dev = _nvidia_opencl()
    w, h = 256, 192
    a = np.arange(w * h, dtype=np.float32)
    out = np.zeros_like(a)
    transpose_32x16.launch(a, out, w, h, grid=(w // 32, h // 32), block=block, device=dev)
    np.testing.assert_array_equal(out.reshape(w, h), a.reshape(h, w).T)


def test_blocks_of_512_threads_run_on_pocl_too():
    dev = next(d for d in rt.devices() if d.kind == "opencl" and getattr(d, "is_pocl", False))
    w, h = 64, 32
    a = np.arange(w * h, dtype=np.float32)
    out = np.zeros_like(a)
    transpose_32x16.launch(a, out, w, h, grid=(w // 32, h // 32), block=(32, 16), device=dev)
    np.testing.assert_array_equal(out.reshape(w, h), a.reshape(h, w).T)


@pytest.mark.gpu
def test_contended_float_atomics_finish():
    """2^24 threads on one f32 and one f64: the CAS loop would take hours, atom.global.add milliseconds."""
    dev = _nvidia_opencl()
    n = 1 << 24
    s, d = rt.Vector(np.zeros(1, np.float32)), rt.Vector(np.zeros(1, np.float64))
    count_into_one.launch(s, d, n, threads=n, block=256, device=dev)
    assert s.to_numpy()[0] == np.float32(n)  # every partial sum up to 2^24 is exact in f32
    assert d.to_numpy()[0] == -0.5 * n
