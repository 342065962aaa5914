"""atomic_cas on Vulkan. WGSL runs it fully; the GLSL device refuses, at the atomic_cas, a kernel that uses
the returned old value, because wgpu 0.32's SPIR-V reader loses that value (gfx-rs/wgpu#9621) and the shader
would fail naga validation with a message about scopes. A discarded result compiles and runs there."""

import numpy as np
import pytest

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


def test_used_cas_refused_on_glsl_at_the_call():
    with open(__file__) as f:
        line = next(k + 1 for k, t in enumerate(f.read().splitlines()) if t.endswith("# <cas>"))
    with pytest.raises(sarek.runtime.DeviceError) as info:
        cas_used.launch(np.zeros(1, np.int32), np.zeros(8, np.float32), 8, grid=1, block=8, device="vulkan-glsl:0")
    text = str(info.value)
    assert f"{__file__}:{line}:" in text and "vulkan-glsl:0" in text and "gfx-rs/wgpu#9621" in text, text


def test_discarded_cas_runs_on_glsl():
    cnt = np.zeros(1, np.int32)
    cas_discarded.launch(cnt, 8, grid=1, block=8, device="vulkan-glsl:0")
    assert 1 <= cnt[0] <= 8
