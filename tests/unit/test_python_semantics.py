"""Issue 33's Python semantics, array views and messages: edge cases on the CPU devices (interp, interp-ref,
OpenCL on pocl, Vulkan WGSL and GLSL on lavapipe) against numpy, the IR decisions, and each refusal located
at the offending line (the conformance module python_semantics.py runs the main cases)."""

import math

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f32, f64, i32, i64, kernel, u32
from sarek.gpu import atomic_add, global_thread_id
from tests.unit.test_fuzz_regressions import _launch

DEVICES = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"]

def _line_of(marker: str) -> int:
    """The line of this file holding `# <marker>`."""
    with open(__file__) as f:
        hits = [i + 1 for i, text in enumerate(f) if f"# <{marker}>" in text]
    assert len(hits) == 1, marker
    return hits[0]


def expect_error(fn, marker: str, *fragments: str) -> None:
    with pytest.raises(sarek.CompileError) as info:
        sarek.compile(fn)
    text = str(info.value)
    assert info.value.file == __file__ and info.value.line == _line_of(marker), text
    for frag in fragments:
        assert frag in text, text


def _run(k, args, devices=DEVICES):
    return _launch(k, args, devices, threads=8)


INT_TABLE = (3, -1, 4, 1, -5)
NESTED = ((1.5, 2.5), (3.5, 4.5))
BIG = np.zeros(2000, np.float32)
NAMES = ("a", "b")
F64_TABLE = np.array([0.1, 0.2, 0.3])


@device
def swap_sum(a: i32, b: i32) -> tuple[i32, i32, i32]:
    a, b = b, a
    return a, b, a + b


@kernel
def ints_and_swaps(o: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        n = n - 1                     # an assigned kernel parameter
        a, b, c = swap_sum(i, 10)
        o[i] = INT_TABLE[i % 5] * 100 + a + b * 1000 + c * 10000 + n * 1000000 + INT_TABLE[4]


def test_int_table_tuple_of_three_and_assigned_kernel_parameter():
    n = 8
    i = np.arange(n)
    want = np.array(INT_TABLE)[i % 5] * 100 + 10 + i * 1000 + (10 + i) * 10000 + (n - 1) * 1000000 - 5
    for (o, _) in _run(ints_and_swaps, [np.zeros(n, np.int32), n]):
        assert list(o) == list(want)


@kernel
def nested_and_f64(x: Vec[f64], o: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        best = -math.inf
        best = max(best, x[i])
        o[i] = NESTED[i % 2][0] if False else F64_TABLE[i % 3] * x[i] + best


def test_f64_table_takes_the_f64_of_its_use_and_inf_widens():
    x = np.arange(8.0)
    want = F64_TABLE[np.arange(8) % 3] * x + x
    for (_, o, _) in _run(nested_and_f64, [x, np.zeros(8), 8], ["interp", "interp-ref", "opencl:0",
                                                                "vulkan-glsl:0"]):
        np.testing.assert_allclose(o, want, rtol=0, atol=0)
    ir = nested_and_f64.ir()
    assert '"F64_TABLE"[%' in ir and "!sarek.array<f64, local>" in ir and '"best" %' in ir


F32_USE = (12.0, 11.25, -4.75, 4.25)


@kernel
def table_in_an_f64_cast(x: Vec[f32], o: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = f64(min(F32_USE[3], x[i])) + f64(max(F32_USE[i % 4], x[i])) + f64(F32_USE[i % 4] + x[i])


def test_a_float_table_read_types_like_a_literal_in_an_f64_cast():
    """`f64(min(TAB[k], f32_value))`: the table's floats meet an f32, so they are f32 there, as a literal is,
    whatever the enclosing cast (H200 fuzz seed 940377: 'min() needs ... one type, got (f64, f32)')."""
    x = np.arange(8, dtype=np.float32) * 2.5
    t = np.array(F32_USE, np.float32)[np.arange(8) % 4]
    want = np.minimum(np.float32(4.25), x).astype(np.float64) + np.maximum(t, x) + (t + x).astype(np.float64)
    for (_, o, _) in _run(table_in_an_f64_cast, [x, np.zeros(8), 8], ["interp", "interp-ref", "opencl:0",
                                                                      "vulkan-glsl:0"]):
        np.testing.assert_allclose(o, want, rtol=0, atol=0)
    assert "!sarek.array<f32, local>" in table_in_an_f64_cast.ir()


@kernel
def slices(x: Vec[f32], o: Vec[f32], n: i32):
    i = global_thread_id
    mid = x[2:6]
    inner = mid[1:]
    if i < len(inner):
        o[i] = inner[i] + f32(len(mid)) * 100.0 + f32(inner.shape[0]) * 1000.0


def test_slice_with_upper_bound_and_a_view_of_a_view():
    x = np.arange(8, dtype=np.float32)
    for (_, o, _) in _run(slices, [x, np.zeros(8, np.float32), 8]):
        assert list(o[:3]) == [3.0 + 3400, 4.0 + 3400, 5.0 + 3400] and not o[3:].any()


def test_numba_launch_spelling_and_the_not_generic_message():
    @kernel
    def fill(o: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            o[i] = 2.0

    o = np.zeros(8, np.float32)
    fill[1, 8](o, 8, device="interp")
    assert list(o) == [2.0] * 8
    o[:] = 0
    fill[(2,), (4,)](o, 8, device="interp")
    assert list(o) == [2.0] * 8
    with pytest.raises(sarek.CompileError, match=r"not generic .* Numba's fill\[g, b\]\(\*args\)"):
        fill[f32]


def test_uint16_bf16_bits_bind_a_generic_bf16_type_variable():
    T = sarek.TypeVar("T", f32, sarek.bf16)

    @kernel
    def twice(x: Vec[T], y: Vec[T], n: i32):
        i = global_thread_id
        if i < n:
            y[i] = x[i] * 2.0

    bits = (np.arange(1, 9, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    y = np.zeros(8, np.uint16)
    twice.launch(bits, y, 8, grid=1, block=8, device="interp")
    assert list((y.astype(np.uint32) << 16).view(np.float32)) == [2.0 * k for k in range(1, 9)]


def test_ir_decisions_are_visible():
    @device
    def two(x: f32) -> tuple[f32, f32]:
        x = x + 1.0
        return x, x * 2.0

    @kernel
    def k(o: Vec[f32], n: i32):
        i = global_thread_id
        p, q = two(f32(i))
        o[i] = p + q + NESTED[1][0] + NESTED[i % 2][1]

    ir = k.ir()
    assert "sarek.record @tuple_f32_f32 {e0 : f32, e1 : f32}" in ir
    assert '%x_1 = sarek.let_mut "x" %x : f32' in ir
    assert "sarek.make_record @tuple_f32_f32" in ir and 'sarek.field %' in ir
    assert "sarek.constant 3.5 : f32" in ir                     # NESTED[1][0] folded
    assert '"NESTED"[%' in ir and "!sarek.array<f32, local, 2>" in ir


# ------------------------------------------------------------------------------------------------ refusals


def test_rebinding_an_array_parameter_is_refused():
    def k(a: Vec[f32], b: Vec[f32]):
        a = b  # <rebind>
        a[0] = 1.0

    expect_error(k, "rebind", "cannot rebind vector parameter 'a'")


def test_returning_a_tuple_from_a_scalar_helper_is_refused():
    @device
    def h(x: f32) -> f32:
        return x, x  # <scalartuple>

    def k(a: Vec[f32]):
        a[0] = h(a[0])

    expect_error(k, "scalartuple", "returns f32, not a tuple", "-> tuple[f32, f32]")


def test_tuple_arity_mismatches_are_located():
    @device
    def h(x: f32) -> tuple[f32, f32]:
        return x, x, x  # <arity>

    def k(a: Vec[f32]):
        p, q = h(a[0])
        a[0] = p + q

    expect_error(k, "arity", "returns 2 values, this return gives 3")

    @device
    def g(x: f32) -> tuple[f32, f32]:
        return x, x

    def k2(a: Vec[f32]):
        p, q, r = g(a[0])  # <unpack3>
        a[0] = p + q + r

    expect_error(k2, "unpack3", "tuple assignment of 3 names, the value has 2")

    def k3(a: Vec[f32]):
        p, q = a[0]  # <notuple>
        a[0] = p + q

    expect_error(k3, "notuple", "tuple assignment needs a tuple on the right", "got f32")


def test_constant_table_refusals():
    def k(a: Vec[f32], i: i32):
        a[0] = NAMES[i]  # <strings>

    expect_error(k, "strings", "'NAMES' is not a table of numbers")

    def k2(a: Vec[f32], i: i32):
        a[0] = BIG[i]  # <big>

    expect_error(k2, "big", "'BIG' has 2000 elements", "pass a larger one as a Vec argument")

    def k3(a: Vec[f32]):
        a[0] = f32(INT_TABLE[5])  # <range>

    expect_error(k3, "range", "index 5 is out of range for 'INT_TABLE' (extent 5)")


def test_views_passed_to_helpers():
    """A view passed to a device function (a select, an offset view, a slice, a view of a view inside the
    helper) reads what the kernel would read, on both interpreters."""
    @device
    def h(v: Vec[f32]) -> f32:
        return v[0] + f32(len(v)) * 1000.0

    @device
    def h2(v: Vec[f32], k: i32) -> f32:
        return h(v[k:]) + 10.0 * h(v)

    @device
    def put(v: Vec[f32], x: f32) -> None:
        v[1] = x

    @kernel
    def k(a: Vec[f32], b: Vec[f32], out: Vec[f32], c: bool):
        i = global_thread_id
        w = a if c else b
        out[i] = h(w) + h(a[i:i + 3]) + h2(b[i:], 2)
        put(out[32:] if i == 0 else a[20:], 5.0)

    a = np.arange(40, dtype=np.float32)
    b = 100 + np.arange(40, dtype=np.float32)
    for dev in ("interp", "interp-ref"):
        out, aa = np.zeros(40, np.float32), a.copy()
        k.launch(aa, b, out, True, grid=1, block=4, device=dev)
        want = np.array([(a[0] + 40_000) + (a[i] + 3000) + (b[i + 2] + (38 - i) * 1000) + 10 * (b[i] + (40 - i) * 1000)
                         for i in range(4)], np.float32)
        np.testing.assert_array_equal(out[:4], want)
        assert out[33] == 5.0 and aa[21] == 5.0


def test_view_refusals():
    def k1c(a: Vec[f32], b: Vec[f32], c: bool):
        atomic_add(a if c else b, 0, 1.0)  # <passatomic>

    expect_error(k1c, "passatomic", "'a if c else b' is an array view choosing between arrays, and atomic_add() "
                                    "takes whole arrays")

    def k1d(a: Vec[f32], i: i32):
        w = a[i:]
        atomic_add(w, 0, 1.0)  # <offsetatomic>

    expect_error(k1d, "offsetatomic", "'w' is an array view (an array with an offset), and atomic_add() takes whole "
                                      "arrays: pass the array and add the offset to the index")

    def k2(a: Vec[f32], b: Vec[f32]):
        w = a[1:]
        for j in range(3):
            w = b[j:]  # <reassign>
            w[0] = 1.0

    expect_error(k2, "reassign", "'w' names an array view and cannot be reassigned")

    def k3(a: Vec[f32], m: Vec[i32], c: bool):
        w = a if c else m  # <mixed>
        w[0] = 1.0

    expect_error(k3, "mixed", "the arrays of a view must have the same type: Vec[f32] and Vec[i32]")

    def k4(a: Vec[f32], c: bool):
        w = a if c else 1.0  # <oneside>
        a[0] = w

    expect_error(k4, "oneside", "needs an array on both sides")

    def k5(a: sarek.Array[f32, 2]):
        w = a[1:]  # <twod>
        a[0, 0] = w[0]

    expect_error(k5, "twod", "only a 1-D array takes an offset view")

    def k6(a: Vec[f32]):
        a[0] = a[1:][0]  # <unbound>

    expect_error(k6, "unbound", "a slice is an array view: bind it to a name first")


def test_message_fixes():
    def k(o: Vec[u32], n: i32):
        o[0] = u32(n) ^ (n > 2)  # <xorbool>

    expect_error(k, "xorbool", "a bool is not an integer in kernels; convert the bool, e.g. u32(c)")

    def k2(o: Vec[u32]):
        c: bool
        o[0] = u32(c)  # <declared>

    expect_error(k2, "declared", "'c' is declared (c: bool) but never assigned")

    def k3(o: Vec[f32]):
        o[0] = float("one")  # <badfloat>

    expect_error(k3, "badfloat", "float('one') is not a number")

    def k4(o: Vec[f32], x: Vec[f64]):
        t: f32 = 0.0
        t = x[0]  # <annotated>
        o[0] = t

    expect_error(k4, "annotated", "'t' has type f32", "the value is f64")


def test_widened_literal_through_a_val_and_a_comparison():
    @kernel
    def k(x: Vec[f64], o: Vec[i64], n: i32):
        i = global_thread_id
        if i < n:
            lim = 0.5                 # bound once, compared with an f64: f64
            o[i] = i64(1) if x[i] > lim else i64(0)

    x = np.array([0.25, 0.75] * 4)
    for (_, o, _) in _run(k, [x, np.zeros(8, np.int64), 8], ["interp", "opencl:0"]):
        assert list(o) == [0, 1] * 4
    assert '"lim" %' in k.ir() and "0.5 : f64" in k.ir()


def test_math_of_literals_takes_the_other_operands_type():
    """`sm.floor(100.0) + 0.5` computes from literals only: like a literal it takes the other operand's type
    (f32 here), even under an f64(...) conversion whose hint would make it f64 (fuzz seed 827's 'type mismatch in
    '*': f64 and f32')."""
    @kernel
    def k(o: Vec[f64], a: Vec[f32]):
        o[0] = f64((sarek.math.floor(100.0) + 0.5) * a[0])
        o[1] = f64(a[0] * -sarek.math.sqrt(4.0))

    o = np.zeros(2)
    k.launch(o, np.full(1, 2.0, np.float32), grid=1, block=1, device="interp")
    assert list(o) == [201.0, -4.0]
    assert "100.0 : f32" in k.ir() and "4.0 : f32" in k.ir()


OFFS = np.array([-1, 0, 1], dtype=np.int32)


@kernel
def for_over_tables(x: Vec[f32], o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        acc = 0.0
        for w in INT_TABLE:
            acc += f32(w)
        for d in OFFS:
            if d == 0:
                continue
            acc += x[(i + d + n) % n]
        o[i] = acc


def test_for_over_a_constant_table():
    x = np.arange(8, dtype=np.float32)
    want = sum(INT_TABLE) + np.roll(x, 1) + np.roll(x, -1)
    for (_, o, _) in _run(for_over_tables, [x, np.zeros(8, np.float32), 8]):
        assert list(o) == list(want)
    assert 'sarek.for "d_index"' in for_over_tables.ir() and "sarek.array_read %OFFS[%d_index]" in for_over_tables.ir()

    def k(a: Vec[i32]):
        for row in W2:  # <table2d>
            a[0] = row

    expect_error(k, "table2d", "'W2' has 2 dimensions: loop over one index")


W2 = np.zeros((2, 2), np.int32)


@device
def pair(x: f32) -> tuple[f32, f32]:
    return x, x * 2.0


@device
def pair_next(x: f32) -> tuple[f32, f32]:
    return pair(x + 1.0)          # a tuple returned as it is


@device
def pair_total(t: tuple[f32, f32]) -> f32:
    a, b = t                      # a tuple parameter taken apart
    return a + b


@kernel
def tuples_through_helpers(o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        o[i] = pair_total(pair_next(f32(i)))


def test_tuples_pass_through_helpers_and_parameters():
    for (o, _) in _run(tuples_through_helpers, [np.zeros(8, np.float32), 8]):
        assert list(o) == [3.0 * (k + 1) for k in range(8)]
