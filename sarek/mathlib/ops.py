"""`Ops`: the arithmetic the math routines are written in, building sarek IR through a BodyBuilder.

Floats are `fmt.ft` (f64 unless the routine is an f32 one), integers of the same width (`fmt.it`),
conditions i1. A product that reaches an addition or subtraction becomes one `fma` (never a `mul` then an
`add`): shader and OpenCL compilers may contract a separate pair into an fma, or not, so only an explicit
fma gives the same bits everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.dialects.builtin import Float32Type, UnitAttr, f32, f64, i1, i32, i64
from xdsl.ir import Attribute, OpResult, SSAValue

from sarek.dialect.builder import BodyBuilder

V = SSAValue
Num = SSAValue | float

#: the attribute `Ops.fence` sets at guard "precise": the value must be computed as written (no contraction,
#: no reassociation); GLSL declares it `precise`, which glslang turns into NoContraction on every operation
#: that computes it (sarek/lowering/shader/expressions.py)
PRECISE = "sarek.precise"
#: how the error-free steps are kept from a compiler that reassociates: "none" (it does not), "fence" (an
#: integer xor the compiler cannot see through), "precise" (the `PRECISE` attribute)
Guard = Literal["none", "fence", "precise"]


@dataclass(frozen=True)
class Format:
    """The bit layout of one float type: significand bits (without the hidden one), exponent bias, and the
    integer type its bits are read as."""

    ft: Attribute
    it: Attribute
    mant: int
    bias: int

    @property
    def width(self) -> int:
        return 32 if self.it == i32 else 64

    @property
    def precision(self) -> int:
        return self.mant + 1


F64 = Format(f64, i64, 52, 1023)


F32 = Format(f32, i32, 23, 127)


def format_of(t: Attribute) -> Format:
    return F32 if isinstance(t, Float32Type) else F64


@dataclass
class Ops:
    b: BodyBuilder
    fmt: Format = F64
    #: the target's compiler may reassociate (NVIDIA's Vulkan driver and Mesa do, unless told), so the
    #: error-free sums and stepwise scalings go through `fence`, which guards them this way
    guard: Guard = "none"
    # products not yet consumed: result -> (lhs, rhs), so that add/sub fold them into an fma
    _prod: dict[SSAValue, tuple[SSAValue, SSAValue]] = field(default_factory=dict[SSAValue, tuple[SSAValue, SSAValue]])

    def c(self, v: Num) -> V:
        if isinstance(v, SSAValue):
            return v
        return self.b.const(float(v), self.fmt.ft)

    def ci(self, v: int) -> V:
        return self.b.const(v, self.fmt.it)

    # -- float arithmetic
    def _bin(self, kind: str, x: Num, y: Num) -> V:
        return self.b.binop(kind, self.c(x), self.c(y))

    def mul(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        r = self.b.binop("mul", a, b)
        self._prod[r] = (a, b)
        return r

    def fence(self, v: V) -> V:
        """`v`, kept as computed, so `(a + b) - a` is not rewritten to `b`: at guard "fence" through a value
        the compiler cannot see through (its bits xor an integer that is 0 at run time, `grid_dim_x >> 31`),
        at "precise" marked `PRECISE` (GLSL's `precise`: NoContraction in the SPIR-V)."""
        if self.guard == "precise":
            return self.exact(v)
        return self.hold(v)

    def hold(self, v: V) -> V:
        """`v`, kept as computed where a later multiplication must not be folded into the one computing it: a
        stepwise scaling `(v * 2^a) * 2^b`, whose intermediate must stay in range. GLSL's `precise` forbids
        contraction, not that fold (NVIDIA's Vulkan driver folded sinh(710)'s two halves into an overflow), so
        both shaders (guards "fence" and "precise") get the integer fence."""
        if self.guard == "none":
            return v
        z = self.ibin("shr", self.b.cast(self.b.intrinsic("grid_dim_x"), self.fmt.it), 31)
        return self.from_bits(self.ibin("bitxor", self.bits(v), z))

    def exact(self, v: V) -> V:
        """At guard "precise", mark the operation computing `v` `PRECISE` (an error term: the compiler must
        neither contract nor reassociate what computes it); `v` unchanged otherwise."""
        if self.guard == "precise" and isinstance(v, OpResult):
            v.op.attributes[PRECISE] = UnitAttr()
        return v

    def settle(self, v: V) -> V:
        """Use product `v` as a plain value from here on (it is exact, or its rounding is wanted)."""
        self._prod.pop(v, None)
        return v

    def fma(self, x: Num, y: Num, z: Num) -> V:
        return self.b.intrinsic("fma", self.c(x), self.c(y), self.c(z))

    def add(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        if a in self._prod:
            return self.fma(*self._prod[a], b)
        if b in self._prod:
            return self.fma(*self._prod[b], a)
        return self.b.binop("add", a, b)

    def sub(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        if b in self._prod:
            p, q = self._prod[b]
            return self.fma(self.neg(p), q, a)
        if a in self._prod:
            return self.fma(*self._prod[a], self.neg(b))
        return self.b.binop("sub", a, b)

    def div(self, x: Num, y: Num) -> V:
        return self._bin("div", x, y)

    def neg(self, x: Num) -> V:
        return self.b.unop("neg", self.c(x))

    def sqrt(self, x: Num) -> V:
        return self.b.intrinsic("sqrt", self.c(x))

    def abs(self, x: Num) -> V:
        return self.b.intrinsic("fabs", self.c(x))

    def floor(self, x: Num) -> V:
        return self.b.intrinsic("floor", self.c(x))

    def trunc(self, x: Num) -> V:
        return self.b.intrinsic("trunc", self.c(x))

    def native(self, name: str, *xs: Num) -> V:
        """An intrinsic the target computes itself (f32 routines build on the target's exp, log, pow)."""
        return self.b.intrinsic(name, *[self.c(x) for x in xs])

    def fmin(self, x: Num, y: Num) -> V:
        return self.b.intrinsic("fmin", self.c(x), self.c(y))

    def fmax(self, x: Num, y: Num) -> V:
        return self.b.intrinsic("fmax", self.c(x), self.c(y))

    def poly(self, z: V, coeffs: Sequence[float]) -> V:
        """Horner with fma: coeffs[0] + z*(coeffs[1] + z*(...))."""
        acc = self.c(coeffs[-1])
        for cf in reversed(coeffs[:-1]):
            acc = self.fma(acc, z, cf)
        return acc

    def two_sum(self, a: V, b: V) -> tuple[V, V]:
        """s + e == a + b exactly (neither may be an unconsumed product: it would fuse)."""
        assert a not in self._prod and b not in self._prod, "two_sum of a product"
        s = self.fence(self.add(a, b))
        bb = self.fence(self.sub(s, a))
        return s, self.exact(self.add(self.sub(a, self.sub(s, bb)), self.sub(b, bb)))

    def fast_two_sum(self, a: V, b: V, exact: bool = False) -> tuple[V, V]:
        """s + e == a + b exactly when |a| >= |b| (or a == 0); `exact`: a may be a product that is exact
        (folding it into an fma then gives the same sum)."""
        assert (exact or a not in self._prod) and b not in self._prod, "fast_two_sum of a product"
        s = self.fence(self.add(a, b))
        return s, self.exact(self.sub(b, self.sub(s, a)))

    # -- comparisons and selection
    def cmp(self, kind: str, x: Num, y: Num) -> V:
        return self._bin(kind, x, y)

    def isnan(self, x: V) -> V:
        return self.b.binop("ne", x, x)

    def and_(self, p: V, q: V) -> V:
        return self.b.binop("and", p, q)

    def or_(self, p: V, q: V) -> V:
        return self.b.binop("or", p, q)

    def sel(self, p: V, x: Num, y: Num) -> V:
        """p ? x : y (both already computed)."""
        return self.b.choose(p, self.c(x), self.c(y))

    # -- bits (integers of the float's width)
    def bits(self, x: V) -> V:
        return self.b.bitcast(x, self.fmt.it)

    def from_bits(self, n: V) -> V:
        return self.b.bitcast(n, self.fmt.ft)

    def ibin(self, kind: str, x: V | int, y: V | int) -> V:
        a = x if isinstance(x, SSAValue) else self.ci(x)
        b = y if isinstance(y, SSAValue) else self.ci(y)
        return self.b.binop(kind, a, b)

    def to_int(self, x: V) -> V:
        return self.b.cast(x, self.fmt.it)

    def to_float(self, n: V) -> V:
        return self.b.cast(n, self.fmt.ft)

    def signbit(self, x: V) -> V:
        return self.ibin("lt", self.bits(x), 0)

    def copysign(self, mag: V, sign: V) -> V:
        top = 1 << (self.fmt.width - 1)
        m = self.ibin("bitand", self.bits(mag), top - 1)
        s = self.ibin("bitand", self.bits(sign), -top)
        return self.from_bits(self.ibin("bitor", m, s))

    def pow2(self, k: V) -> V:
        """2^k for an integer k in [1 - bias, bias] (a normal power of two)."""
        return self.from_bits(self.ibin("shl", self.ibin("add", k, self.fmt.bias), self.fmt.mant))

    def ilogb(self, x: V) -> V:
        """floor(log2 |x|) for a finite nonzero x, subnormals included (scaled up by 2^(mant + 2) first)."""
        k = self.fmt.mant + 2
        tiny = self.cmp("lt", self.abs(x), self.from_bits(self.ci(1 << self.fmt.mant)))
        xs = self.sel(tiny, self.mul(x, 2.0 ** k), x)
        mask = (1 << (self.fmt.width - 1 - self.fmt.mant)) - 1
        e = self.ibin("bitand", self.ibin("shr", self.bits(xs), self.fmt.mant), mask)
        return self.ibin("sub", self.ibin("sub", e, self.fmt.bias), self.sel(tiny, self.ci(k), self.ci(0)))

    def true(self) -> V:
        return self.b.const(True, i1)
