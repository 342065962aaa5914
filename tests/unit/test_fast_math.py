"""The fast single-precision routines of the default floating-point policy (sarek/mathlib/fast32.py): chosen
on PTX at fp=default only, within 1 ulp of the correctly rounded result (numpy in float64) on the interpreter
(which gives the PTX device's bits: every fused product is an explicit fma), special values right."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sarek.interp import run
from sarek.passes.expand_math import ExpandMathPass
from sarek.registry import emit_source, make_context, parse_module, print_module

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import bench_ptx as bp  # noqa: E402  pyright: ignore[reportMissingImports]

DOMAINS = {"exp": (-80.0, 80.0), "exp2": (-120.0, 120.0), "log": (1e-30, 1e30), "log2": (1e-30, 1e30),
           "log10": (1e-30, 1e30), "sin": (-100.0, 100.0), "cos": (-100.0, 100.0)}
SPECIALS = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, -1e-40, 1.0, -1.0, 88.0, -100.0, 1e6, -1e6],
                    np.float32)


def expanded(fn: str, fp: str) -> object:
    m = parse_module(bp._math_module(fn, 1))  # pyright: ignore[reportPrivateUsage]
    ExpandMathPass(target="ptx", fp=fp).apply(make_context(), m)
    return m


def on_interp(m: object, fn: str, x: np.ndarray) -> np.ndarray:
    out = np.zeros(x.size, np.float32)
    run(m, f"m_{fn}", [x, out, x.size], ((x.size + 255) // 256, 1, 1), (256, 1, 1))  # pyright: ignore[reportArgumentType]
    return out


@pytest.mark.parametrize("fn", sorted(DOMAINS))
def test_fast_f32_routine_within_one_ulp(fn: str):
    lo, hi = DOMAINS[fn]
    rng = np.random.default_rng(5)
    x = (np.exp(rng.uniform(np.log(lo), np.log(hi), 4096)) if lo > 0 else rng.uniform(lo, hi, 4096)).astype(np.float32)
    m = expanded(fn, "default")
    assert f"sarek_{fn}_f32" in print_module(m)  # type: ignore[arg-type]
    assert bp.ulp_error(on_interp(m, fn, x), bp._ref(fn, x)).max() <= 1.0  # pyright: ignore[reportPrivateUsage]
    with np.errstate(all="ignore"):
        sp = SPECIALS[(SPECIALS > 0) | np.isnan(SPECIALS) | (SPECIALS == -np.inf)] if fn.startswith("log") else SPECIALS
        e = bp.ulp_error(on_interp(m, fn, sp), bp._ref(fn, sp))  # pyright: ignore[reportPrivateUsage]
    assert e.max() <= 1.0, list(zip(sp.tolist(), e.tolist()))


def test_policy_picks_the_routines():
    text = bp.EXTRA_KERNELS["math_mix"]
    fast, exact = emit_source(parse_module(text), "ptx"), emit_source(parse_module(text), "ptx", fp="exact")
    assert "fma.rn.f32" in fast and "mul.rn.f32" not in fast  # f32 routines, contracted arithmetic
    assert "mul.rn.f32" in exact
    m = expanded("exp", "exact")
    assert "sarek_exp_f64" in print_module(m) and "_f32" not in print_module(m)  # type: ignore[arg-type]
    assert "expf(" in emit_source(parse_module(text), "cuda")  # C targets keep their libm either way
