"""dtype-generic kernels and helpers (`sarek.TypeVar`): instantiation with `k[T]`, launch-time specialisation
on the arguments' dtypes (one compiled variant per type tuple), literals taking T, generic helpers, and the
located errors for types outside a constraint."""

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f16, f32, f64, i32, i64, kernel, record
from sarek.gpu import global_thread_id, shared, thread_idx_x

T = sarek.TypeVar("T", f32, f64)
U = sarek.TypeVar("U")


@device
def twice(x: T) -> T:
    return x + x


@kernel
def axpy(a: T, x: Vec[T], y: Vec[T], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + twice(y[i]) * 0.5 + T(1)


@kernel
def fill(v: Vec[U], x: U):
    v[global_thread_id] = x


def test_explicit_instances():
    f = axpy[f64]
    assert f is axpy[f64] and f is not axpy[f32]
    ir = f.ir()
    assert "!sarek.vec<f64>" in ir and "sarek.helper @twice_f64" in ir and "0.5 : f64" in ir
    assert "double* __restrict__ x" in f.source("cuda")
    assert "float* __restrict__ x" in axpy[f32].source("cuda")
    assert "array<f32>" in axpy[f32].source("wgsl")


@pytest.mark.parametrize("dev", ["interp", "interp-ref", "opencl:0"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_launch_picks_the_instance(dev, dt):
    x = np.arange(10, dtype=dt)
    y = np.ones(10, dt)
    axpy.launch(2.0, x, y, 10, threads=10, block=16, device=dev)
    np.testing.assert_allclose(y, 2.0 * np.arange(10) + 1.0 + 1.0)
    assert y.dtype == dt


def test_one_variant_per_type_tuple():
    x32, y32 = np.ones(4, np.float32), np.ones(4, np.float32)
    for _ in range(3):
        axpy.launch(1.0, x32, y32, 4, threads=4, device="interp")
    axpy.launch(1.0, np.ones(4), np.ones(4), 4, threads=4, device="interp")
    assert len(axpy._instances) <= 2  # pyright: ignore[reportPrivateUsage]
    assert axpy[f32].module is axpy[f32].module


def test_numpy_scalar_binds_and_unconstrained():
    v = np.zeros(4, np.int64)
    fill.launch(v, np.int64(7), threads=4, block=4, device="interp")
    assert v.tolist() == [7] * 4
    w = np.zeros(4, np.float16)
    fill.launch(w, 1.5, threads=4, block=4, device="interp")
    assert w.tolist() == [1.5] * 4
    assert "i64" in fill[i64].ir() and "f16" in fill[f16].ir()


def test_dtype_outside_the_constraint_is_a_launch_error():
    x = np.ones(4, np.int32)
    with pytest.raises(sarek.LaunchError, match=r"type variable T is one of f32, f64, argument 'x' makes it i32"):
        axpy.launch(1, x, x.copy(), 4, threads=4, device="interp")


def test_conflicting_dtypes_are_a_launch_error():
    with pytest.raises(sarek.LaunchError, match=r"T is f32 from argument 'x' but argument 'y' makes it f64"):
        axpy.launch(1.0, np.ones(4, np.float32), np.ones(4), 4, threads=4, device="interp")


def test_unknowable_type_is_a_launch_error():
    with pytest.raises(sarek.LaunchError, match=r"cannot tell U from argument 'v'"):
        fill.launch([1, 2], 1, threads=2, device="interp")


def test_explicit_instance_outside_the_constraint_is_a_compile_error():
    with pytest.raises(sarek.CompileError, match=r"axpy\[i32\]: type variable T is one of f32, f64") as e:
        axpy[i32]
    assert e.value.file == __file__
    with pytest.raises(sarek.CompileError, match=r"has 1 type variable\(s\) \(T\), 2 type\(s\) given"):
        axpy[f32, f64]


def test_generic_kernel_needs_an_instance_for_source():
    with pytest.raises(sarek.CompileError, match=r"kernel 'axpy' is generic in T \(f32, f64\): compile an "
                                                 r"instance, e.g. axpy\[f32\]"):
        axpy.source("cuda")


@kernel
def not_generic(v: Vec[f32]):
    v[0] = 1.0


def test_indexing_a_plain_kernel():
    with pytest.raises(sarek.CompileError, match="is not generic"):
        not_generic[f32]


@device
def pick(a: T, b: T) -> T:
    return a if a > b else b


@kernel
def mixed_call(v: Vec[f32], w: Vec[f64]):
    v[0] = pick(v[0], v[1])
    w[0] = pick(w[0], 2.0)


def test_generic_helper_instances_per_call():
    ir = mixed_call.ir()
    assert "sarek.helper @pick_f32" in ir and "sarek.helper @pick_f64" in ir
    v = np.array([1, 3], np.float32)
    w = np.array([1.0], np.float64)
    mixed_call.launch(v, w, threads=1, device="interp")
    assert v[0] == 3 and w[0] == 2.0


@kernel
def bad_call(v: Vec[f32], w: Vec[f64]):
    v[0] = f32(pick(v[0], w[0]))


@kernel
def bad_type(v: Vec[i32]):
    v[0] = pick(v[0], v[1])


def test_generic_helper_errors():
    with pytest.raises(sarek.CompileError, match=r"type mismatch in pick\(\): T is f32 from argument 'a' but "
                                                 r"argument 'b' makes it f64"):
        bad_call.compile()
    with pytest.raises(sarek.CompileError, match=r"type mismatch in pick\(\): type variable T is one of f32, "
                                                 r"f64, argument 'a' makes it i32"):
        bad_type.compile()


@kernel
def with_shared(x: Vec[T], n: i32):
    s = shared(T, 64)
    t = thread_idx_x
    acc: T = 0.0
    s[t] = x[t]
    acc += s[t] * 2.0
    x[t] = acc


def test_type_variable_in_body_annotations_and_allocations():
    for t, dt in ((f32, np.float32), (f64, np.float64)):
        ir = with_shared[t].ir()
        assert f"!sarek.array<{t.name}, shared>" in ir
        x = np.arange(64, dtype=dt)
        with_shared.launch(x, 64, threads=64, block=64, device="interp")
        np.testing.assert_array_equal(x, np.arange(64) * 2.0)


@record
class P:
    x: f32
    y: f32


R = sarek.TypeVar("R", P)


@kernel
def rec(v: Vec[R]):
    v[0].x = 3.0


def test_record_constraint_from_structured_dtype():
    a = np.zeros(2, P.dtype)
    rec.launch(a, threads=1, device="interp")
    assert a["x"][0] == 3.0


def test_typevar_validation():
    with pytest.raises(TypeError, match="needs a name"):
        sarek.TypeVar("")
    with pytest.raises(TypeError, match="not an element type"):
        sarek.TypeVar("V", Vec[f32])
    assert repr(T) == "~T" and sarek.TypeVar is type(T)
