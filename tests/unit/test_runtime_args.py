"""Runtime: kernel specs, write analysis, argument checks, grid/block limits, device selection."""

from pathlib import Path

import numpy as np
import pytest

import sarek.runtime as rt
from sarek.runtime.core import LaunchError, check_args, dim3, kernel_spec, resolve_kernel
from sarek.runtime.effects import written_params
from sarek.tools.ir import parse_module

EX = Path(__file__).parents[2] / "examples"


def mod(name: str):
    return parse_module((EX / name).read_text(), name)


VADD = """
builtin.module {
  sarek.kernel @vadd(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%g] : !sarek.vec<f32>
      %y = sarek.array_read %b[%g] : !sarek.vec<f32>
      %s = sarek.binop add %x, %y : f32
      %p = sarek.elem_ref %c[%g] : !sarek.vec<f32>
      sarek.store %p, %s : !sarek.ref<f32>
    }
  }
}
"""


@pytest.mark.parametrize("name, kernel, written", [
    ("vector_add.mlir", "vector_add", {2}),
    ("helpers.mlir", "apply", {1}),          # written only through a helper call
    ("record.mlir", "shift_points", {1}),    # elem_ref + field_ref chain
    ("reduce.mlir", "reduce_sum", {1}),      # shared-array stores do not count
    ("variant_match.mlir", "areas", {1, 2}),
])
def test_written_params_examples(name, kernel, written):
    assert written_params(mod(name), kernel) == written


def test_written_params_atomics_and_nested_helpers():
    m = parse_module("""
builtin.module {
  sarek.helper @inner(%v : !sarek.vec<i32> "v") -> !sarek.unit {
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %o = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    sarek.return
  }
  sarek.helper @outer(%r : !sarek.vec<i32> "r", %w : !sarek.vec<i32> "w") -> !sarek.unit {
    sarek.call @inner(%w) : (!sarek.vec<i32>) -> ()
    sarek.return
  }
  sarek.kernel @k(%a : !sarek.vec<i32> "a", %b : !sarek.vec<i32> "b", %c : !sarek.vec<i32> "c") {
    sarek.call @outer(%a, %c) : (!sarek.vec<i32>, !sarek.vec<i32>) -> ()
  }
}""")
    assert written_params(m, "k") == {2}


def test_spec_params():
    m = parse_module(VADD)
    spec = kernel_spec(m, "vadd")
    assert [p.name for p in spec.params] == ["a", "b", "c", "n"]
    assert [p.kind for p in spec.params] == ["vec", "vec", "vec", "scalar"]
    assert [p.written for p in spec.params] == [False, False, True, False]
    assert spec.params[0].dtype == np.float32 and spec.params[3].dtype == np.int32
    assert kernel_spec(m, "vadd") is spec


def test_resolve_kernel_forms():
    m = parse_module(VADD)
    assert resolve_kernel(m) == (m, "vadd")
    assert resolve_kernel((m, "vadd")) == (m, "vadd")

    class K:
        module = m
        name = "vadd"

    assert resolve_kernel(K()) == (m, "vadd")
    with pytest.raises(LaunchError, match="cannot launch"):
        resolve_kernel(42)
    with pytest.raises(LaunchError, match="no kernel 'nope'"):
        kernel_spec(m, "nope")


def _spec():
    return kernel_spec(parse_module(VADD), "vadd")


def test_arg_count_error():
    a = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=r"vadd\(a, b, c, n\) takes 4 argument\(s\), 3 given"):
        check_args(_spec(), [a, a, a])


def test_arg_dtype_error():
    a = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=r"argument 'b' \(#2\) expects a vector of float32, got an array of float64"):
        check_args(_spec(), [a, np.zeros(4), a, 4])


def test_arg_non_contiguous_error():
    a = np.zeros(8, np.float32)
    with pytest.raises(LaunchError, match="argument 'c' .* not C-contiguous"):
        check_args(_spec(), [a, a, a[::2], 4])


def test_arg_shape_errors():
    a = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match="argument 'a' .* 0-dimensional"):
        check_args(_spec(), [np.array(1.0, np.float32), a, a, 4])
    with pytest.raises(LaunchError, match="argument 'n' .* shape"):
        check_args(_spec(), [a, a, a, np.zeros(3, np.int32)])
    with pytest.raises(LaunchError, match="argument 'a' .* numpy array or sarek.Vector"):
        check_args(_spec(), [[1.0, 2.0], a, a, 4])


def test_scalar_checks():
    a = np.zeros(4, np.float32)
    out = check_args(_spec(), [a, a, a, np.int64(4)])
    assert out[3] == 4 and out[3].dtype == np.int32
    with pytest.raises(LaunchError, match="argument 'n' .* expects a int32 scalar, got float"):
        check_args(_spec(), [a, a, a, 4.0])
    with pytest.raises(LaunchError, match="does not fit in int32"):
        check_args(_spec(), [a, a, a, 2**40])


def test_read_only_written_array():
    a = np.zeros(4, np.float32)
    c = np.zeros(4, np.float32)
    c.flags.writeable = False
    with pytest.raises(LaunchError, match="argument 'c' .* read-only"):
        check_args(_spec(), [a, a, c, 4])
    a.flags.writeable = False
    check_args(_spec(), [a, a, np.zeros(4, np.float32), 4])  # read-only inputs are fine


def test_dims():
    assert dim3(4, "grid") == (4, 1, 1)
    assert dim3((2, 3), "grid") == (2, 3, 1)
    for bad in (0, (1, 2, 3, 4), "x", (1.5,), True):
        with pytest.raises(LaunchError):
            dim3(bad, "block")


def test_block_beyond_limits():
    a = np.zeros(4, np.float32)
    dev = rt.get_device("interp")
    with pytest.raises(LaunchError, match="allows at most 1024 per block"):
        rt.launch((parse_module(VADD), "vadd"), [a, a, a, 4], grid=1, block=2048, device=dev)
    with pytest.raises(LaunchError, match="block .* exceeds .* dimension z"):
        rt.launch((parse_module(VADD), "vadd"), [a, a, a, 4], grid=1, block=(1, 1, 128), device=dev)
    with pytest.raises(LaunchError, match="grid .* exceeds .* dimension y"):
        rt.launch((parse_module(VADD), "vadd"), [a, a, a, 4], grid=(1, 70000), block=1, device=dev)


def test_devices_listed_and_selected(monkeypatch):
    names = rt.device_names()
    assert names[:2] == ["interp", "interp-ref"]
    assert rt.get_device("interp").name == "interp"
    assert rt.get_device("interp-ref").executor == "reference"
    monkeypatch.delenv("SAREK_DEVICE", raising=False)
    assert rt.default_device().name == "interp"
    monkeypatch.setenv("SAREK_DEVICE", "interp-ref")
    assert rt.default_device().name == "interp-ref"
    monkeypatch.setenv("SAREK_DEVICE", "nonesuch:3")
    with pytest.raises(LaunchError, match="SAREK_DEVICE=nonesuch:3: .*no device 'nonesuch:3'.*available: interp"):
        rt.default_device()


def test_register_provider():
    class Fake(rt.Device):
        kind = "fake"
        name = "fake:0"

    rt.register_provider("fake", lambda: [Fake()])
    try:
        assert rt.get_device("fake").name == "fake:0"
    finally:
        rt._EXTRA.pop("fake"); rt._BY_KIND.pop("fake", None)
        rt.devices(refresh=True)


def test_broken_provider_is_reported():
    def broken():
        raise OSError("driver exploded")

    rt.register_provider("broken", broken)
    try:
        rt.devices(refresh=True)
        assert "driver exploded" in rt.unavailable["broken"]
        with pytest.raises(LaunchError, match="driver exploded"):
            rt.get_device("broken")
    finally:
        rt._EXTRA.pop("broken"); rt._BY_KIND.pop("broken", None)
        rt.devices(refresh=True)
