"""Asynchronous copies (`sarek.gpu.copy_async`): the plain-copy semantics both executors share, a copy past the
end located at its line, the plain copies of targets without hardware copies, cp.async through NVRTC and
ptxas, and bench_gemm's pipelined GEMMs against numpy (on the interpreter here, on cuda and ptx on the H200)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import sarek
from sarek import Array, bf16, f16, f32, kernel
from sarek.gpu import barrier, copy_async, copy_async_commit, copy_async_wait, shared, thread_idx_x

ROOT = Path(__file__).resolve().parents[2]


@kernel(block=64)
def stage(A: Array[f16, 2], out: Array[f16, 2]):
    """Rows of A copied in 16-byte chunks into a padded shared tile, then written back reversed by row."""
    sa = shared(f16, (8, 72))
    t = thread_idx_x
    r = t // 8
    c = (t % 8) * 8
    copy_async(sa[r, c], A[r, c], 8)
    copy_async_commit()
    copy_async_wait(0)
    barrier()
    for e in range(8):
        out[7 - r, c + e] = sa[r, c + e]


@kernel(block=32)
def past_end(A: Array[f32, 2], out: Array[f32, 2]):
    s = shared(f32, (1, 64))
    copy_async(s[0, thread_idx_x * 2], A[0, thread_idx_x * 2 + 1], 2)
    copy_async_wait(0)
    barrier()
    out[0, thread_idx_x] = s[0, thread_idx_x]


def _check_stage(device: str) -> None:
    a = (np.arange(8 * 64) % 251).astype(np.float16).reshape(8, 64)
    out = np.zeros_like(a)
    stage.launch(a, out, grid=1, device=device)
    np.testing.assert_array_equal(out, a[::-1])


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_copy_completes_when_issued_on_both_executors(device):
    _check_stage(device)


def test_copy_past_the_end_is_located():
    a = np.zeros((1, 64), np.float32)
    with pytest.raises(sarek.SarekError) as e:
        past_end.launch(a, np.zeros((1, 32), np.float32), grid=1, device="interp-ref")
    line = next(i for i, text in enumerate(Path(__file__).read_text().splitlines(), 1)
                if "copy_async(s[0, thread_idx_x * 2]" in text)
    assert f"test_copy_async.py:{line}:" in str(e.value) and "out of bounds" in str(e.value), str(e.value)


@pytest.mark.parametrize("target", ["opencl", "hip", "metal", "glsl", "wgsl"])
def test_targets_without_hardware_copies_copy_elements(target):
    src = stage.source(target)
    assert "cp.async" not in src and "copy_async" not in src
    assert src.count("sa[") >= 8 or target in ("glsl", "wgsl")  # eight element stores (the shaders rename)


def test_cuda_and_ptx_copies_compile_to_cp_async():
    from sarek.runtime.cuda import nvrtc_compile
    from sarek.validate import ptx as ptxas

    ptx = nvrtc_compile(stage.source("cuda"), "sm_90", output="ptx").decode()
    assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group 0" in ptx
    src = stage.source("ptx")
    ptxas.check(src)
    assert src.count("cp.async.cg.shared.global") == 1 and "cp.async.commit_group;" in src


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_gemm", ROOT / "benchmarks" / "bench_gemm.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_gemm"] = mod
    spec.loader.exec_module(mod)
    return mod


def _gemm_case(t, m: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from sarek.types import bf16_from_f32, bf16_to_f32

    rng = np.random.default_rng(7)
    a32 = rng.standard_normal((m, k)).astype(np.float32)
    b32 = rng.standard_normal((k, n)).astype(np.float32)
    if t is f16:
        a, b = a32.astype(np.float16), b32.astype(np.float16)
        return a, b, a.astype(np.float64) @ b.astype(np.float64)
    a, b = bf16_from_f32(a32), bf16_from_f32(b32)
    return a, b, bf16_to_f32(a).astype(np.float64) @ bf16_to_f32(b).astype(np.float64)


FOUR_STAGES = ["sarek async4 4w dyn", "sarek async4 4w unroll", "sarek async4 4w unroll grp", "sarek async4 wide dyn",
               "sarek async4 4w fp", "sarek async3 4w k64", "sarek wgmma"]


@pytest.mark.parametrize(("row", "k"), [(r, 64) for r in ["sarek async2", "sarek async4", "sarek async2 4w",
                                                            "sarek async4 4w", "sarek async3 wide", "sarek async3 dyn",
                                                            "sarek async3 wide dyn", *FOUR_STAGES]]
                         + [(r, 320) for r in FOUR_STAGES])
def test_pipelined_gemms_agree_with_numpy_on_the_interpreter(row, k):
    """128x256xk on the interpreter; at k = 320 (ten K steps: past the four stages, not a multiple of them) a
    stage refilled while it is still to be read shows, the interpreter's copies landing at once."""
    bg = _bench()
    kern, bn = next((kn, bn) for name, kn, _, bn in bg.KERNELS if name == row)
    a, b, want = _gemm_case(f16, 128, 256, k)
    c = np.zeros((128, 256), np.float32)
    kern[f16].launch(a, b, c, grid=(256 // bn, 1), device="interp")
    assert float(np.abs(c - want).max()) < 1e-3


def test_global_fragment_gemms_agree_with_numpy_and_validate_as_glsl():
    """The fragments-from-global rows on the interpreter at 256x256x48; every Vulkan row's GLSL through glslang 13 +
    spirv-val (f16 staged through `shared float16_t` arrays); bf16 refused on GLSL with the reason."""
    from sarek.validate import glsl

    bg = _bench()
    a, b, want = _gemm_case(f16, 256, 256, 48)
    for name, kern, threads, bn in bg.KERNELS:
        if name not in bg.VULKAN_ROWS:
            continue
        if "global" in name:
            c = np.zeros((256, 256), np.float32)
            kern[f16].launch(a, b, c, grid=(256 // bn, 256 // bg.BM), block=threads, device="interp")
            assert float(np.abs(c - want).max()) < 1e-3, name
        src = kern[f16].source("glsl")
        glsl.check(src)
        assert "global" in name or "shared float16_t sa[" in src, name
        with pytest.raises(sarek.SarekError, match="GL_EXT_bfloat16"):
            kern[bf16].source("glsl")


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_vulkan_gemm_rows_on_the_driver(dtype):
    """bench_gemm's Vulkan rows on vulkan-glsl:0 at 256x512x320 (f16; bf16 refused with the reason)."""
    bg = _bench()
    t = f16 if dtype == "f16" else bf16
    m, n, k = 256, 512, 320
    a, b, want = _gemm_case(t, m, n, k)
    bad: list[str] = []
    for name, kern, threads, bn in bg.KERNELS:
        if name not in bg.VULKAN_ROWS:
            continue
        c = np.zeros((m, n), np.float32)
        if t is bf16:
            with pytest.raises(sarek.SarekError, match="GL_EXT_bfloat16"):
                kern[t].launch(a, b, c, grid=(n // bn, m // bg.BM), block=threads, device="vulkan-glsl:0")
            continue
        try:
            kern[t].launch(a, b, c, grid=(n // bn, m // bg.BM), block=threads, device="vulkan-glsl:0")
        except sarek.SarekError as e:
            bad.append(f"{name}: {e}")
            continue
        err = float(np.abs(c - want).max() / np.abs(want).max())
        if not err < 1e-4:
            bad.append(f"{name} on vulkan-glsl:0: relative error {err:.2e}")
    assert not bad, bad


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
def test_copy_on_gpu(device):
    _check_stage(device)


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_bench_gemm_kernels_agree_with_numpy_on_gpu(device, dtype):
    """Every bench_gemm row at 256x512x320 (several blocks, K steps not a multiple of the stage count); the
    warpgroup rows (wgmma) on ptx, refused with the reason on cuda."""
    bg = _bench()
    t = f16 if dtype == "f16" else bf16
    m, n, k = 256, 512, 320
    a, b, want = _gemm_case(t, m, n, k)
    for name, kern, threads, bn in bg.KERNELS:
        c = np.zeros((m, n), np.float32)
        if name in bg.WGMMA_ROWS and device.startswith("cuda"):
            with pytest.raises(sarek.SarekError, match="warpgroup fragments"):
                kern[t].launch(a, b, c, grid=(n // bn, m // bg.BM), block=threads, device=device)
            continue
        kern[t].launch(a, b, c, grid=(n // bn, m // bg.BM), block=threads, device=device)
        err = float(np.abs(c - want).max() / np.abs(want).max())
        assert err < 1e-4, f"{name} on {device} ({dtype}): relative error {err:.2e}"


def test_debug_mode_checks_each_copied_element():
    """A debug launch makes a copy its element copies, each bounds-checked like any access (the module
    sarek-check-bounds gives the runtime's debug variant: no copy left, a check per copied element)."""
    from sarek.dialect import sarek as sk
    from sarek.passes.check_bounds import check_bounds

    m = past_end.module.clone()
    check_bounds(m)
    assert not any(isinstance(o, sk.CopyAsyncOp) for o in m.walk())
    assert sum(1 for o in m.walk() if isinstance(o, sk.ArrayReadOp) and str(o.array.type) == "!sarek.vec<f32, 2>") == 2
