"""vulkan-glsl on the Vulkan driver (lavapipe here, through the `vulkan` binding): limits and features from
the driver, command buffers recorded once and re-submitted, asynchronous launches that the host waits for only
to read, driver errors as DeviceErrors naming the kernel, the persisted pipeline cache, GPU timestamps, and
nothing written to the user's terminal. A missing binding or driver fails these tests (they never skip)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, f32, f64, i32, kernel, u32, u64  # noqa: E402
from sarek.gpu import barrier, global_thread_id, shared, thread_idx_x, warp_size  # noqa: E402
from sarek.runtime.vulkan_driver import DriverError  # noqa: E402
from sarek.runtime.vulkan_glsl import VulkanGlslDevice  # noqa: E402


@kernel
def bump(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = a[i] + 1.0


@kernel
def report_warp(out: Vec[i32]):
    if global_thread_id == 0:
        out[0] = warp_size


@kernel
def too_much_shared(out: Vec[f32]):
    s = shared(f32, 15360)  # 60 KiB: within GLSL's compile-time 64 KiB (4 MiB is refused when compiling), beyond
    # the driver's limit (lavapipe 32 KiB, NVIDIA 48 KiB)
    s[thread_idx_x] = 1.0
    barrier()
    out[thread_idx_x] = s[0]


def dev() -> VulkanGlslDevice:
    d = sarek.get_device("vulkan-glsl:0")
    assert isinstance(d, VulkanGlslDevice), f"vulkan-glsl:0 is {d!r}, not the driver device"
    return d


def test_limits_and_warp_size_come_from_the_driver():
    d = dev()
    info = d.info
    assert d.limits.max_grid == tuple(info.limits["maxComputeWorkGroupCount"])
    assert d.limits.max_threads_per_block == info.limits["maxComputeWorkGroupInvocations"]
    assert d.max_shared_bytes == info.limits["maxComputeSharedMemorySize"]
    out = np.zeros(1, np.int32)
    report_warp.launch(out, grid=1, block=64, device=d)
    assert d.warp_size == info.subgroup_size == out[0]
    assert "shader-f64" in d.features and "subgroup" in d.features  # lavapipe has both
    assert "vulkanMemoryModel" in info.features and "shaderInt64" in info.features
    if info.device_type == "cpu":  # lavapipe has no VK_KHR_cooperative_matrix: no shapes
        assert d.cooperative_matrix_shapes == () and "VK_KHR_cooperative_matrix" not in info.extensions


def test_command_buffers_are_recorded_once_and_resubmitted():
    d = dev()
    v = sarek.Vector(np.zeros(64, np.float32))
    bump.launch(v, 64, grid=1, block=64, device=d)
    d.synchronize()
    recorded = dict(d._recorded)  # pyright: ignore[reportPrivateUsage]
    before = d.driver.value
    for _ in range(5):
        bump.launch(v, 64, grid=1, block=64, device=d)
    assert d.driver.value == before + 5  # one submission per launch, no copies, no waits
    assert dict(d._recorded) == recorded  # pyright: ignore[reportPrivateUsage]
    assert v.to_numpy().tolist() == [6.0] * 64  # the read waits for the launches
    v.release()
    assert len(d._recorded) == len(recorded) - 1  # pyright: ignore[reportPrivateUsage]


def test_launches_are_asynchronous():
    d = dev()
    v = sarek.Vector(np.zeros(1 << 16, np.float32))
    n = 1 << 16
    bump.launch(v, n, grid=n // 256, block=256, device=d)
    d.synchronize()
    for _ in range(20):
        bump.launch(v, n, grid=n // 256, block=256, device=d)
    pending = d.driver.value - d.driver.completed()
    d.synchronize()
    assert d.driver.completed() == d.driver.value
    assert pending >= 0 and float(v[0]) == 21.0


def test_driver_errors_name_the_kernel(monkeypatch: Any):
    d = dev()
    v = sarek.Vector(np.zeros(4, np.float32))

    def lost(cb: Any) -> int:
        raise DriverError("vkQueueSubmit", "VK_ERROR_DEVICE_LOST")

    bump.launch(v, 4, grid=1, block=4, device=d)
    monkeypatch.setattr(d.driver, "submit", lost)
    with pytest.raises(sarek.DeviceError, match=r"vulkan-glsl:0: kernel bump: vkQueueSubmit failed: "
                                                r"VK_ERROR_DEVICE_LOST"):
        bump.launch(v, 4, grid=1, block=4, device=d)


def test_out_of_memory_is_a_device_error(monkeypatch: Any):
    d = dev()

    def oom(nbytes: int, staging: bool = False) -> Any:
        raise DriverError(f"allocating {nbytes} bytes of device memory", "VK_ERROR_OUT_OF_DEVICE_MEMORY")

    monkeypatch.setattr(d.driver, "buffer", oom)
    with pytest.raises(sarek.DeviceError, match="VK_ERROR_OUT_OF_DEVICE_MEMORY"):
        bump.launch(np.zeros(8, np.float32), 8, grid=1, block=8, device=d)


def test_shared_memory_beyond_the_device_is_refused_at_launch():
    d = dev()
    with pytest.raises(sarek.LaunchError, match=rf"kernel too_much_shared needs 61440 bytes of shared memory per "
                                                 rf"block; vulkan-glsl:0 has {d.max_shared_bytes}"):
        too_much_shared.launch(np.zeros(4, np.float32), grid=1, block=4, device=d)


def test_gpu_timer():
    d = dev()
    v = sarek.Vector(np.zeros(256, np.float32))
    with d.gpu_timer() as t:
        for _ in range(3):
            bump.launch(v, 256, grid=1, block=256, device=d)
    assert len(t.kernels_ms) == 3 and all(k >= 0 for k in t.kernels_ms) and t.ms >= max(t.kernels_ms)
    assert v.to_numpy()[0] == 3.0


def test_a_stream_opens_the_device():
    """`dev.stream()` opens the VkDevice (as a CUDA stream makes its context): a first launch after it, what the
    benchmarks' warm first launch times, does not; `get_device` alone opens nothing."""
    d = VulkanGlslDevice(dev().info, 0)
    assert d._drv is None  # pyright: ignore[reportPrivateUsage]
    s = d.stream()
    assert s.device is d and d._drv is not None  # pyright: ignore[reportPrivateUsage]
    opened = d._drv  # pyright: ignore[reportPrivateUsage]
    a = np.zeros(4, np.float32)
    bump.launch(a, 4, grid=1, block=4, device=d)
    assert a.tolist() == [1.0] * 4 and d._drv is opened  # pyright: ignore[reportPrivateUsage]


def test_pipeline_cache_is_persisted_and_reloaded(tmp_path: Path, monkeypatch: Any, capfd: Any):
    """The VkPipelineCache is written to <cache>/vulkan-pipelines/ (at exit; here by hand) and a new device on
    the same driver starts from it; the SPIR-V is in sarek's compile cache; nothing reaches the terminal."""
    from sarek.runtime.vulkan_driver import DriverDevice

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    d = VulkanGlslDevice(dev().info, 0)  # a fresh device: its cache path is under tmp_path
    a = np.zeros(4, np.float32)
    bump.launch(a, 4, grid=1, block=4, device=d)
    assert a.tolist() == [1.0] * 4
    d.driver.save_cache()
    caches = list((tmp_path / "vulkan-pipelines").glob("*.bin"))
    assert len(caches) == 1 and caches[0].stat().st_size > 0
    again = DriverDevice(d.info)
    assert again.cache_path == str(caches[0]) and again.pipeline_cache is not None
    assert list((tmp_path / "spirv").rglob("*")), "the SPIR-V is in sarek's compile cache"
    out, err = capfd.readouterr()
    assert out == "" and err == "", out + err  # wgpu's SPIR-V reader printed warnings here



def test_staged_memory_path():
    """Where host and device do not share memory (the H200), buffers are not mapped and every copy goes through
    the staging buffer: lavapipe taken as a discrete device runs that path."""
    import dataclasses

    d = VulkanGlslDevice(dataclasses.replace(dev().info, device_type="discrete"), 0)
    data = np.arange(300_000, dtype=np.float32)  # beyond the first staging size (64 KiB): it grows
    v = sarek.Vector(data)
    bump.launch(v, data.size, grid=data.size // 256 + 1, block=256, device=d)
    buf = v._buffers[d.buffer_key][1]  # pyright: ignore[reportPrivateUsage]
    assert buf is not None and buf.mapped is None
    np.testing.assert_array_equal(v.to_numpy(), data + 1)
    small = np.ones(3, np.float32)
    bump.launch(small, 3, grid=1, block=4, device=d)
    assert small.tolist() == [2.0] * 3

@pytest.mark.gpu
def test_on_the_nvidia_driver():
    """The H200: vulkan-glsl:0 is the GPU (not a CPU ICD), warp size 32, cooperative-matrix shapes listed
    (f16 x f16 -> f32 16x16x16 in subgroup scope among them), device-local memory reached through staging, and
    a 64 MiB Vector makes the round trip."""
    d = dev()
    assert d.info.device_type == "discrete" and not d.info.unified_memory, d.description
    assert d.warp_size == 32 and "cooperativeMatrix" in d.info.features
    shapes = d.cooperative_matrix_shapes
    assert any((s.m, s.n, s.k, s.a, s.c, s.scope) == (16, 16, 16, "f16", "f32", "subgroup") for s in shapes), shapes
    n = 16 << 20
    v = sarek.Vector(np.arange(n, dtype=np.float32))
    bump.launch(v, n, grid=n // 256, block=256, device=d)
    got = v.to_numpy()
    assert got[0] == 1.0 and got[-1] == n and got[12345] == 12346.0


@kernel
def to_unsigned(x: Vec[f32], d: Vec[f64], o: Vec[u32], o64: Vec[u64]):
    i = global_thread_id
    if i < 6:
        o[i] = u32(x[i])
        o64[i] = u64(d[i])


def test_float_to_unsigned_saturates_as_on_the_interpreter():
    """GLSL's uint(x) is undefined out of range and the driver runs it as written: the lowering's helper
    saturates (NaN and negatives to 0, beyond the range to the largest value), as the interpreter does."""
    x = np.array([np.nan, -5.5, 3.7, 5e9, 4294967040.0, np.inf], np.float32)
    d = np.array([np.nan, -2.5, 7.9, 3e19, 1e19, -np.inf])
    got = {}
    for name in ("interp", "vulkan-glsl:0"):
        o, o64 = np.zeros(6, np.uint32), np.zeros(6, np.uint64)
        to_unsigned.launch(x, d, o, o64, grid=1, block=8, device=name)
        got[name] = (o.tolist(), o64.tolist())
    assert got["vulkan-glsl:0"] == got["interp"]
    assert got["interp"][0] == [0, 0, 3, 2**32 - 1, 4294967040, 2**32 - 1]


def test_get_device_lists_no_wgpu_adapter():
    """A fresh process asking for vulkan-glsl does not import wgpu (its adapters took 0.5-0.8 s of the first
    launch on lavapipe); `devices()` afterwards lists that same device object, and vulkan:0 too."""
    import subprocess
    import sys

    code = ("import sys, sarek\nd = sarek.get_device('vulkan-glsl:0')\nprint('wgpu' in sys.modules)\n"
            "print(any(x is d for x in sarek.devices()), 'vulkan:0' in [x.name for x in sarek.devices()])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["False", "True", "True"], r.stdout
