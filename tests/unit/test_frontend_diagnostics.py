"""Front-end diagnostics: every refusal is a sarek.CompileError located at the offending source position
(`file.py:LINE:COL: error: ...`), showing the source line and a caret."""

import re

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f32, i32, kernel, record, variant
from sarek import math as sm
from sarek.gpu import (atomic_add, barrier, block_idx_x, global_thread_id, shared, thread_idx_x, warp_barrier,
                       warp_shuffle_down)
from sarek.dialect.sarek import BarrierOp, BlockOp
from sarek.interp import run

with open(__file__) as _f:
    _LINES = _f.read().splitlines()


def _line_of(marker: str) -> int:
    hits = [i + 1 for i, text in enumerate(_LINES) if f"# <{marker}>" in text]
    assert len(hits) == 1, marker
    return hits[0]


def expect_error(fn, marker: str, *fragments: str) -> sarek.CompileError:
    with pytest.raises(sarek.CompileError) as info:
        sarek.compile(fn)
    e = info.value
    text = str(e)
    m = re.match(r"(.+\.py):(\d+):(\d+): error: ", text)
    assert m, text
    assert m.group(1) == __file__, text
    assert int(m.group(2)) == _line_of(marker), text
    assert e.line == _line_of(marker) and e.file == __file__
    for frag in fragments:
        assert frag in text, text
    # the source line and a caret under the column
    lines = text.splitlines()
    src, caret = lines[-2], lines[-1]
    assert src.strip() == _LINES[e.line - 1].strip(), text
    assert caret.strip() == "^", text
    assert caret.index("^") - 4 == e.col - 1, text
    return e


@record
class Point:
    x: f32
    y: f32


@variant
class Shape:
    Circle: f32
    Empty: ()


def not_a_device_function(x):
    return x


def test_unknown_name():
    def k(a: Vec[f32], n: i32):
        a[0] = undefined_thing  # <unknown>  # noqa: F821

    expect_error(k, "unknown", "unknown name 'undefined_thing'")


def test_type_mismatch_names_both_types():
    def k(a: Vec[f32], n: i32):
        a[0] = a[1] + n  # <mismatch>

    expect_error(k, "mismatch", "type mismatch", "f32", "i32")


def test_store_f32_into_i32_vector():
    def k(a: Vec[i32], x: f32):
        a[0] = x  # <store>

    expect_error(k, "store", "type mismatch", "f32", "i32")


def test_integer_division_refused():
    def k(a: Vec[i32], n: i32):
        a[0] = n / 2  # <intdiv>

    expect_error(k, "intdiv", "'/' on integers", "'//'")


ZERO = 0


def test_integer_division_by_constant_zero_refused():
    """A divisor that is the constant 0 (a literal, or a constant expression the front end folds) is refused
    at compile time: no device defines the answer (the interpreter stops, pocl gave -5, Vulkan x)."""
    def lit(a: Vec[i32], n: i32):
        a[0] = n // 0  # <divzero>

    expect_error(lit, "divzero", "integer division by zero", "'//' is the constant 0")

    def folded(a: Vec[sarek.u32], n: sarek.u32):
        a[0] = n % (ZERO * 4 - ZERO)  # <remzero>

    expect_error(folded, "remzero", "integer remainder by zero", "'%'")

    def fine(a: Vec[i32], f: Vec[f32], n: i32):
        a[0] = n // (ZERO + 1)  # a non-zero constant, and a float division by 0.0 (IEEE: inf or NaN), compile
        f[0] = f[0] / 0.0

    sarek.compile(fine)


def test_rebinding_a_vector_parameter_is_refused():
    def k(a: Vec[f32], b: Vec[f32], n: i32):
        n = 3
        a = b  # <param>
        a[0] = f32(n)

    expect_error(k, "param", "cannot rebind vector parameter 'a'", "w = v[k:]")


def test_augmented_assignment_to_an_array_parameter_is_refused():
    def k(a: Vec[f32], n: i32):
        a += 1  # <augparam>

    expect_error(k, "augparam", "vector parameter 'a'")


def test_kernel_return_value_refused():
    def k(a: Vec[f32], n: i32):
        for i in range(n):
            return a[i]  # <kret>

    expect_error(k, "kret", "a kernel returns nothing: write a bare 'return'")


def test_assert_message_must_be_a_literal():
    def k(a: Vec[f32], n: i32):
        assert n > 0, n  # <amsg>

    expect_error(k, "amsg", "the message of 'assert' must be a string literal")


def test_assert_condition_must_be_bool():
    def k(a: Vec[f32], n: i32):
        assert n, "n"  # <acond>

    expect_error(k, "acond", "a condition must be bool")


def test_range_step_zero_constant():
    def k(a: Vec[f32], n: i32):
        for i in range(0, n, 0):  # <step0>
            a[i] = 0.0

    expect_error(k, "step0", "the range step must not be zero")


def test_range_step_type_mismatch():
    def k(a: Vec[f32], n: i32, s: sarek.types.i64):
        for i in range(0, n, s):  # <steptype>
            a[i] = 0.0

    expect_error(k, "steptype", "the range bounds are i32, the step is i64")


def test_range_step_float():
    def k(a: Vec[f32], n: i32):
        for i in range(0, n, 1.5):  # <stepfloat>
            a[i] = 0.0

    expect_error(k, "stepfloat", "the range step must be an integer, got 1.5")


def test_while_true_break_assigns():
    """After `while True:` what every break has assigned is assigned; a name only some break assigns is not."""
    def ok(a: Vec[f32], n: i32):
        while True:
            x = a[0]
            if x > 0.0:
                break
            a[0] = x + 1.0
        a[1] = x

    sarek.compile(ok)

    def bad(a: Vec[f32], n: i32):
        while True:
            if a[0] > 0.0:
                break
            x = a[0]
            break
        a[1] = x  # <partial>

    expect_error(bad, "partial", "'x' is used before it is assigned")


def test_break_refused_in_superstep_if_divergent():
    def k(a: Vec[f32], n: i32):
        for i in range(n):
            if thread_idx_x < i:
                break
            barrier()  # <brkbar>

    expect_error(k, "brkbar", "barrier() under thread-divergent control flow (a break at line")


def test_helper_while_true_with_break_must_return():
    @device
    def h(x: i32) -> i32:  # <wtb>
        while True:
            if x > 0:
                break
            return x

    def k(a: Vec[i32]):
        a[0] = h(a[0])

    expect_error(k, "wtb", "can reach its end without a return")


def test_bitcast_widths_differ():
    def k(a: Vec[f32], o: Vec[sarek.types.i64]):
        o[0] = sarek.bitcast(a[0], sarek.types.i64)  # <bcw>

    expect_error(k, "bcw", "bitcast() needs types of the same width: f32 has 32 bits, i64 64")


def test_bitcast_needs_a_type():
    def k(a: Vec[f32], o: Vec[i32]):
        o[0] = sarek.bitcast(a[0], a)  # <bct>

    expect_error(k, "bct", "the second argument of bitcast() must be a scalar type")


def test_bitcast_of_bool_refused():
    def k(a: Vec[i32]):
        a[0] = sarek.bitcast(a[0] > 0, i32)  # <bcb>

    expect_error(k, "bcb", "bitcast() reinterprets the bits of a number")


def test_closure_refused():
    def k(a: Vec[f32], n: i32):
        def inner(x):  # <closure>
            return x

    expect_error(k, "closure", "closures")


def test_lambda_refused():
    def k(a: Vec[f32], n: i32):
        f = lambda x: x  # <lambda>  # noqa: E731

    expect_error(k, "lambda", "lambdas")


def test_try_refused():
    def k(a: Vec[f32], n: i32):
        try:  # <try>
            a[0] = 1.0
        except Exception:
            pass

    expect_error(k, "try", "'try' is not supported")


def test_generator_refused():
    def k(a: Vec[f32], n: i32):
        yield n  # <yield>

    expect_error(k, "yield", "generators")


def test_comprehension_refused():
    def k(a: Vec[f32], n: i32):
        x = [i for i in range(n)]  # <comp>

    expect_error(k, "comp", "comprehensions")


@device
def rec_a(x: i32) -> i32:
    return rec_b(x)


@device
def rec_b(x: i32) -> i32:
    return rec_a(x - 1)  # <rec_site>


def test_recursion_refused():
    def k(a: Vec[i32], n: i32):
        a[0] = rec_a(n)

    expect_error(k, "rec_site", "recursive call", "rec_a -> rec_b -> rec_a", "loop")


@device
def selfrec(x: i32) -> i32:
    return selfrec(x)  # <selfrec>


def test_direct_recursion_refused():
    def k(a: Vec[i32], n: i32):
        a[0] = selfrec(n)

    expect_error(k, "selfrec", "recursive call to device function 'selfrec'")


def test_wrong_intrinsic_arity():
    def k(a: Vec[f32], n: i32):
        a[0] = sm.sqrt(a[0], a[1])  # <arity>

    expect_error(k, "arity", "takes 1 argument(s), 2 given")


def test_wrong_barrier_arity():
    def k(a: Vec[f32], n: i32):
        barrier(1)  # <barrier_arity>

    expect_error(k, "barrier_arity", "barrier() takes 0 arguments")


def test_wrong_atomic_arity():
    def k(a: Vec[i32], n: i32):
        atomic_add(a, 0)  # <atomic_arity>

    expect_error(k, "atomic_arity", "atomic_add() takes 3 argument(s), 2 given")


def test_math_on_integer_refused():
    def k(a: Vec[f32], n: i32):
        a[0] = sm.sqrt(n)  # <sqrt_int>

    expect_error(k, "sqrt_int", "type mismatch", "i32")


def test_barrier_under_divergent_if():
    def k(a: Vec[f32], n: i32):
        if thread_idx_x > 16:
            barrier()  # <diverged>

    expect_error(k, "diverged", "barrier()", "thread-divergent")


def test_barrier_under_divergent_mutable():
    def k(a: Vec[f32], n: i32):
        x = 0
        x = thread_idx_x
        while x < n:
            barrier()  # <diverged_loop>
            x += 1

    expect_error(k, "diverged_loop", "thread-divergent")


def test_superstep_diverged():
    def k(a: Vec[f32], n: i32):
        s = shared(f32, 64)
        if global_thread_id < n:
            with sarek.superstep():  # <superstep>
                s[thread_idx_x] = a[global_thread_id]

    expect_error(k, "superstep", "thread-divergent")


# Sarek's superstep_diverged: a thread-varying `if` inside a non-divergent superstep is refused (the implicit
# barrier at the end of the superstep would be in diverged control flow); `superstep(divergent=True)` allows it.
# Conditional expressions and block-uniform conditions are fine in a plain superstep.

def _run_tile(k) -> np.ndarray:
    inp = np.arange(64, dtype=np.float32) + 1
    out = np.zeros(64, np.float32)
    run(k.module, k.name, [inp, out], (2, 1, 1), (32, 1, 1), executor="reference")
    return out


def _tile_ref(cond) -> np.ndarray:
    inp = np.arange(64, dtype=np.float32) + 1
    tile = np.where(cond(np.arange(32)), inp.reshape(2, 32), 0)
    return tile[:, ::-1].reshape(-1)


def test_superstep_thread_varying_if_refused():
    def bad_step(inp: Vec[f32], out: Vec[f32]):
        tile = shared(f32, 32)
        tile[thread_idx_x] = 0.0
        barrier()
        with sarek.superstep():
            if thread_idx_x > 16:  # <superstep_if>
                tile[thread_idx_x] = inp[global_thread_id]
        out[global_thread_id] = tile[31 - thread_idx_x]

    e = expect_error(bad_step, "superstep_if", "thread-divergent 'if' inside superstep()",
                     "depends on thread_idx_x", "diverged control flow", "superstep(divergent=True)")
    assert e.col == 13


def test_divergent_superstep_compiles_and_runs():
    def divergent_step(inp: Vec[f32], out: Vec[f32]):
        tile = shared(f32, 32)
        tile[thread_idx_x] = 0.0
        barrier()
        with sarek.superstep(divergent=True):
            if thread_idx_x > 16:
                tile[thread_idx_x] = inp[global_thread_id]
        out[global_thread_id] = tile[31 - thread_idx_x]

    k = sarek.compile(divergent_step)
    blocks = [op for op in k.module.walk() if isinstance(op, BlockOp)]
    assert [b.is_divergent_superstep for b in blocks] == [True]
    assert isinstance(blocks[0].next_op, BarrierOp)
    assert np.array_equal(_run_tile(k), _tile_ref(lambda t: t > 16))


def test_superstep_conditional_expression_and_uniform_if_compile():
    def k(inp: Vec[f32], out: Vec[f32]):
        tile = shared(f32, 32)
        with sarek.superstep():
            tile[thread_idx_x] = inp[global_thread_id] if thread_idx_x > 16 else 0.0
            if block_idx_x == 0:
                tile[thread_idx_x] = -tile[thread_idx_x]
        out[global_thread_id] = tile[31 - thread_idx_x]

    kc = sarek.compile(k)
    blocks = [op for op in kc.module.walk() if isinstance(op, BlockOp)]
    assert [(b.is_superstep, b.is_divergent_superstep) for b in blocks] == [(True, False)]
    ref = _tile_ref(lambda t: t > 16)
    ref[:32] *= -1
    assert np.array_equal(_run_tile(kc), ref)


@device
def clamp_low(x: i32) -> i32:
    if x < 8:
        return 8
    return x


def test_superstep_thread_varying_statements_refused():
    def k_for(a: Vec[f32], n: i32):
        with sarek.superstep():
            for i in range(thread_idx_x):  # <superstep_for>
                a[i] = 0.0

    def k_while(a: Vec[f32], n: i32):
        with sarek.superstep():
            i = global_thread_id
            while i < n:  # <superstep_while>
                i += 32

    def k_nested(a: Vec[f32], n: i32):
        with sarek.superstep():
            if n > 0:
                for j in range(4):
                    if global_thread_id == j:  # <superstep_nested>
                        a[j] = 1.0

    def k_inner(a: Vec[f32], n: i32):
        with sarek.superstep(divergent=True):
            if global_thread_id < n:
                a[global_thread_id] = 0.0
            with sarek.superstep():
                if global_thread_id < n:  # <superstep_inner>
                    a[global_thread_id] = 1.0

    expect_error(k_for, "superstep_for", "thread-divergent 'for' loop inside superstep()", "a bound at line")
    expect_error(k_while, "superstep_while", "thread-divergent 'while' loop inside superstep()",
                 "variable 'i' (global_thread_id)")
    expect_error(k_nested, "superstep_nested", "thread-divergent 'if'", "global_thread_id")
    expect_error(k_inner, "superstep_inner", "thread-divergent 'if'", "superstep(divergent=True)")


def test_superstep_helpers_are_not_inspected():
    def k(a: Vec[i32], n: i32):
        with sarek.superstep():
            a[global_thread_id] = clamp_low(global_thread_id)

    kc = sarek.compile(k)
    a = np.zeros(32, np.int32)
    run(kc.module, kc.name, [a, 32], (1, 1, 1), (32, 1, 1), executor="reference")
    assert list(a) == [max(i, 8) for i in range(32)]


def test_superstep_divergent_must_be_constant():
    def k(a: Vec[f32], n: i32):
        with sarek.superstep(divergent=n > 0):  # <superstep_flag>
            a[0] = 1.0

    expect_error(k, "superstep_flag", "superstep(divergent=...) takes a constant True or False")


def test_warp_shuffle_diverged():
    def k(a: Vec[f32], n: i32):
        x = a[global_thread_id]
        if thread_idx_x < 7:
            a[global_thread_id] = warp_shuffle_down(x, 1)  # <warp>

    expect_error(k, "warp", "warp_shuffle_down()", "thread-divergent")


@device
def syncs(x: f32) -> f32:
    warp_barrier()
    return x


def test_call_to_synchronising_helper_diverged():
    def k(a: Vec[f32], n: i32):
        if thread_idx_x < 3:
            a[0] = syncs(a[0])  # <synccall>

    expect_error(k, "synccall", "synchronises", "thread-divergent")


def test_use_before_assignment_on_some_path():
    def k(a: Vec[f32], n: i32):
        if n > 0:
            x = 1.0
        a[0] = x  # <unassigned>

    expect_error(k, "unassigned", "'x' is used before it is assigned")


def test_missing_record_field():
    def k(a: Vec[Point], out: Vec[f32]):
        out[0] = a[0].z  # <nofield>

    expect_error(k, "nofield", "record Point has no field 'z'")


def test_record_constructor_missing_field():
    def k(a: Vec[Point], out: Vec[f32]):
        a[0] = Point(x=1.0)  # <missingfield>

    expect_error(k, "missingfield", "needs field(s) 'y'")


def test_unbound_function():
    def k(a: Vec[i32], n: i32):
        a[0] = not_a_device_function(n)  # <unbound>

    expect_error(k, "unbound", "not a @sarek.device function")


def test_condition_must_be_bool():
    def k(a: Vec[i32], n: i32):
        if n:  # <cond>
            a[0] = 1

    expect_error(k, "cond", "condition must be bool, got i32")


def test_mutable_type_fixed_by_first_assignment():
    def k(a: Vec[f32], n: i32):
        x = 1
        x = 2.5  # <retype>
        a[0] = f32(x)

    expect_error(k, "retype", "'x' has type i32", "f32")




def test_helper_missing_return():
    @device
    def h(x: i32) -> i32:  # <noreturn>
        if x > 0:
            return x

    def k(a: Vec[i32], n: i32):
        a[0] = h(n)

    expect_error(k, "noreturn", "without a return")


def test_kernel_bare_return_allowed():
    """A bare `return` anywhere in a kernel ends the thread (no error); what follows it is never run."""
    def k(a: Vec[f32], n: i32):
        a[0] = 1.0
        return
        a[0] = 2.0

    a = np.zeros(1, np.float32)
    sarek.kernel(k).launch(a, 1, grid=1, block=1, device="interp")
    assert a[0] == 1.0


def test_missing_annotation():
    def k(a, n: i32):  # <noann>
        pass

    e = expect_error(k, "noann", "parameter 'a' needs a type annotation")
    assert e.col > 1


def test_match_on_non_variant():
    def k(a: Vec[f32], n: i32):
        match n:  # <matchint>
            case _:
                pass

    expect_error(k, "matchint", "match needs a variant value, got i32")


def test_wrong_constructor_payload_count():
    def k(a: Vec[Shape], n: i32):
        a[0] = Shape.Circle(1.0, 2.0)  # <payload>

    expect_error(k, "payload", "takes 1 payload value(s), 2 given")


def test_call_argument_type_mismatch():
    @device
    def h(x: f32) -> f32:
        return x

    def k(a: Vec[f32], n: i32):
        a[0] = h(n)  # <argtype>

    expect_error(k, "argtype", "parameter 'x' of h() is f32, given i32")


def test_short_circuit_needs_bools():
    def k(a: Vec[f32], n: i32):
        if n > 0 and n:  # <andint>
            a[0] = 1.0

    expect_error(k, "andint", "'and' needs bool operands, got i32")


def test_kernel_not_callable():
    k = kernel(lambda: None)
    with pytest.raises(TypeError, match="launch"):
        k()


def test_compile_error_is_a_sarek_error():
    from sarek.diagnostics import SarekError

    assert issubclass(sarek.CompileError, SarekError)


def test_atomic_on_scalar_refused():
    def k(a: Vec[i32], n: i32):
        atomic_add(n, 0, 1)  # <atomicscalar>

    expect_error(k, "atomicscalar", "needs a vector or array")


def test_captured_variable_refused():
    factor = 2.0

    def k(a: Vec[f32], n: i32):
        a[0] = a[0] * factor  # <captured>

    expect_error(k, "captured", "closure", "'factor'")


def test_captured_types_and_helpers_work():
    @record
    class Local:
        v: f32

    @device
    def twice(x: f32) -> f32:
        return 2.0 * x

    def k(a: Vec[Local], n: i32):
        a[0] = Local(v=twice(a[0].v))

    sarek.compile(k).module.verify()


def test_kernel_return_inside_loop():
    """A kernel's `return` inside a loop ends the thread."""
    def k(a: Vec[f32], n: i32):
        for i in range(n):
            if a[i] > 0.0:
                return
            a[i] = 1.0

    a = np.array([-1, -2, 3, -4], np.float32)
    sarek.kernel(k).launch(a, 4, grid=1, block=1, device="interp")
    assert a.tolist() == [1, 1, 3, -4]
