"""sarek.dialect.semantics: the folds of binop/unop/cast give C's answer or None, and its C arithmetic is the
interpreters' (they import it from there)."""

from __future__ import annotations

import random

import numpy as np

from xdsl.dialects.builtin import Float16Type, IntegerType, Signedness, f32, f64, i1, i32, i64

from sarek.dialect.expressions import BinOpKind as K
from sarek.dialect.expressions import UnOpKind as U
from sarek.dialect.semantics import cdiv, crem, float_to_int, fold_binop, fold_cast, fold_unop
from sarek.interp import arith as common

u32 = IntegerType(32, Signedness.UNSIGNED)


def test_c_arithmetic_is_the_interpreters() -> None:
    rng = random.Random(28)
    for _ in range(2000):
        a, b = rng.randint(-(1 << 40), 1 << 40), rng.choice([-1, 1]) * rng.randint(1, 1 << 20)
        assert (cdiv(a, b), crem(a, b)) == (common.cdiv(a, b), common.crem(a, b))
        x = rng.choice([float("nan"), float("inf"), -float("inf"), rng.uniform(-1e12, 1e12), rng.uniform(-3, 3)])
        for bits, uns in ((32, False), (64, False), (32, True)):
            assert float_to_int(x, bits, uns) == common.float_to_int(x, bits, uns)


def test_integer_folds_wrap_truncate_and_refuse_what_c_leaves_undefined() -> None:
    assert fold_binop(K.ADD, 2**31 - 1, 1, i32) == -(2**31)
    assert fold_binop(K.DIV, -7, 2, i32) == -3 and fold_binop(K.REM, -7, 2, i32) == -1
    assert fold_binop(K.DIV, 1, 0, i32) is None and fold_binop(K.REM, 1, 0, i64) is None
    assert fold_binop(K.SHL, 1, 32, i32) is None and fold_binop(K.SHL, 1, 31, i32) == -(2**31)
    assert fold_binop(K.SHL, 1, 31, u32) == 2**31
    assert fold_binop(K.LT, 1, 2, i32) is True and fold_binop(K.AND, True, False, i1) is False


def test_float_folds_round_to_the_type_and_leave_non_finite_results() -> None:
    assert fold_binop(K.ADD, 0.1, 0.2, f32) == float(np.float32(0.1) + np.float32(0.2))
    assert fold_binop(K.DIV, 1.0, 0.0, f64) is None and fold_binop(K.MUL, 1e300, 1e300, f64) is None
    assert fold_unop(U.NEG, 0.0, f32) == -0.0 and fold_unop(U.NEG, 1.0, Float16Type()) is None


def test_unops_and_casts() -> None:
    assert fold_unop(U.NEG, -(2**31), i32) == -(2**31) and fold_unop(U.BITNOT, 0, i32) == -1
    assert fold_unop(U.NOT, True, i1) is False
    assert fold_cast(3.9, f32, i32) == 3 and fold_cast(-3.9, f64, i32) == -3
    assert fold_cast(float("nan"), f32, i32) == 0 and fold_cast(1e20, f64, i32) == 2**31 - 1
    assert fold_cast(2**32 + 5, i64, i32) == 5 and fold_cast(-1, i32, u32) is None  # unsigned casts are left as written
    assert fold_cast(7, i32, i1) is True and fold_cast(16777217, i32, f32) == 16777216.0
