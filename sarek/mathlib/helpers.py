"""The math library's table: every routine by name (sarek/mathlib/routines.py, special.py, f32forms.py) and the
`sarek.helper` that holds one at a width (what sarek-expand-math inserts)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import UnitAttr, i32

from sarek.analysis.namer import GENERATED
from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.mathlib.f32forms import cbrt_via_pow, expm1_via_exp, hypot_scaled, log1p_via_log, pow_via_pow
from sarek.mathlib.ops import F32, F64, Guard, Ops, V
from sarek.mathlib.routines import (
    acos, asin, atan, atan2, cbrt, copysign, cos, cosh, exp, exp2, expm1, fmod, hypot, log, log1p, log2, log10, pow,
    pow_narrow, round, sin, sinh, tan, tanh)
from sarek.mathlib.special import atanh, erf, erfc, ldexp, lgamma

ROUTINES: dict[str, Callable[..., V]] = {
    "exp": exp, "exp2": exp2, "expm1": expm1, "log": log, "log2": log2, "log10": log10, "log1p": log1p,
    "sin": sin, "cos": cos, "tan": tan, "asin": asin, "acos": acos, "atan": atan, "atan2": atan2,
    "sinh": sinh, "cosh": cosh, "tanh": tanh, "cbrt": cbrt, "hypot": hypot, "pow_narrow": pow_narrow,
    "pow": pow, "fmod": fmod, "round": round, "copysign": copysign, "expm1_via_exp": expm1_via_exp,
    "log1p_via_log": log1p_via_log, "pow_via_pow": pow_via_pow, "cbrt_via_pow": cbrt_via_pow,
    "hypot_scaled": hypot_scaled, "erf": erf, "erfc": erfc, "atanh": atanh, "ldexp": ldexp, "lgamma": lgamma,
}
"""Routine name -> builder. In double, every one is accurate to 2 ulp except erfc (4: 1 - erf(x) near 1) and
`pow_narrow` (f32 results only);
fmod, round and copysign are exact at any width; the `*_via_*` and `hypot_scaled` forms are f32 ones."""

ARITY = {"atan2": 2, "hypot": 2, "pow_narrow": 2, "pow": 2, "fmod": 2, "copysign": 2, "pow_via_pow": 2,
         "hypot_scaled": 2, "ldexp": 2}
#: routines whose second parameter is an i32, not a float (ldexp's exponent)
INT_SECOND = frozenset({"ldexp"})


def helper_name(routine: str, width: int = 64) -> str:
    return f"sarek_{routine}_f{width}"


def build_helper(routine: str, width: int = 64, guard: Guard = "none") -> s.HelperOp:
    """`sarek.helper @sarek_<routine>_f<width>(x[, y]) -> f<width>` computing the routine at that width
    (`guard`: how its exact steps are kept from a compiler that reassociates, `Ops.fence`)."""
    fmt = F64 if width == 64 else F32
    n = ARITY.get(routine, 1)
    params = [(p, i32 if i and routine in INT_SECOND else fmt.ft) for i, p in enumerate("xy"[:n])]
    op = s.HelperOp(helper_name(routine, width), params, fmt.ft)
    op.attributes[GENERATED] = UnitAttr()
    b = BodyBuilder(op.body.block)
    b.return_(ROUTINES[routine](Ops(b, fmt, guard), *op.body.block.args))
    return op
