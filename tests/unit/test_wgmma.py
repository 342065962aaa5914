"""Warpgroup fragments (`coop.fragment(..., scope="warpgroup")`, Hopper's wgmma) and core-layout shared arrays
(`shared(T, (R, C), layout="core")`): both executors against numpy, the layout's address function, the block
size rule, the ptx device's `.target`, and (on the H200) the ptx device against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import sarek
from sarek import Array, bf16, coop, f16, f32, kernel
from sarek.analysis.core_layout import core_offset, core_shape_error
from sarek.gpu import barrier, copy_async, copy_async_commit, copy_async_wait, shared, thread_idx_x, warp_id


@kernel(block=256)
def two_groups(A: Array[f16, 2], B: Array[f16, 2], C: Array[f32, 2]):
    """128x128x32: warpgroup g takes rows 64 g.., both the whole 128 columns, two k16 steps."""
    sa = shared(f16, (128, 32), layout="core")
    sb = shared(f16, (32, 128), layout="core")
    t = thread_idx_x
    for e in range(16):
        i = t * 16 + e
        sa[i // 32, i % 32] = A[i // 32, i % 32]
        sb[i // 128, i % 128] = B[i // 128, i % 128]
    barrier()
    g = warp_id // 4
    a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", f16, 16, 128, scope="warpgroup")
    acc = coop.fragment("acc", f32, 64, 128, scope="warpgroup")
    coop.fill(acc, 0.0)
    for kk in range(0, 32, 16):
        coop.load(a, sa, g * 64, kk)
        coop.load(b, sb, kk, 0)
        coop.mma(acc, a, b, acc)
    coop.store(acc, C, g * 64, 0)


@kernel(block=128)
def staged(A: Array[bf16, 2], B: Array[bf16, 2], C: Array[f32, 2]):
    """64x64x16 in bf16, the tiles staged by copy_async in 16-byte chunks into the core layout."""
    sa = shared(bf16, (64, 16), layout="core")
    sb = shared(bf16, (16, 64), layout="core")
    t = thread_idx_x
    copy_async(sa[t // 2, (t % 2) * 8], A[t // 2, (t % 2) * 8], 8)
    copy_async(sb[t // 8, (t % 8) * 8], B[t // 8, (t % 8) * 8], 8)
    copy_async_commit()
    copy_async_wait(0)
    barrier()
    a = coop.fragment("a", bf16, 64, 16, scope="warpgroup")
    b = coop.fragment("b", bf16, 16, 64, scope="warpgroup")
    acc = coop.fragment("acc", f32, 64, 64, scope="warpgroup")
    coop.fill(acc, 1.0)
    coop.load(a, sa, 0, 0)
    coop.load(b, sb, 0, 0)
    coop.mma(acc, a, b, acc)
    coop.store(acc, C, 0, 0)


@kernel(block=64)
def roundtrip(A: Array[f32, 2], out: Array[f32, 2]):
    """A 16x8 f32 tile through a core-layout array (4 elements per core-matrix row): element accesses and
    copy_async (4-element chunks) see the same logical array."""
    s = shared(f32, (16, 8), layout="core")
    t = thread_idx_x
    if t < 32:
        copy_async(s[t // 2, (t % 2) * 4], A[t // 2, (t % 2) * 4], 4)
    copy_async_commit()
    copy_async_wait(0)
    barrier()
    for e in range(2):
        i = t * 2 + e
        out[i // 8, i % 8] = s[i // 8, i % 8] + f32(s.shape[0] * 1000)


def _halves(shape: tuple[int, int], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float16)


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_two_warpgroups_agree_with_numpy(device):
    a, b = _halves((128, 32), 1), _halves((32, 128), 2)
    c = np.zeros((128, 128), np.float32)
    two_groups.launch(a, b, c, grid=1, device=device)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), atol=1e-5)


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_copy_async_into_the_core_layout_feeds_bf16_fragments(device):
    from sarek.types import bf16_from_f32, bf16_to_f32

    rng = np.random.default_rng(3)
    a = bf16_from_f32(rng.standard_normal((64, 16)).astype(np.float32))
    b = bf16_from_f32(rng.standard_normal((16, 64)).astype(np.float32))
    c = np.zeros((64, 64), np.float32)
    staged.launch(a, b, c, grid=1, device=device)
    want = bf16_to_f32(a).astype(np.float64) @ bf16_to_f32(b).astype(np.float64) + 1.0
    assert float(np.abs(c - want).max()) < 1e-4


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_core_layout_is_the_logical_array_to_element_accesses(device):
    a = np.arange(128, dtype=np.float32).reshape(16, 8)
    out = np.zeros_like(a)
    roundtrip.launch(a, out, grid=1, device=device)
    np.testing.assert_array_equal(out, a + 16000.0)


def test_core_offset_is_a_bijection_of_core_matrices():
    rows, cols, w = 24, 32, 8
    offs = [core_offset(r, c, cols, w) for r in range(rows) for c in range(cols)]
    assert sorted(offs) == list(range(rows * cols))
    # a core matrix is 8 rows of 16 contiguous bytes; matrices in row-major order; a fragment at (i, j) is
    # index + offset
    assert core_offset(1, 0, cols, w) == 8 and core_offset(0, 8, cols, w) == 64 and core_offset(8, 0, cols, w) == 256
    assert core_offset(8 + 3, 16 + 5, cols, w) == core_offset(8, 16, cols, w) + core_offset(3, 5, cols, w)
    assert core_shape_error(60, 16, 2) is not None and core_shape_error(64, 16, 2) is None


@kernel
def fill_only(C: Array[f32, 2]):
    acc = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
    coop.fill(acc, 2.0)
    coop.store(acc, C, 0, 0)


def test_a_block_of_one_and_a_half_warpgroups_is_a_launch_error():
    c = np.zeros((64, 8), np.float32)
    with pytest.raises(sarek.LaunchError, match="owned by whole warpgroups.*warpgroup size 128"):
        fill_only.launch(c, grid=1, block=192, device="interp")
    fill_only.launch(c, grid=1, block=128, device="interp")
    assert (c == 2.0).all()


def test_a_core_load_off_the_core_matrices_is_located():
    @kernel(block=128)
    def off(C: Array[f32, 2], r: int):
        sa = shared(f16, (72, 16), layout="core")
        sb = shared(f16, (16, 8), layout="core")
        a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
        b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
        acc = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
        coop.fill(acc, 0.0)
        coop.load(a, sa, r, 0)
        coop.load(b, sb, 0, 0)
        coop.mma(acc, a, b, acc)
        coop.store(acc, C, 0, 0)

    for device in ("interp", "interp-ref"):
        with pytest.raises(sarek.SarekError, match="test_wgmma.py:.*starts at a row and a column multiple of 8"):
            off.launch(np.zeros((64, 8), np.float32), 4, grid=1, device=device)


def test_the_ptx_device_writes_sm_90a_on_compute_capability_9_0_only():
    from sarek.runtime.ptx import ptx_arch

    assert ptx_arch((9, 0)) == "sm_90a" and ptx_arch((8, 9)) == "sm_90" and ptx_arch((10, 0)) == "sm_90"


def test_sm_90a_source_is_its_own_cache_entry_and_assembles():
    from sarek.runtime.core import kernel_spec
    from sarek.runtime.ptx import ptx_source
    from sarek.validate import ptx as ptxas

    spec = kernel_spec(two_groups.module, "two_groups")
    src = ptx_source(spec, "default", "sm_90a")
    assert ".target sm_90a" in src and src.count("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16") == 2
    ptxas.check(src, "sm_90a")
    with pytest.raises(sarek.SarekError, match="sm_90a"):
        ptx_source(spec, "default", "sm_90")


@pytest.mark.gpu
@pytest.mark.parametrize("kern", ["two_groups", "staged"])
def test_warpgroup_kernels_agree_with_numpy_on_ptx(kern):
    from sarek.types import bf16_from_f32, bf16_to_f32

    if kern == "two_groups":
        a, b = _halves((128, 32), 1), _halves((32, 128), 2)
        c = np.zeros((128, 128), np.float32)
        two_groups.launch(a, b, c, grid=1, device="ptx:0")
        np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)
        return
    rng = np.random.default_rng(3)
    a = bf16_from_f32(rng.standard_normal((64, 16)).astype(np.float32))
    b = bf16_from_f32(rng.standard_normal((16, 64)).astype(np.float32))
    c = np.zeros((64, 64), np.float32)
    staged.launch(a, b, c, grid=1, device="ptx:0")
    want = bf16_to_f32(a).astype(np.float64) @ bf16_to_f32(b).astype(np.float64) + 1.0
    assert float(np.abs(c - want).max()) < 1e-3


def test_an_operand_that_differs_between_the_warps_of_a_group_is_located():
    @kernel(block=128)
    def per_warp(C: Array[f32, 2]):
        sa = shared(f16, (128, 16), layout="core")
        sb = shared(f16, (16, 8), layout="core")
        a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
        b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
        acc = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
        coop.fill(acc, 0.0)
        coop.load(a, sa, (warp_id % 2) * 64, 0)
        coop.load(b, sb, 0, 0)
        coop.mma(acc, a, b, acc)
        coop.store(acc, C, 0, 0)

    with pytest.raises(sarek.SarekError, match="differs between the warps of a warpgroup"):
        per_warp.launch(np.zeros((64, 8), np.float32), grid=1, device="interp")


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_the_interpreters_take_the_waits_as_no_ops(device):
    from sarek.dialect import sarek as sk
    from sarek.passes.wgmma_waits import place_waits

    @kernel(block=128)
    def waited(C: Array[f32, 2]):
        sa = shared(f16, (64, 16), layout="core")
        sb = shared(f16, (16, 8), layout="core")
        sa[thread_idx_x // 2, 0] = 1.0
        sb[0, 0] = 2.0
        barrier()
        a = coop.fragment("a", f16, 64, 16, scope="warpgroup")
        b = coop.fragment("b", f16, 16, 8, scope="warpgroup")
        acc = coop.fragment("acc", f32, 64, 8, scope="warpgroup")
        coop.fill(acc, 0.0)
        coop.load(a, sa, 0, 0)
        coop.load(b, sb, 0, 0)
        coop.mma(acc, a, b, acc)
        coop.store(acc, C, 0, 0)

    if not any(isinstance(o, sk.CoopmatWaitOp) for o in waited.module.walk()):  # the module is per source
        place_waits(waited.module)
    assert sum(isinstance(o, sk.CoopmatWaitOp) for o in waited.module.walk()) == 1
    c = np.zeros((64, 8), np.float32)
    waited.launch(c, grid=1, device=device)
    assert (c[:, 0] == 2.0).all() and (c[:, 1:] == 0.0).all()


def test_sarek_emit_takes_the_ptx_arch(capsys):
    from sarek.tools.cli import main

    assert main(["emit", "-t", "ptx", "--arch", "sm_90a", f"{__file__}:fill_only"]) == 0
    assert ".target sm_90a" in capsys.readouterr().out
    assert main(["emit", "-t", "ptx", f"{__file__}:fill_only"]) != 0
    assert "--arch sm_90a" in capsys.readouterr().err
