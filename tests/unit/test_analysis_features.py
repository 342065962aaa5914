"""kernel_uses, the capability table and check_target."""

from __future__ import annotations

import pytest

from sarek.analysis.features import (
    BACKEND_NAMES,
    CAPABILITIES,
    TARGETS,
    Feature,
    Refused,
    check_target,
    feature_uses,
    kernel_uses,
    native_text,
    support,
)
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import NativeOp
from sarek.tools.ir import parse_module

MODULE = parse_module("""builtin.module {
  sarek.record @r {a : f32, w : i64}
  sarek.helper @narrow(%x : f32 "x") -> f16 {
    %h = sarek.cast %x : f32 to f16
    sarek.return %h : f16
  }
  sarek.helper @unused(%x : !sarek.vec<f64> "x") -> !sarek.unit {
    sarek.return
  }
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %x : f32 "x") {
    %h = sarek.call @narrow(%x) : (f32) -> f16
    %i = sarek.constant 0 : i32
    %old = sarek.intrinsic "atomic_add"(%v, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32
    %l = sarek.intrinsic "lane_id"() : () -> i32
  }
  sarek.kernel @plain(%n : i32 "n") {
  }
}""")


def test_kernel_uses_folds_helpers_types_and_body():
    assert kernel_uses(Feature.FLOAT16, MODULE, "k")  # only through the helper's return type
    assert kernel_uses(Feature.INT64, MODULE, "plain")  # record fields belong to every kernel
    assert not kernel_uses(Feature.FLOAT64, MODULE, "k")  # @unused is not called by @k
    assert kernel_uses(Feature.FLOAT64, MODULE)  # ... but is part of the module
    assert kernel_uses(Feature.FLOAT_ATOMICS, MODULE, "k") and kernel_uses(Feature.WARP, MODULE, "k")
    assert not kernel_uses(Feature.FLOAT16, MODULE, "plain")
    assert not kernel_uses(Feature.COOPMAT, MODULE)
    assert [op.name for op in feature_uses(Feature.FLOAT16, MODULE, "k")] == ["sarek.helper", "sarek.cast",
                                                                              "sarek.call"]


def test_every_target_decides_every_feature():
    for t in TARGETS:
        for f in Feature:
            s = support(t, f)
            assert s is None or isinstance(s, Refused)
    assert {t for t, _ in CAPABILITIES} <= set(TARGETS)
    assert support("cuda", Feature.FLOAT16) is None and support("ptx", Feature.FLOAT16) is None
    assert isinstance(support("metal", Feature.FLOAT64), Refused)
    assert all(isinstance(support(t, Feature.COOPMAT), Refused) for t in TARGETS)


@pytest.mark.parametrize("target", TARGETS)
def test_check_target_message_format(target: str):
    m = parse_module('builtin.module { sarek.kernel @k(%c : !sarek.vec<ui8> "c") { } }')
    with pytest.raises(SarekError) as e:
        check_target(m, target)
    assert e.value.backend == BACKEND_NAMES[target]
    assert str(e.value).startswith(f"error: {BACKEND_NAMES[target]}: uint8 not yet supported (#57 slice 2 — ")


def test_unknown_target():
    with pytest.raises(SarekError, match="unknown target 'vulkan'"):
        check_target(MODULE, "vulkan")


def test_native_text_per_target():
    op = NativeOp({"cuda": "a();", "ptx": "b;"})
    assert native_text(op, "cuda") == "a();" and native_text(op, "hip") == "a();"
    assert native_text(op, "ptx") == "b;" and native_text(op, "opencl") is None
