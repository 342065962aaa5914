"""The shader test kernels run on Vulkan through wgpu (lavapipe on CPU machines) — WGSL directly and GLSL as
SPIR-V — and match numpy. A missing wgpu, adapter or GLSL tool fails these tests (they never skip)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek.runtime.core import kernel_spec  # noqa: E402
from sarek.runtime.vulkan import VulkanDevice, vulkan_devices  # noqa: E402
from sarek.tools.ir import parse_module  # noqa: E402

ROOT = Path(__file__).parents[2]
INPUTS = ROOT / "tests" / "filecheck" / "targets" / "Inputs"
EXAMPLES = ROOT / "examples"

_DEVS: list[VulkanDevice] | None = None


def devices() -> list[VulkanDevice]:
    global _DEVS
    if _DEVS is None:
        _DEVS = vulkan_devices()
    assert _DEVS, "no Vulkan adapter found through wgpu (install mesa-vulkan-drivers)"
    return _DEVS


@pytest.fixture(params=["wgsl", "glsl"])
def dev(request: Any) -> VulkanDevice:
    return next(d for d in devices() if d.lang == request.param)


def load(path: Path) -> Any:
    return parse_module(path.read_text(), str(path))


def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def test_devices_named():
    names = [d.name for d in devices()]
    assert "vulkan:0" in names and "vulkan-glsl:0" in names


def test_vector_add(dev: VulkanDevice):
    m = load(EXAMPLES / "vector_add.mlir")
    n = 1000
    a, b = rng().random(n, dtype=np.float32), rng().random(n, dtype=np.float32) + 1
    c = np.zeros(n, np.float32)
    dev.launch(m, "vector_add", [a, b, c, n], grid=((n + 255) // 256,), block=(256,))
    np.testing.assert_allclose(c, a + b, rtol=1e-6)


def test_saxpy_block_shapes(dev: VulkanDevice):
    m = load(INPUTS / "shader_saxpy.mlir")
    n = 777
    x = rng().random(n, dtype=np.float32)
    for bs in (64, 128, 256):
        y = np.arange(n, dtype=np.float32)
        dev.launch(m, "saxpy", [np.float32(2.5), x, y, n], grid=((n + bs - 1) // bs,), block=(bs,))
        np.testing.assert_allclose(y, 2.5 * x + np.arange(n, dtype=np.float32), rtol=1e-6)


def test_record(dev: VulkanDevice):
    m = load(EXAMPLES / "record.mlir")
    n = 300
    dt = kernel_spec(m, "shift_points").params[0].dtype
    src = np.zeros(n, dt)
    src["x"] = np.arange(n)
    src["y"] = np.arange(n) * 0.5
    dst = np.zeros(n, dt)
    dev.launch(m, "shift_points", [src, dst, n], grid=(2,), block=(256,))
    np.testing.assert_allclose(dst["x"], src["x"] + 1)
    np.testing.assert_allclose(dst["y"], src["y"] * 2)


def test_vectors_stay_resident(dev: VulkanDevice):
    """sarek.Vector on Vulkan: uploaded once, kept on the device between launches, downloaded once on read;
    records keep the shader's struct layout on the device and come back in the host's aligned layout."""
    import sarek.runtime as rt

    m = load(EXAMPLES / "vector_add.mlir")
    n = 1000
    a = np.arange(n, dtype=np.float32)
    va, vc = rt.Vector(a), rt.Vector(n, np.float32)
    dev.launch(m, "vector_add", [va, va, vc, n], grid=(4,), block=(256,))
    dev.launch(m, "vector_add", [vc, vc, va, n], grid=(4,), block=(256,))
    assert (va.transfers, vc.transfers) == (1, 1)  # one upload each, nothing read back yet
    assert f"valid on {dev.name}" in repr(va)
    np.testing.assert_array_equal(va.to_numpy(), 4 * a)
    assert va.transfers == 2  # the download
    # valid on another device: moves through the host, then comes back
    rt.launch((m, "vector_add"), [va, va, vc, n], grid=4, block=256, device="opencl")
    dev.launch(m, "vector_add", [vc, va, vc, n], grid=(4,), block=(256,))
    np.testing.assert_array_equal(vc.to_numpy(), 12 * a)

    rec = load(EXAMPLES / "record.mlir")
    dt = kernel_spec(rec, "shift_points").params[0].dtype
    host = np.zeros(300, dt)
    host["x"], host["y"] = np.arange(300), np.arange(300) * 0.5
    src, dst = rt.Vector(host), rt.Vector(300, dt)
    dev.launch(rec, "shift_points", [src, dst, 300], grid=(2,), block=(256,))
    dev.launch(rec, "shift_points", [dst, src, 300], grid=(2,), block=(256,))
    out = src.to_numpy()
    np.testing.assert_allclose(out["x"], host["x"] + 2)
    np.testing.assert_allclose(out["y"], host["y"] * 4)
    assert (src.transfers, dst.transfers) == (2, 1)


def test_variant_match(dev: VulkanDevice):
    m = load(EXAMPLES / "variant_match.mlir")
    n = 90
    dt = kernel_spec(m, "areas").params[0].dtype
    assert dt.itemsize == 12
    shapes = np.zeros(n, dt)
    raw = shapes.view(np.uint8).reshape(n, 12)
    tags = np.arange(n) % 3
    p0 = (np.arange(n) % 7 + 1).astype(np.float32)
    p1 = (np.arange(n) % 5 + 2).astype(np.float32)
    raw[:, 0:4] = tags.astype(np.int32).view(np.uint8).reshape(n, 4)
    raw[:, 4:8] = np.where((tags != 2)[:, None], p0.view(np.uint8).reshape(n, 4), 0)
    raw[:, 8:12] = np.where((tags == 1)[:, None], p1.view(np.uint8).reshape(n, 4), 0)
    area = np.zeros(n, np.float32)
    perim = np.zeros(n, np.float32)
    before = shapes.copy()
    dev.launch(m, "areas", [shapes, area, perim, n], grid=(1,), block=(128,))
    want_area = np.where(tags == 0, np.float32(3.14159274) * p0 * p0, np.where(tags == 1, p0 * p1, 0))
    want_perim = np.where(tags == 0, np.float32(6.28318548) * p0, np.where(tags == 1, 2 * (p0 + p1), 0))
    np.testing.assert_allclose(area, want_area, rtol=1e-6)
    np.testing.assert_allclose(perim, want_perim, rtol=1e-6)
    assert before.tobytes() == shapes.tobytes()  # the variant vector round-trips unchanged


def test_helpers_with_vector_params(dev: VulkanDevice):
    m = load(INPUTS / "shader_helpers_vec.mlir")
    n = 500
    a = rng().random(n, dtype=np.float32)
    b0 = rng().random(n, dtype=np.float32) * 2
    b = b0.copy()
    out = np.zeros(n, np.float32)
    dt = kernel_spec(m, "helpers_vec").params[3].dtype
    mm = np.zeros(n, dt)
    dev.launch(m, "helpers_vec", [a, b, out, mm, n], grid=(2,), block=(256,))
    np.testing.assert_allclose(out, a + b0 * b0 + a * a, rtol=1e-5)
    np.testing.assert_allclose(b, b0 + a * a, rtol=1e-5)
    np.testing.assert_allclose(mm["lo"], np.minimum(a, b), rtol=1e-6)
    np.testing.assert_allclose(mm["hi"], np.maximum(a, b), rtol=1e-6)


def test_shared_reduction(dev: VulkanDevice):
    m = load(EXAMPLES / "reduce.mlir")
    n = 1000
    a = rng().random(n, dtype=np.float32)
    out = np.zeros(4, np.float32)
    dev.launch(m, "reduce_sum", [a, out, n], grid=(4,), block=(256,))
    want = np.array([a[i * 256:(i + 1) * 256].sum() for i in range(4)], np.float32)
    np.testing.assert_allclose(out, want, rtol=1e-5)


def test_histogram_atomics(dev: VulkanDevice):
    m = load(INPUTS / "shader_histogram.mlir")
    n = 5000
    data = rng().integers(0, 1 << 20, n).astype(np.int32)
    hist = np.zeros(64, np.int32)
    dev.launch(m, "histogram", [data, hist, n], grid=((n + 255) // 256,), block=(256,))
    np.testing.assert_array_equal(hist, np.bincount(data & 63, minlength=64))


def test_tiled_matmul(dev: VulkanDevice):
    m = load(INPUTS / "shader_matmul.mlir")
    n = 40
    a = rng().random((n, n), dtype=np.float32)
    b = rng().random((n, n), dtype=np.float32)
    c = np.zeros(n * n, np.float32)
    dev.launch(m, "matmul_tiled", [a.reshape(-1), b.reshape(-1), c, n], grid=(3, 3), block=(16, 16))
    np.testing.assert_allclose(c.reshape(n, n), a @ b, rtol=1e-4)


def test_while_with_mutables(dev: VulkanDevice):
    m = load(INPUTS / "shader_collatz.mlir")
    n = 300
    inp = np.arange(1, n + 1, dtype=np.int32)
    steps = np.zeros(n, np.int32)
    dev.launch(m, "collatz", [inp, steps, n], grid=(2,), block=(256,))

    def ref(x: int) -> int:
        s = 0
        while x > 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            s += 1
        return s

    np.testing.assert_array_equal(steps, [ref(int(x)) for x in inp])


def test_math_spellings(dev: VulkanDevice):
    m = load(INPUTS / "shader_math.mlir")
    n = 256
    x = np.linspace(-3, 3, n).astype(np.float32)
    iv = rng().integers(-(1 << 30), 1 << 30, n).astype(np.int32)
    iv[:4] = [0, -1, 1, -7]
    out = np.zeros(n, np.float32)
    iout = np.zeros(n, np.int32)
    dev.launch(m, "math_mix", [x, out, iv, iout, n], grid=(1,), block=(256,))
    xd = x.astype(np.float64)
    ab = np.abs(xd)
    want = (np.log10(ab + 1) + np.cbrt(xd) + np.fmod(xd, np.float32(0.7)) + np.trunc(xd * 3 + np.copysign(0.5, xd * 3))
            + np.hypot(xd, 1) + np.copysign(1, xd - 0.5) + 1 / np.sqrt(ab + 1) + np.arctan2(xd, 3)
            + np.expm1(xd) + np.log1p(ab))
    np.testing.assert_allclose(out, want, atol=2e-4)
    i64 = iv.astype(np.int64)
    clz = np.array([32 - int(v & 0xFFFFFFFF).bit_length() for v in i64])
    pc = np.array([bin(int(v) & 0xFFFFFFFF).count("1") for v in i64])
    md = np.fmod(i64, 7)
    dv = np.trunc(i64 / 7).astype(np.int64)
    r = (clz * 100 + pc + md * 100 + dv).astype(np.int32) ^ (iv >> 3)
    np.testing.assert_array_equal(iout, r)


def test_f64_glsl():
    dev = next(d for d in devices() if d.lang == "glsl")
    m = load(INPUTS / "shader_f64.mlir")
    n = 200
    x = np.linspace(-5, 5, n)
    y = np.linspace(1, 3, n)
    out = np.zeros(n)
    dev.launch(m, "norm_f64", [x, y, out, n], grid=(1,), block=(256,))
    np.testing.assert_allclose(out, np.sqrt(x * x + y * y) + (x * y + 1) + np.floor(x), rtol=1e-14)


def test_f64_refused_on_wgsl():
    from sarek.diagnostics import SarekError

    dev = next(d for d in devices() if d.lang == "wgsl")
    m = load(INPUTS / "shader_f64.mlir")
    n = 4
    with pytest.raises(SarekError, match="(?i)f(loat)?64"):
        dev.launch(m, "norm_f64", [np.zeros(n), np.zeros(n), np.zeros(n), n], grid=(1,), block=(64,))


def test_warp_shuffle_reduction(dev: VulkanDevice):
    m = load(INPUTS / "shader_warp.mlir")
    n = 256
    x = rng().random(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    ws = np.zeros(1, np.int32)
    dev.launch(m, "warp_sum", [x, out, ws], grid=(1,), block=(256,))
    w = int(ws[0])
    assert w in (4, 8, 16, 32, 64, 128)
    want = x.reshape(-1, w).sum(axis=1)
    np.testing.assert_allclose(out[: n // w], want, rtol=1e-5)


def test_block_is_part_of_the_key():
    dev = next(d for d in devices() if d.lang == "wgsl")
    m = load(EXAMPLES / "vector_add.mlir")
    s64 = dev.source(m, "vector_add", block=(64, 1, 1))
    s128 = dev.source(m, "vector_add", block=(128, 1, 1))
    assert "@workgroup_size(64, 1, 1)" in s64 and "@workgroup_size(128, 1, 1)" in s128


def _misc_ref(g: int) -> int:
    loc = [0] * 8
    for j in range(g):
        loc[j & 7] += j
    s = 0
    for j in range(8, 0, -1):
        s = s * 8 + loc[j - 1]
    return int(np.int64(s).astype(np.int32))


def test_bools_local_arrays_loops(dev: VulkanDevice):
    m = load(INPUTS / "shader_misc.mlir")
    n = 40
    b = np.arange(n) % 3 == 0
    b0 = b.copy()
    o = np.zeros(n, np.int32)
    dev.launch(m, "misc", [b, True, o, n], grid=(1,), block=(64,))
    np.testing.assert_array_equal(b, ~b0)
    np.testing.assert_array_equal(o, [_misc_ref(i) for i in range(n)])


def test_i64_glsl():
    dev = next(d for d in devices() if d.lang == "glsl")
    m = load(INPUTS / "shader_misc_i64.mlir")
    n = 40
    w = np.arange(n, dtype=np.int64) * (1 << 33)
    b = np.arange(n) % 3 == 0
    o = np.zeros(n, np.int32)
    dev.launch(m, "misc", [w, b, False, np.int64(3), o, n], grid=(1,), block=(64,))
    np.testing.assert_array_equal(w, np.arange(n, dtype=np.int64) * (1 << 33) * 3)
    assert not b.any()
    np.testing.assert_array_equal(o, [_misc_ref(i) for i in range(n)])


def test_records_and_variants_by_value(dev: VulkanDevice):
    m = load(INPUTS / "shader_params.mlir")
    spec = kernel_spec(m, "by_value")
    dt, sdt = spec.params[0].dtype, spec.params[2].dtype
    n = 10
    for tag, p0, p1, area in ((0, 2.0, 0.0, 4.0), (1, 2.0, 3.0, 6.0), (2, 0.0, 0.0, 0.0)):
        v = np.zeros(n, dt)
        v["x"] = np.arange(n)
        v["y"] = 1
        d = np.zeros(1, dt)
        d["x"], d["y"] = 5, 2
        sh = np.zeros(1, sdt)
        raw = sh.view(np.uint8)
        raw[0:4] = np.frombuffer(np.int32(tag).tobytes(), np.uint8)
        raw[4:8] = np.frombuffer(np.float32(p0).tobytes(), np.uint8)
        raw[8:12] = np.frombuffer(np.float32(p1).tobytes(), np.uint8)
        dev.launch(m, "by_value", [v, d, sh, np.float32(3), n], grid=(1,), block=(64,))
        np.testing.assert_allclose(v["x"], np.arange(n) + 5)
        np.testing.assert_allclose(v["y"], np.full(n, 9 + area))


def test_float_atomics_lowering_runs_when_not_refused(monkeypatch: Any):
    """The capability table refuses float atomics on glsl/wgsl; the WGSL lowering's CAS loops run here with the
    feature gate taken out of the pipeline. (The GLSL loop passes glslang and spirv-val, but naga's SPIR-V
    reader in wgpu 0.32 rejects it, so on GLSL the table's refusal is also what wgpu needs.)"""
    import sarek.passes.pipeline as pl

    dev = next(d for d in devices() if d.lang == "wgsl")
    real = pl.pipeline_passes
    monkeypatch.setattr(pl, "pipeline_passes",
                        lambda *a, **k: [p for p in real(*a, **k) if p.name != "sarek-reject-features"])
    m = load(INPUTS / "shader_atomic_float.mlir")
    n = 1000
    vals = (rng().random(n, dtype=np.float32) * 4).round() / 4  # exact sums in any order
    total = np.array([0.0, -1.0], np.float32)
    dev._cache.clear()
    dev.launch(m, "fsum", [vals, total, n], grid=((n + 255) // 256,), block=(256,))
    dev._cache.clear()
    assert total[0] == vals.sum()
    assert total[1] == vals.max()
