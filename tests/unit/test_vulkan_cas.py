"""atomic_cas on Vulkan. Both devices run it fully: WGSL through wgpu, and GLSL on the driver itself (through
wgpu, whose SPIR-V reader lost the returned old value, gfx-rs/wgpu#9621, a used result was refused)."""

import numpy as np

import sarek
from sarek import Vec, f32, i32, kernel
from sarek.gpu import atomic_cas, global_thread_id


@kernel
def cas_used(cnt: Vec[i32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        old = atomic_cas(cnt, 0, i, i + 1)  # <cas>
        out[i] = f32(old)


@kernel
def cas_discarded(cnt: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        atomic_cas(cnt, 0, i, i + 1)


def test_used_cas_runs_on_wgsl():
    cnt, out = np.zeros(1, np.int32), np.zeros(8, np.float32)
    cas_used.launch(cnt, out, 8, grid=1, block=8, device="vulkan:0")
    assert cnt[0] >= 1 and 0.0 in out  # thread 0's swap always succeeds and sees the initial 0


def test_used_cas_runs_on_glsl():
    cnt, out = np.zeros(1, np.int32), np.full(8, -1.0, np.float32)
    cas_used.launch(cnt, out, 8, grid=1, block=8, device="vulkan-glsl:0")
    # the swaps that succeeded form the chain 0 -> 1 -> ... -> cnt: each returned its expected value
    assert 1 <= cnt[0] <= 8 and 0.0 in out
    assert sorted(set(out.tolist()) & set(map(float, range(int(cnt[0]))))) == list(map(float, range(int(cnt[0]))))


def test_discarded_cas_runs_on_glsl():
    cnt = np.zeros(1, np.int32)
    cas_discarded.launch(cnt, 8, grid=1, block=8, device="vulkan-glsl:0")
    assert 1 <= cnt[0] <= 8
