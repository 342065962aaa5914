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
    from sarek.analysis.coopmat_support import SHAPES

    # cooperative matrices: the targets in the gate's shape table compile them, every other one refuses
    assert all((support(t, Feature.COOPMAT) is None) == (t in SHAPES) for t in TARGETS)


@pytest.mark.parametrize("target", TARGETS)
def test_check_target_message_format(target: str):
    from sarek.analysis.coopmat_support import SHAPES

    m = parse_module('builtin.module { sarek.kernel @k() { sarek.coopmat_decl "fa" a 16x16 : f32 } }')
    with pytest.raises(SarekError) as e:
        check_target(m, target)
    assert e.value.backend == BACKEND_NAMES[target]
    what = "cooperative matrices: a 16x16 'a' fragment of f32 is not supported on this target (supported: " \
        if target in SHAPES else "cooperative matrices not yet supported ("
    assert str(e.value).startswith(f"error: {BACKEND_NAMES[target]}: {what}")
    assert "#" not in str(e.value)


def test_unknown_target():
    with pytest.raises(SarekError, match="unknown target 'vulkan'"):
        check_target(MODULE, "vulkan")


def test_native_text_per_target():
    op = NativeOp({"cuda": "a();", "ptx": "b;"})
    assert native_text(op, "cuda") == "a();" and native_text(op, "hip") == "a();"
    assert native_text(op, "ptx") == "b;" and native_text(op, "opencl") is None


ATOMICS = ["atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch", "atomic_and", "atomic_or",
           "atomic_xor", "atomic_inc", "atomic_dec", "atomic_cas"]


@pytest.mark.parametrize("target", ["cuda", "hip", "opencl", "metal"])
def test_the_gate_and_the_c_atomic_tables_agree(target: str):
    """Every atomic the gate lets through has a spelling in the target's Language (the lowering asserts it),
    and every one the Language cannot spell is refused by the gate."""
    from xdsl.dialects.builtin import f32, f64, i32, i64

    from sarek.analysis.features import atomic_gap
    from sarek.targets.cfamily.atomics import FLOAT_OPS
    from sarek.targets.cfamily.languages import LANGUAGES

    lang = LANGUAGES[target]
    for t, key in ((i32, "i32"), (i64, "i64"), (f32, "f32"), (f64, "f64")):
        ct = lang.types[key]
        gated = {"i64": [Feature.INT64], "f64": [Feature.FLOAT64]}.get(key, [])
        if ct is None or any(isinstance(support(target, f), Refused) for f in gated):
            continue
        for name in ATOMICS:
            for space in ("global", "shared"):
                # native, or the compare-and-swap loop the lowering builds from the language's FloatCas table
                spelled = lang.atomic(name, ct, space) is not None or (ct in lang.float_cas and name in FLOAT_OPS)
                assert spelled == (atomic_gap(target, name, t) is None), (target, name, key, space)


def test_recursion_is_found_through_helpers_in_module_order():
    m = parse_module("""builtin.module {
      sarek.helper @a(%n : i32 "n") -> i32 {
        %r = sarek.call @b(%n) : (i32) -> i32
        sarek.return %r : i32
      }
      sarek.helper @b(%n : i32 "n") -> i32 {
        %r = sarek.call @c(%n) : (i32) -> i32
        sarek.return %r : i32
      }
      sarek.helper @c(%n : i32 "n") -> i32 {
        %r = sarek.call @b(%n) : (i32) -> i32
        sarek.return %r : i32
      }
      sarek.kernel @k(%n : i32 "n") {
        %r = sarek.call @a(%n) : (i32) -> i32
      }
      sarek.kernel @plain(%n : i32 "n") {
      }
    }""")
    for t in TARGETS:
        with pytest.raises(SarekError, match=r"recursive helper @b is not supported \(b -> c -> b\)"):
            check_target(m, t)
        check_target(m, t, "plain")  # a kernel that calls none of them is fine
