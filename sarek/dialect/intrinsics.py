"""The table of `sarek.intrinsic` names: arity, operand kinds and result type.

One table serves the verifier, the front end, the interpreter and every backend, so a name is
accepted everywhere or nowhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, Signedness, i1, i32
from xdsl.ir import Attribute

from sarek.dialect.types import ArrayType, VecType, is_float, is_int
from sarek.dialect.types import is_integer_type as is_integer_type
from sarek.math_names import BINARY_FLOAT as BINARY_FLOAT
from sarek.math_names import UNARY_FLOAT as UNARY_FLOAT


class Category(Enum):
    INDEX = "index"
    MATH = "math"
    ATOMIC = "atomic"
    WARP = "warp"
    BLOCK = "block"  # block votes: a barrier of the whole block that also combines a condition


@dataclass(frozen=True)
class Intrinsic:
    name: str
    category: Category
    arity: int
    # returns the result type, or an error message naming what is wrong
    check: Callable[[Sequence[Attribute]], Attribute | str]
    doc: str

    @property
    def pure(self) -> bool:
        return self.category not in (Category.ATOMIC, Category.BLOCK)


def _index(_: Sequence[Attribute]) -> Attribute | str:
    return i32


def _float_n(n: int) -> Callable[[Sequence[Attribute]], Attribute | str]:
    def check(ts: Sequence[Attribute]) -> Attribute | str:
        if not is_float(ts[0]) or any(t != ts[0] for t in ts):
            return f"expects {n} operand(s) of one float type, got ({', '.join(map(str, ts))})"
        return ts[0]

    return check


def _ldexp(ts: Sequence[Attribute]) -> Attribute | str:
    if not is_float(ts[0]) or ts[1] != i32:
        return f"expects a float and an i32, got ({', '.join(map(str, ts))})"
    return ts[0]


def _num_n(n: int) -> Callable[[Sequence[Attribute]], Attribute | str]:
    def check(ts: Sequence[Attribute]) -> Attribute | str:
        if not (is_float(ts[0]) or is_int(ts[0])) or any(t != ts[0] for t in ts):
            return f"expects {n} operand(s) of one numeric type, got ({', '.join(map(str, ts))})"
        return ts[0]

    return check


def _int_count(ts: Sequence[Attribute]) -> Attribute | str:
    if not is_int(ts[0]):
        return f"expects an integer operand, got {ts[0]}"
    return i32


def _int_same(ts: Sequence[Attribute]) -> Attribute | str:
    if not is_int(ts[0]):
        return f"expects an i32 or i64 operand, got {ts[0]}"
    return ts[0]


def _atomic(extra: int) -> Callable[[Sequence[Attribute]], Attribute | str]:
    def check(ts: Sequence[Attribute]) -> Attribute | str:
        base = ts[0]
        if not isinstance(base, VecType | ArrayType):
            return f"expects a vector or array as first operand, got {base}"
        elt = base.element_type
        if not (is_int(elt) or is_unsigned_wide(elt) or isinstance(elt, Float32Type | Float64Type)):
            return f"expects an i32, i64, u32, u64, f32 or f64 element type, got {elt}"
        if ts[1] != i32:
            return f"expects an i32 index, got {ts[1]}"
        for t in ts[2:]:
            if t != elt:
                return f"expects value operands of the element type {elt}, got {t}"
        return elt

    return check


def is_unsigned_wide(t: Attribute) -> bool:
    """u32 or u64: the unsigned types atomics and warp vote masks take."""
    return is_integer_type(t) and t.width.data in (32, 64) and t.signedness.data == Signedness.UNSIGNED


def _warp(ts: Sequence[Attribute]) -> Attribute | str:
    if not (is_int(ts[0]) or isinstance(ts[0], Float32Type | Float64Type)):
        return f"expects an i32, i64, f32 or f64 value, got {ts[0]}"
    if ts[1] != i32:
        return f"expects an i32 lane operand, got {ts[1]}"
    return ts[0]


def _vote(result: Attribute) -> Callable[[Sequence[Attribute]], Attribute | str]:
    def check(ts: Sequence[Attribute]) -> Attribute | str:
        if ts[0] != i1:
            return f"expects a bool condition, got {ts[0]}"
        return result

    return check


def is_warp_exchange(name: str) -> bool:
    """A shuffle or a vote: a warp collective whose result depends on the other lanes."""
    return name in WARP_SHUFFLES or name in WARP_VOTES


def _build() -> dict[str, Intrinsic]:
    table: dict[str, Intrinsic] = {}

    def add(name: str, cat: Category, arity: int, check: Callable[[Sequence[Attribute]], Attribute | str], doc: str):
        table[name] = Intrinsic(name, cat, arity, check, doc)

    for d in "xyz":
        for base, doc in (
            ("thread_idx", "thread index in its block"),
            ("block_idx", "block index in the grid"),
            ("block_dim", "threads per block"),
            ("grid_dim", "blocks per grid"),
            ("global_idx", "global thread index"),
            ("global_size", "threads in the grid"),
        ):
            add(f"{base}_{d}", Category.INDEX, 0, _index, f"{doc} along {d}")
    add("global_thread_id", Category.INDEX, 0, _index, "global_idx_x")
    add("global_size", Category.INDEX, 0, _index, "global_size_x")
    add("lane_id", Category.WARP, 0, _index, "lane in the warp/subgroup")
    add("warp_size", Category.WARP, 0, _index, "warp/subgroup width")
    add("warp_id", Category.WARP, 0, _index, "linear thread index in the block // warp_size (uniform in a warp)")
    for n in UNARY_FLOAT:
        add(n, Category.MATH, 1, _float_n(1), f"{n}(x)")
    for n in BINARY_FLOAT:
        add(n, Category.MATH, 2, _float_n(2), f"{n}(x, y)")
    add("fma", Category.MATH, 3, _float_n(3), "x * y + z, one rounding")
    add("ldexp", Category.MATH, 2, _ldexp, "ldexp(x, n): x * 2^n, one rounding")
    add("abs", Category.MATH, 1, _num_n(1), "absolute value (int or float)")
    add("min", Category.MATH, 2, _num_n(2), "minimum (int or float)")
    add("max", Category.MATH, 2, _num_n(2), "maximum (int or float)")
    add("clz", Category.MATH, 1, _int_count, "leading zero bits")
    add("popcount", Category.MATH, 1, _int_count, "set bits")
    add("bit_reverse", Category.MATH, 1, _int_same, "the bits in reverse order (bit 0 becomes the top bit)")
    for n in ATOMIC_RMW:
        add(n, Category.ATOMIC, 3, _atomic(1), f"{n}(v, i, x): old value of v[i]")
    add("atomic_cas", Category.ATOMIC, 4, _atomic(2), "atomic_cas(v, i, cmp, x): old value of v[i]")
    add("atomic_inc", Category.ATOMIC, 2, _atomic(0), "atomic_inc(v, i): old value of v[i]")
    add("atomic_dec", Category.ATOMIC, 2, _atomic(0), "atomic_dec(v, i): old value of v[i]")
    for n in WARP_SHUFFLES:
        add(n, Category.WARP, 2, _warp, f"{n}(x, lane): value of x in another lane (own lane when out of range)")
    add("warp_any", Category.WARP, 1, _vote(i1), "warp_any(c): c holds on some lane of the warp")
    add("warp_all", Category.WARP, 1, _vote(i1), "warp_all(c): c holds on every lane of the warp")
    add("warp_ballot", Category.WARP, 1, _vote(ui32), "warp_ballot(c): bit k set where c holds on lane k (k < 32)")
    add("warp_ballot64", Category.WARP, 1, _vote(ui64), "warp_ballot64(c): bit k set where c holds on lane k (k < 64)")
    add("barrier_count", Category.BLOCK, 1, _vote(i32), "barrier_count(c): a block barrier; threads of the block where c holds")
    add("barrier_and", Category.BLOCK, 1, _vote(i1), "barrier_and(c): a block barrier; c holds on every thread of the block")
    add("barrier_or", Category.BLOCK, 1, _vote(i1), "barrier_or(c): a block barrier; c holds on some thread of the block")
    return table


ATOMIC_RMW = "atomic_add atomic_sub atomic_min atomic_max atomic_exch atomic_and atomic_or atomic_xor".split()
WARP_SHUFFLES = "warp_shuffle warp_shuffle_up warp_shuffle_down warp_shuffle_xor".split()
WARP_VOTES = ("warp_any", "warp_all", "warp_ballot", "warp_ballot64")

ui32 = IntegerType(32, Signedness.UNSIGNED)
ui64 = IntegerType(64, Signedness.UNSIGNED)
INTRINSICS: dict[str, Intrinsic] = _build()
