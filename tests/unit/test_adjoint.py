"""`k.adjoint` (the sarek-adjoint pass) against central finite differences of the forward kernel: each rule and
the corpus-like kernels, on interp, interp-ref, pocl (opencl:0) and lavapipe (vulkan:0, and the corpus kernels on
vulkan-glsl:0); f64 where the device has it (WGSL has none: f32 on lavapipe with a looser tolerance)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sarek import f32, f64
from tests.unit import adjoint_kernels as K

Case = tuple[Any, list[Any], list[int], list[int], Any, Any]  # kernel, args, outputs, inputs, grid, block


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def _saxpy(dt: Any) -> Case:
    r = _rng()
    return K.saxpy, [dt(1.7), r.random(8).astype(dt), r.random(8).astype(dt), np.zeros(8, dt), 6], [3], [1, 2], 1, 8


def _stencil(dt: Any) -> Case:
    r = _rng()
    return K.stencil, [r.random(10).astype(dt), r.random(3).astype(dt), np.zeros(10, dt), 10], [2], [0, 1], 2, 8


def _softmax(dt: Any) -> Case:
    r = _rng()
    return K.softmax_rows, [r.random(15).astype(dt), np.zeros(15, dt), 3, 5], [1], [0], 1, 4


def _particle(dt: Any) -> Case:
    r = _rng()
    f = np.float32
    return (K.particle_step, [r.random(6).astype(f), r.random(6).astype(f), np.zeros(6, f), np.zeros(6, f), 2.0, 0.1,
                              6], [2, 3], [0, 1], 1, 8)


def _block_sum(dt: Any) -> Case:
    r = _rng()
    return K.block_sum, [r.random(128).astype(dt), np.zeros(2, dt)], [1], [0], 2, 64


def _branches(dt: Any) -> Case:
    r = _rng()
    return K.branches, [r.random(12).astype(dt), r.random(12).astype(dt), np.zeros(12, dt), 12], [2], [0, 1], 2, 8


def _loops(dt: Any) -> Case:
    r = _rng()
    return K.loops, [r.random(6).astype(dt), np.zeros(6, dt), 6, 5], [1], [0], 1, 8


def _unary(dt: Any) -> Case:
    r = _rng()
    return K.unary_math, [0.1 + 0.8 * r.random(3), np.zeros(3 * 23), 3], [1], [0], 1, 4


def _binary(dt: Any) -> Case:
    r = _rng()
    return K.binary_math, [0.2 + r.random(4), 0.2 + r.random(4), np.zeros(24), 4], [2], [0, 1], 1, 4


def _helpers(dt: Any) -> Case:
    r = _rng()
    return K.helpers, [r.random(12).astype(dt), np.zeros(12, dt), 11], [1], [0], 2, 8


def _matrix(dt: Any) -> Case:
    r = _rng()
    return K.matrix, [r.random((3, 5)).astype(dt), np.zeros((3, 5), dt)], [1], [0], (1, 1), (8, 4)


def _histogram(dt: Any) -> Case:
    r = _rng()
    return K.histogram, [r.random(10).astype(dt), np.zeros(3, dt), 10], [1], [0], 2, 8


def _vectors(dt: Any) -> Case:
    r = _rng()
    return K.vectors, [r.random(6).astype(np.float32), np.zeros(6, np.float32), 6], [1], [0], 1, 8


def _mixed(dt: Any) -> Case:
    r = _rng()
    return (K.mixed_indices, [r.random(70).astype(dt), r.random(8).astype(dt), r.random(3).astype(dt),
                              r.random(2).astype(dt), np.zeros(70, dt), 70, 2], [4], [0, 1, 2, 3], 2, 64)


CASES: dict[str, Callable[[Any], Case]] = {
    "saxpy": _saxpy, "stencil": _stencil, "softmax": _softmax, "particle": _particle, "block_sum": _block_sum,
    "branches": _branches, "loops": _loops, "unary_math": _unary, "binary_math": _binary,
    "helpers": _helpers, "matrix": _matrix, "histogram": _histogram,
    "vectors": _vectors, "mixed": _mixed,
}
F64_ONLY = {"unary_math", "binary_math"}
F32_ONLY = {"particle", "vectors"}


def _instance(k: Any, dt: Any) -> Any:
    return k[f64 if np.dtype(dt) == np.float64 else f32] if k.type_params else k


def _copy(args: list[Any]) -> list[Any]:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _weights(args: list[Any], outputs: list[int]) -> dict[int, np.ndarray]:
    r = np.random.default_rng(3)
    return {o: r.standard_normal(args[o].shape).astype(args[o].dtype) for o in outputs}


def adjoint_gradient(name: str, dt: Any, device: str, adjoint: Callable[[Any], Any] = lambda k: k.adjoint
                     ) -> dict[int, np.ndarray]:
    """The gradient of sum(w * outputs) with respect to each input array, from one launch of k.adjoint."""
    k, args, outputs, inputs, grid, block = CASES[name](dt)
    w = _weights(args, outputs)
    vecs = [j for j, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    adjs = [w[j].copy() if j in outputs else np.zeros_like(args[j]) for j in vecs]
    adjoint(_instance(k, args[vecs[0]].dtype.type)).launch(*_copy(args), *adjs, grid=grid, block=block, device=device)
    return {j: adjs[vecs.index(j)] for j in inputs}


@functools.cache
def finite_differences(name: str) -> dict[int, np.ndarray]:
    """Central differences of sum(w * outputs) on the interpreter, in f64 (f32 for f32-only kernels)."""
    dt = np.float32 if name in F32_ONLY else np.float64
    h = 1e-2 if dt is np.float32 else 1e-6
    k, args, outputs, inputs, grid, block = CASES[name](dt)
    w = _weights(args, outputs)
    kk = _instance(k, dt)

    def loss(a: list[Any]) -> float:
        a = _copy(a)
        kk.launch(*a, grid=grid, block=block, device="interp")
        return sum(float(np.sum(w[o].astype(np.float64) * a[o])) for o in outputs)

    out: dict[int, np.ndarray] = {}
    for j in inputs:
        g = np.zeros(args[j].shape)
        for e in range(args[j].size):
            a = _copy(args)
            a[j].flat[e] += h
            up = loss(a)
            a[j].flat[e] -= 2 * h
            g.flat[e] = (up - loss(a)) / (2 * h)
        out[j] = g
    return out


def _check(name: str, dt: Any, device: str, tol: float, adjoint: Callable[[Any], Any] = lambda k: k.adjoint) -> None:
    want = finite_differences(name)
    got = adjoint_gradient(name, dt, device, adjoint)
    for j, g in want.items():
        scale = max(1.0, float(np.max(np.abs(g))))
        np.testing.assert_allclose(got[j], g, atol=tol * scale, rtol=tol, err_msg=f"{name}: input {j} on {device}")


RUNS = [(n, d, e) for n in CASES for d in ("interp", "interp-ref", "opencl:0", "vulkan:0") for e in ("f64", "f32")
        if not (e == "f64" and (n in F32_ONLY or d == "vulkan:0")) and not (e == "f32" and n in F64_ONLY)
        and not (e == "f32" and d not in ("vulkan:0",) and n not in F32_ONLY)]
RUNS += [(n, "vulkan-glsl:0", "f32") for n in ("saxpy", "stencil", "softmax", "particle", "block_sum", "matrix",
                                              "mixed")]


# on the H200 (`-m gpu`): the same checks on cuda:0 and ptx:0 in f64
GPU_RUNS = [pytest.param(n, d, "f64" if n not in F32_ONLY else "f32", id=f"{n}-{d}", marks=pytest.mark.gpu)
            for n in CASES for d in ("cuda:0", "ptx:0")]


@pytest.mark.parametrize(("name", "device", "et"), [pytest.param(*r, id="-".join(r)) for r in RUNS] + GPU_RUNS)
def test_adjoint_matches_finite_differences(name: str, device: str, et: str):
    dt = np.float64 if et == "f64" else np.float32
    _check(name, dt, device, 1e-5 if et == "f64" else 3e-3 if name not in F32_ONLY else 2e-2)


# ------------------------------------------------------------------------------------------- the Kernel object


def test_refusals_are_located_at_the_users_line():
    import sarek

    for k, line, why in ((K.in_place, "x[i] = x[i] * 2.0", "overwritten after being read"),
                         (K.halve_until_small, "while v > 1.0:", "while loop"),
                         (K.read_back, "out[i + 1] = out[i] * 3.0", "read after the kernel wrote it")):
        with pytest.raises(sarek.CompileError) as e:
            _ = k.adjoint
        msg = str(e.value)
        assert msg.startswith(f"{K.__file__}:"), msg
        assert why in msg and line in msg, msg


def test_adjoint_is_a_kernel_and_leaves_the_primal_arrays_alone():
    k = K.saxpy[f32].adjoint
    assert k is K.saxpy[f32].adjoint  # built once
    assert "sarek.kernel @saxpy_adjoint" in k.ir() and '"x_adj"' in k.ir() and '"out_adj"' in k.ir()
    x, y, out = np.arange(4, dtype=np.float32), np.ones(4, np.float32), np.full(4, 7.0, np.float32)
    dx, dy, dout = np.zeros(4, np.float32), np.zeros(4, np.float32), np.ones(4, np.float32)
    k.launch(np.float32(3.0), x, y, out, 4, dx, dy, dout, grid=1, block=4, device="interp")
    assert (out == 7.0).all() and (x == np.arange(4)).all()
    np.testing.assert_array_equal(dx, np.full(4, 3.0))
    np.testing.assert_array_equal(dy, np.ones(4))
    k.launch(np.float32(3.0), x, y, out, 4, dx, dy, dout, grid=1, block=4, device="interp")
    np.testing.assert_array_equal(dx, np.full(4, 6.0))  # accumulates


@pytest.mark.parametrize("target", ["cuda", "hip", "opencl", "metal", "glsl", "wgsl", "ptx"])
def test_adjoint_source_on_every_target(target: str):
    src = K.block_sum[f32].adjoint.source(target)
    assert "block_sum_adjoint" in src


def test_generic_kernel_names_its_instances():
    import sarek

    with pytest.raises(sarek.CompileError, match=r"saxpy\[f32\]"):
        _ = K.saxpy.adjoint


def test_adjoint_parameter_names_avoid_the_kernels_own():
    ir = K.named_like_adjoint.adjoint.ir()
    assert '"x_adj_"' in ir and '"x_adj_adj"' in ir


def test_pass_keeps_only_the_named_kernel():
    from xdsl.context import Context

    from sarek.dialect import sarek as s
    from sarek.passes.adjoint import AdjointPass

    m = K.stencil[f64].module.clone()
    AdjointPass(kernel="stencil").apply(Context(), m)
    assert [o.sym_name.data for o in m.body.block.ops if isinstance(o, s.KernelOp)] == ["stencil_adjoint"]
    m.verify()


def _replaying(k: Any) -> Any:
    """k's adjoint without tapes for loops with a run-time trip count (what loops longer than the tape get)."""
    from sarek.frontend.wire import kernel_from_module
    from sarek.passes.adjoint import adjoint_module

    return kernel_from_module(adjoint_module(k.module, k.name, dynamic_tape=0), k.name + "_adjoint")


@pytest.mark.parametrize(("name", "device"), [("softmax", "interp"), ("loops", "interp"), ("softmax", "opencl:0")])
def test_replayed_loops_match_finite_differences(name: str, device: str):
    assert "j_" in _replaying(_instance(CASES[name](np.float64)[0], np.float64)).ir()
    _check(name, np.float64, device, 1e-5, _replaying)


# ------------------------------------------------------------------------------------------- aggregated atomics


@pytest.mark.parametrize("device", ["interp:warp=1", "interp:warp=6", "interp:warp=8", "interp:warp=64",
                                    "interp-ref:warp=8"])
@pytest.mark.parametrize("name", ["stencil", "mixed"])
def test_aggregated_adjoints_on_every_warp_width(name: str, device: str):
    """Warp sums over 1, 8 and 64 lanes; 6 lanes (not a power of two) and the stencil's block of 8 on 64-lane
    warps (not whole warps) add per thread."""
    _check(name, np.float64, device, 1e-5)


def _plain(k: Any) -> Any:
    """k's adjoint with no aggregated reads (every read's adjoint added atomically where it is reversed)."""
    from sarek.frontend.wire import kernel_from_module
    from sarek.passes.adjoint import adjoint_module

    return kernel_from_module(adjoint_module(k.module, k.name, max_slots=0), k.name + "_adjoint")


def test_aggregation_is_decided_in_the_pass():
    """The mixed kernel's uniform reads (w[k], bias[0], bias[c], gain[block_idx_x], w[2k+j]) leave the
    reverse sweep: each of the six has a private and a shared accumulator, a warp sum added into the shared one
    and, after a barrier, one atomic_add into the adjoint vector at the end; x keeps its atomics where its reads
    are reversed."""
    ir = K.mixed_indices[f64].adjoint.ir()
    plain = _plain(K.mixed_indices[f64]).ir()
    assert ir.count('"warp_shuffle_xor"') == 6 and "warp_shuffle" not in plain
    for acc in ("w_adj_acc", "bias_adj_acc", "gain_adj_acc"):
        assert f'"{acc}"' in ir and acc not in plain
    flush = ir.index('"whole_warps"')
    for arr, n in (("w", 3), ("bias", 2), ("gain", 1)):
        at = [j for j in range(len(ir)) if ir.startswith(f'"atomic_add"(%{arr}_adj,', j)]
        assert len(at) == n and min(at) > flush, arr
        assert ir.count(f'"atomic_add"(%{arr}_adj_block') == n
        assert plain.count(f'"atomic_add"(%{arr}_adj,') == n
    assert ir.count("sarek.barrier") == 1 and "sarek.barrier" not in plain
    assert ir.count('"atomic_add"(%x_adj') == plain.count('"atomic_add"(%x_adj') == 2


@pytest.mark.parametrize("target", ["cuda", "hip", "opencl", "metal", "ptx", "glsl", "wgsl"])
def test_aggregated_adjoint_sources_validate(target: str):
    """The warp sums and accumulators compile with each target's real tool (f64 where it has f64 atomics)."""
    from sarek.validate import cuda, glsl, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": cuda.check_hip, "opencl": opencl.check, "metal": metal.check,
             "ptx": ptx.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    dt = f32 if target in ("metal", "wgsl", "glsl") else f64  # GLSL atomics are 32-bit
    src = K.mixed_indices[dt].adjoint.source(target)
    assert ("shfl.sync" if target == "ptx" else "gain_adj_acc") in src
    check(src)


def test_plain_atomics_still_match_finite_differences():
    _check("mixed", np.float64, "interp", 1e-5, _plain)


def test_every_float_math_intrinsic_has_a_derivative():
    """A new math intrinsic on floats needs its entry in adjoint_rules.DERIVATIVES (or k.adjoint refuses it)."""
    from xdsl.dialects.builtin import Float32Type, f32 as xf32

    from sarek.dialect.intrinsics import INTRINSICS, Category
    from sarek.passes.adjoint_rules import DERIVATIVES

    floats = [n for n, i in INTRINSICS.items()
              if i.category == Category.MATH and isinstance(i.check([xf32] * i.arity), Float32Type)]
    assert len(floats) > 30
    # lgamma's derivative is digamma, which sarek does not have: k.adjoint refuses it (sarek-adjoint names it)
    assert [n for n in floats if n not in DERIVATIVES] == ["lgamma"]
