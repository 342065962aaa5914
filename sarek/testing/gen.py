"""Random well-defined sarek kernels (Csmith-style) as Python source, for the differential fuzzer.

`generate(seed)` returns a `Program`: the text of a Python module holding a `@kernel` (named `fz<seed>`), the
`@device` helpers, `@record` and `@variant` types it uses, and a `CASE` dict (grid, block, n, output sizes, the
float tolerance scale). The text is the reproducer: `sarek.testing.fuzz` imports it from a file.

Well-definedness, by construction (no run-time checks are needed):
- integers: every expression carries a static interval; an operation whose interval could leave the type is
  given reduced operands (`x % 1009`) instead, so nothing overflows; divisors are provably non-zero (`(e | 1)`,
  `(abs(e) % 13 + 1)`), shift counts are constants or masked below the width, left shifts apply to
  non-negative values only; every integer local stays within +-STORE (assignments reduce with `% 32749`).
- floats: a value is *exact* when built from quarter-integers by + - * min max abs floor within 2^20 (no
  rounding: every device must give the same bits); only exact values are compared, cast to int, floored, or
  used with float `%` and `//` (a discontinuous operation on a rounded value could flip). `%` is C's fmod,
  exact everywhere; `//` is trunc of a quotient, and a device's `/` may be 2.5 ulp off (NVIDIA's OpenCL and
  Vulkan), so the numerator is (floor(a) + f) * d: the quotient is k + f, f in {1/4, 1/2, 3/4}, far from a
  discontinuity (the `interp-div` device, runs.DivisionErrorDevice, checks it). Inexact values come
  from `/` by `abs(y) + 1.0` and math intrinsics on safe domains (sqrt of abs, log of abs + 1, exp of a
  clamped value, asin of a clamped value); they are clamped to +-1000 so the tolerance can be absolute.
- control: loops run a bounded number of times (constant bounds; a run-time `range` step is `abs(e) % 3 + 1`
  or its negation); `break` and `continue` sit under a condition in a loop body (`continue` only in `for`
  loops: a `while` loop's counter increment is its last statement), `return` under a condition in a kernel
  (the thread's outputs keep their zeros).
- memory: inputs are read at `(e % n + n) % n`; each thread writes only its own output slots; shared memory is
  written at the thread's own index, read after a top-level barrier; atomics are commutative (add, min, max,
  and, or, xor), each op on its own accumulator slots (`ATOMIC_OPS`), so the final value is order-independent,
  their results unused; warp shuffles use xor masks below 4 (a 4-lane group exists in every device's warp);
  private arrays are filled before they are read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

I32_MAX = 2**31 - 1
I64_MAX = 2**63 - 1
STORE = {"i32": 32749, "i64": 2**40}
RED = {"i32": 1009, "i64": 1000003}
LIMIT = {"i32": 2**30, "i64": 2**61}
EXACT_FLOAT = {"f32": 2.0**20, "f64": 2.0**40}
FCLAMP = 1000.0
FB_MAX = 4

UNARY_SAFE = ("sin", "cos", "atan", "tanh")
#: the features a kernel may use, each drawn with probability FEATURE_P (default 0.5), in this order
FEATURES = ("i64", "f64", "helpers", "records", "variants", "loops", "shared", "warp", "atomics", "math", "local",
            "floatops")
#: features of constructs added since (issue 15 control flow: "jumps" = break/continue/return and a run-time
#: range step; issue 14: "arrays" = an `Array[i32, 2]` input, 2-D shared and private arrays), drawn from a
#: second stream
LATER_FEATURES = ("jumps", "arrays")
#: and a third stream (this session's constructs): "narrow" = an input and an output vector of one of
#: NARROW_TYPES with a local of it (casts, arithmetic, C promotions, stores that wrap); "bitcast" =
#: `sarek.bitcast` float -> int bits and int bits -> float; "fatomic" = f32 `atomic_add` of small integers (exact,
#: so order-independent); "print" = `print(...)` of exact values (compared as text); "arrays3" = an
#: `Array[i32, 3]` input read at three indices
LATEST_FEATURES = ("narrow", "bitcast", "fatomic", "print", "arrays3")
FEATURE_P = {"i64": 0.35, "f64": 0.2, "shared": 0.25, "warp": 0.2, "narrow": 0.3, "bitcast": 0.3, "fatomic": 0.15,
             "print": 0.2, "arrays3": 0.2}
#: the narrow element types and the values their inputs hold (bf16: quarter-integers, exact in bf16)
NARROW_TYPES = ("u8", "i8", "u16", "i16", "u32", "u64", "bf16")
NARROW_RANGE = {"u8": (0, 255), "i8": (-128, 127), "u16": (0, 65535), "i16": (-32768, 32767), "u32": (0, 2**32 - 1),
                "u64": (0, 2**64 - 1), "bf16": (-32, 32)}
#: f32 accumulator slots of the float atomics (feature "fatomic"; every addend a small integer)
ACCF_SLOTS = 4
#: the 3-D input `a3` (feature "arrays3") has shape A3_SHAPE + (n // 4,)
A3_SHAPE = (2, 2)
#: the integer atomics; op j owns the accumulator slots 2j and 2j+1 (two different ops on one slot race: their
#: final value depends on the schedule, which is how the H200 campaign's 5 "interpreter is wrong" seeds came about)
ATOMIC_OPS = ("atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor")
#: the accumulator's initial slots (fuzz.make_args): identity-ish starts so min/max/and change something
ACC_INIT = (0, 0, 100000, 100000, -100000, -100000, -1, -1, 0, 0, 0, 0)
#: the 2-D input `a2` (feature "arrays") has A2_ROWS rows of n // A2_ROWS
A2_ROWS = 4


@dataclass
class IE:
    """An integer expression: its text, type and a static interval holding every value it can take."""

    text: str
    ty: str
    lo: int
    hi: int
    lit: bool = False

    @property
    def mag(self) -> int:
        return max(abs(self.lo), abs(self.hi))


@dataclass
class FE:
    """A float expression: text, type, whether it is exact (never rounded), its fraction bits and a bound."""

    text: str
    ty: str
    exact: bool
    fb: int
    bound: float
    lit: bool = False


@dataclass
class Var:
    name: str
    ty: str
    exact: bool = False  # float locals: exact (fb <= FB_MAX, |v| <= 256) or inexact (|v| <= FCLAMP)
    ro: bool = False  # parameters and match binders are not assigned


@dataclass
class Helper:
    name: str
    params: list[tuple[str, str]]
    ret: str


@dataclass
class Program:
    """One generated kernel: the module's source and its launch description."""

    seed: int
    source: str
    case: dict[str, Any] = field(default_factory=lambda: {})

    @property
    def name(self) -> str:
        return f"fz{self.seed}"


class Gen:
    """Builds one kernel module; `self.lines` collects the source."""

    def __init__(self, seed: int, features: frozenset[str] | None = None):
        self.seed = seed
        self.r = random.Random(seed)
        r = self.r
        self.n = 0
        self.block = r.choice([32, 64])
        self.grid = r.choice([1, 2])
        self.n = self.block * self.grid
        # a fixed order (FEATURES is a tuple): iterating a set of strings depends on PYTHONHASHSEED, which made
        # a seed's kernel differ between processes (the H200 campaign's seeds did not reproduce here)
        # (features added later are drawn from their own stream, so the kernels without them stay as they were)
        later = random.Random(f"sarek-fuzz-later-{seed}")
        latest = random.Random(f"sarek-fuzz-latest-{seed}")
        self.feats = set(features) if features is not None else {
            f for f in FEATURES if r.random() < FEATURE_P.get(f, 0.5)} | {
            f for f in LATER_FEATURES if later.random() < FEATURE_P.get(f, 0.5)} | {
            f for f in LATEST_FEATURES if latest.random() < FEATURE_P.get(f, 0.5)}
        self.narrow = latest.choice(NARROW_TYPES) if "narrow" in self.feats else ""
        self.zn = ""  # the narrow local, once assigned
        self.uses_accf = False
        self.uses_sarek = False  # `import sarek` (sarek.bitcast)
        self.prints = 0
        self.barrier_mode = bool({"shared", "warp"} & self.feats)
        self.out: list[str] = []
        self.vars: list[Var] = []
        self.ivars_ro: list[IE] = []  # read-only ints in scope (loop counters, binders with known ranges)
        self.helpers: list[Helper] = []
        self.counter = 0
        self.depth = 0
        self.in_helper = False
        self.uses_lowprec = False  # uses intrinsics lavapipe computes with low precision
        self.rec = f"Fz{seed}R"
        self.var_t = f"Fz{seed}V"
        self.has_rec = "records" in self.feats
        self.has_var = "variants" in self.feats
        self.p_ready = False  # the record local `p` is assigned (from then on it may be read)
        self.int_types = ["i32", "i64"] if "i64" in self.feats else ["i32"]
        self.float_types = ["f32", "f64"] if "f64" in self.feats else ["f32"]
        self.imports: set[str] = {"global_thread_id"}
        self.in_a2 = False  # building the indices of a 2-D read
        self.loops: list[str] = []  # the enclosing loops, innermost last ("for" | "while")

    # -- names and lines -----------------------------------------------------------------------------------

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def emit(self, line: str) -> None:
        self.out.append("    " * self.depth + line)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    # -- integer expressions -------------------------------------------------------------------------------

    def ilit(self, ty: str) -> IE:
        r = self.r
        v = r.choice([0, 1, 2, 3, 5, 7, -1, -2, -7, 13, 100, -100, 255, 1000]) if r.random() < 0.7 else r.randint(-50, 50)
        if ty == "i64" and r.random() < 0.3:
            v = r.choice([3000000000, -3000000000, 2**33 + 5, 12345678901])
        text = str(v) if v >= 0 else f"-{-v}" if r.random() < 0.8 else f"({v})"
        if ty == "i64" and r.random() < 0.5:
            return IE(f"i64({text})", ty, v, v)
        return IE(text, ty, v, v, lit=True)

    def typed(self, e: IE) -> IE:
        """`e` as a value of its own type even when it is a bare literal (an i64 literal needs a cast)."""
        if e.lit and e.ty == "i64":
            return IE(f"i64({e.text})", e.ty, e.lo, e.hi)
        if e.lit and abs(e.lo) > I32_MAX:
            return IE(f"i64({e.text})", e.ty, e.lo, e.hi)
        return e

    def reduce(self, e: IE) -> IE:
        m = RED[e.ty]
        if e.mag < m:
            return e
        e = self.typed(e)
        return IE(f"({e.text} % {m})", e.ty, max(e.lo, -(m - 1)) if e.lo < 0 else 0, min(e.hi, m - 1) if e.hi > 0 else 0)

    def store(self, e: IE) -> IE:
        """`e` reduced to the locals' range."""
        s = STORE[e.ty]
        e = self.typed(e)
        if e.mag <= s:
            return e
        return IE(f"({e.text} % {s})", e.ty, -(s - 1) if e.lo < 0 else 0, s - 1 if e.hi > 0 else 0)

    def index(self, e: IE, n: str = "n") -> str:
        e = self.store(self.as_i32(e))
        if self.chance(0.5):
            return f"({e.text} % {n} + {n}) % {n}"
        return f"abs({e.text}) % {n}"

    def as_i32(self, e: IE) -> IE:
        if e.ty == "i32":
            return e
        e = self.typed(self.reduce(e))
        return IE(f"i32({e.text})", "i32", e.lo, e.hi)

    def ileaf(self, ty: str) -> IE:
        r = self.r
        opts: list[Any] = []
        for v in self.vars:
            if v.ty == ty:
                opts.append(IE(v.name, ty, -STORE[ty], STORE[ty]))
        for e in self.ivars_ro:
            if e.ty == ty:
                opts.append(e)
        if ty == "i32" and not self.in_helper:
            opts.append(IE("i", ty, 0, self.n - 1))
            if self.barrier_mode:
                opts.append(IE("t", ty, 0, self.block - 1))
        if not self.in_helper and r.random() < 0.5:
            src = "ai" if ty == "i32" else "al"
            bound = 100 if ty == "i32" else 5 * 10**9
            idx = self.index(self.iexpr("i32", 1)) if r.random() < 0.6 else "i"
            opts.append(IE(f"{src}[{idx}]", ty, -bound, bound))
        if self.p_ready and not self.in_helper and ty == "i32" and r.random() < 0.3:
            opts.append(IE("p.a", ty, -STORE[ty], STORE[ty]))
        if "arrays" in self.feats and not self.in_helper and ty == "i32" and not self.in_a2 and r.random() < 0.3:
            self.in_a2 = True  # its indices read no 2-D element themselves (two indices would branch too much)
            rows = self.index(self.iexpr("i32", 1), "a2.shape[0]")
            opts.append(IE(f"a2[{rows}, {self.index(self.iexpr('i32', 1), 'a2.shape[1]')}]", ty, -100, 100))
            self.in_a2 = False
        if "arrays3" in self.feats and not self.in_helper and ty == "i32" and not self.in_a2 and r.random() < 0.3:
            self.in_a2 = True
            idx = [self.index(self.iexpr("i32", 0), f"a3.shape[{d}]") for d in range(3)]
            opts.append(IE(f"a3[{', '.join(idx)}]", ty, -100, 100))
            self.in_a2 = False
        if self.zn and self.narrow != "bf16" and not self.in_helper and ty == "i32" and r.random() < 0.4:
            opts.append(self.narrow_as_i32())
        if r.random() < 0.3 or not opts:
            return self.ilit(ty)
        return r.choice(opts)

    def iexpr(self, ty: str, depth: int) -> IE:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.ileaf(ty)
        k = r.random()
        if k < 0.40:
            return self.ibin(ty, depth)
        if k < 0.48:
            a = self.iexpr(ty, depth - 1)
            if r.random() < 0.5:
                return IE(f"(-{a.text})", ty, -a.hi, -a.lo, a.lit)
            # `abs` of a bare literal is an i32 value to the front end, not a literal that adapts: where an i64 is
            # meant the literal is cast first (H200 seeds 200147, 200701, 201262, 201946)
            a = self.typed(a) if a.lit and (ty == "i64" or r.random() < 0.5) else a
            return IE(f"abs({a.text})", ty, 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)), a.mag)
        if k < 0.54:
            a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
            if a.lit and b.lit:
                a = self.typed(a)
            f = r.choice(["min", "max"])
            return IE(f"{f}({a.text}, {b.text})", ty, min(a.lo, b.lo), max(a.hi, b.hi))
        if k < 0.62:
            c = self.bexpr(depth - 1)
            a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
            if a.lit and b.lit:
                a = self.typed(a)
            return IE(f"({a.text} if {c} else {b.text})", ty, min(a.lo, b.lo), max(a.hi, b.hi))
        if k < 0.72:
            return self.icast(ty, depth)
        if k < 0.78 and ty == "i32" and "math" in self.feats:
            a = self.iexpr("i32", depth - 1)
            f = r.choice(["clz", "popcount"])
            self.imports.add("sm")
            return IE(f"sm.{f}({self.typed(a).text})", ty, 0, 32)
        if k < 0.84 and self.helpers:
            h = r.choice(self.helpers)
            if h.ret == ty:
                return IE(self.call(h), ty, -STORE[ty], STORE[ty])
        if k < 0.88 and ty == "i32":
            c = self.bexpr(depth - 1)
            return IE(f"i32({c})", ty, 0, 1)
        if k < 0.92 and ty == "i32" and not self.in_helper:
            return IE(f"len({r.choice(['ai', 'af'])})", ty, self.n, self.n)
        if "bitcast" in self.feats and r.random() < 0.3:
            return self.bits_of_float(ty, depth)
        return self.ibin(ty, depth)

    def bits_of_float(self, ty: str, depth: int) -> IE:
        """`sarek.bitcast` of an exact float (the same bits on every device) to its integer type, the sign bit
        masked off (-0.0 and 0.0 may differ between devices), reduced."""
        fty = "f32" if ty == "i32" else "f64"
        if fty not in self.float_types:
            return self.ibin(ty, depth)
        self.uses_sarek = True
        f = self.ftyped(self.fexpr(fty, depth - 1, need_exact=True))
        mask = I32_MAX if ty == "i32" else I64_MAX
        return IE(f"((sarek.bitcast({f.text}, {ty}) & {mask}) % {RED[ty]})", ty, 0, RED[ty] - 1)

    def icast(self, ty: str, depth: int) -> IE:
        r = self.r
        if r.random() < 0.5 and "floatops" in self.feats:
            f = self.fexpr(r.choice(self.float_types), depth - 1, need_exact=True)
            if f.exact and f.bound < 2**30:
                b = int(f.bound) + 1
                return IE(f"{ty}({f.text})", ty, -b, b)
        other = "i64" if ty == "i32" else "i32"
        if other not in self.int_types:
            return self.ileaf(ty)
        a = self.iexpr(other, depth - 1)
        if ty == "i32":
            a = self.typed(self.reduce(a)) if a.mag > I32_MAX else a
        return IE(f"{ty}({a.text})", ty, a.lo, a.hi)

    def ibin(self, ty: str, depth: int) -> IE:
        r = self.r
        op = r.choice(["+", "-", "*", "//", "%", "&", "|", "^", ">>", "<<", "+", "-", "*"])
        a, b = self.iexpr(ty, depth - 1), self.iexpr(ty, depth - 1)
        width = 32 if ty == "i32" else 64
        if op in ("+", "-", "*"):
            for _ in range(2):
                cands = [a.lo + b.lo, a.lo + b.hi, a.hi + b.lo, a.hi + b.hi] if op == "+" else \
                    [a.lo - b.hi, a.hi - b.lo] if op == "-" else [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
                lo, hi = min(cands), max(cands)
                if max(abs(lo), abs(hi)) <= LIMIT[ty]:
                    if a.lit and b.lit:
                        a = self.typed(a)
                    return IE(f"({a.text} {op} {b.text})", ty, lo, hi)
                a, b = self.reduce(a), self.reduce(b)
            return self.reduce(a)
        if op in ("//", "%"):
            d = self.divisor(ty, depth - 1)
            if a.lit:
                a = self.typed(a)
            m = a.mag
            if op == "//":
                return IE(f"({a.text} // {d.text})", ty, -m, m)
            dm = d.mag
            return IE(f"({a.text} % {d.text})", ty, max(-m, -(dm - 1)) if a.lo < 0 else 0, min(m, dm - 1) if a.hi > 0 else 0)
        if op in ("&", "|", "^"):
            if a.lit and b.lit:
                a = self.typed(a)
            p = 1
            while p <= max(a.mag, b.mag):
                p *= 2
            lo = -p if (a.lo < 0 or b.lo < 0) else 0
            if op == "&" and (a.lo >= 0 or b.lo >= 0):
                lo = 0
            return IE(f"({a.text} {op} {b.text})", ty, lo, p)
        if op == ">>":
            a = self.typed(a)
            if r.random() < 0.5:
                k = r.randint(0, width - 1)
                return IE(f"({a.text} >> {k})", ty, min(a.lo, 0), max(a.hi, 0))
            c = self.iexpr(ty, depth - 1)
            return IE(f"({a.text} >> ({self.typed(c).text} & {width // 2 - 1}))", ty, min(a.lo, 0), max(a.hi, 0))
        # <<: a non-negative value of at most 10 bits, shifted by a small count
        a = self.typed(a)
        k = r.randint(0, 12 if ty == "i32" else 40)
        return IE(f"(({a.text} & 1023) << {k})", ty, 0, 1023 << k)

    def divisor(self, ty: str, depth: int) -> IE:
        r = self.r
        e = self.typed(self.store(self.iexpr(ty, depth)))
        k = r.random()
        if k < 0.35:
            return IE(f"({e.text} | 1)", ty, -(e.mag + 1), e.mag + 1)
        if k < 0.7:
            return IE(f"(abs({e.text}) % 13 + 1)", ty, 1, 13)
        if k < 0.85:
            v = r.choice([1, 2, 3, 7, -1, -3, 16, -16])
            return IE(str(v) if v > 0 else f"({v})", ty, v, v)
        return IE(f"(-(abs({e.text}) % 5 + 2))", ty, -6, -2)

    # -- float expressions ---------------------------------------------------------------------------------

    def flit(self, ty: str) -> FE:
        r = self.r
        v = r.choice([0.0, 0.5, 1.0, 1.5, 2.0, -0.25, -1.0, -3.5, 7.0, -7.0, 0.75, 100.0])
        text = repr(v)
        if r.random() < 0.15:  # the negative-literal / cast shapes of issue 21
            iv = r.choice([7, -7, 3, -2])
            text, v = (f"-{ty}({iv})", -float(iv)) if r.random() < 0.5 else (f"{ty}({iv})", float(iv))
            return FE(text, ty, True, 0, abs(v))
        if v < 0 and r.random() < 0.3:
            text, v = f"-({v!r})", -v
        if ty == "f64" and r.random() < 0.5:
            return FE(f"f64({text})", ty, True, 2, abs(v))
        return FE(text, ty, True, 2, abs(v), lit=True)

    def ftyped(self, e: FE) -> FE:
        if e.lit and e.ty == "f64":
            return FE(f"f64({e.text})", e.ty, e.exact, e.fb, e.bound)
        return e

    def fleaf(self, ty: str) -> FE:
        r = self.r
        opts: list[FE] = []
        for v in self.vars:
            if v.ty == ty:
                opts.append(FE(v.name, ty, v.exact, FB_MAX if v.exact else 0, 256.0 if v.exact else FCLAMP))
        if not self.in_helper and r.random() < 0.6:
            src = "af" if ty == "f32" else "ad"
            idx = self.index(self.iexpr("i32", 1)) if r.random() < 0.6 else "i"
            opts.append(FE(f"{src}[{idx}]", ty, True, 2, 8.0))
        if self.p_ready and not self.in_helper and ty == "f32" and r.random() < 0.3:
            opts.append(FE("p.b", ty, False, 0, FCLAMP))
        if r.random() < 0.2:
            e = self.store(self.iexpr(self.r.choice(self.int_types), 1))
            lim = 2**24 if ty == "f32" else 2**53
            if e.mag <= min(lim, STORE["i32"]):
                opts.append(FE(f"{ty}({self.typed(e).text})", ty, True, 0, float(e.mag)))
        if self.zn and self.narrow == "bf16" and not self.in_helper and ty == "f32" and r.random() < 0.4:
            opts.append(FE(f"f32({self.zn})", ty, True, FB_MAX, 256.0))
        if r.random() < 0.25 or not opts:
            return self.flit(ty)
        return r.choice(opts)

    def fclamp(self, e: FE, lim: float = FCLAMP) -> FE:
        if e.bound <= lim:
            return e
        self.imports.add("sm")
        e = self.ftyped(e)
        return FE(f"sm.fmin(sm.fmax({e.text}, -{lim!r}), {lim!r})", e.ty, e.exact, e.fb, lim)

    def exactness(self, e: FE) -> FE:
        if e.exact and (e.fb > 12 or e.bound * 2.0**e.fb > EXACT_FLOAT[e.ty]):
            e.exact = False
        return e

    def fexpr(self, ty: str, depth: int, need_exact: bool = False) -> FE:
        """A float expression; with need_exact, an exact one (or a literal when that fails)."""
        for _ in range(4):
            e = self._fexpr(ty, depth, need_exact)
            if e.exact or not need_exact:
                return e
        return self.flit(ty)

    def _fexpr(self, ty: str, depth: int, ex: bool) -> FE:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.fleaf(ty)
        k = r.random()
        if k < 0.40:
            op = r.choice(["+", "-", "*"])
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            a, b = self.fclamp(a, 1e4), self.fclamp(b, 1e4)
            if a.lit and b.lit:
                a = self.ftyped(a)
            if op == "*":
                return self.exactness(FE(f"({a.text} * {b.text})", ty, a.exact and b.exact, a.fb + b.fb, a.bound * b.bound))
            return self.exactness(FE(f"({a.text} {op} {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), a.bound + b.bound))
        if k < 0.48:
            a = self.fexpr(ty, depth - 1, ex)
            if r.random() < 0.5:
                return FE(f"(-{a.text})", ty, a.exact, a.fb, a.bound, a.lit)
            return FE(f"abs({self.ftyped(a).text})", ty, a.exact, a.fb, a.bound)
        if k < 0.54:
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            if a.lit and b.lit:
                a = self.ftyped(a)
            f = r.choice(["min", "max", "sm.fmin", "sm.fmax"])
            if f.startswith("sm."):
                self.imports.add("sm")
            return FE(f"{f}({a.text}, {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), max(a.bound, b.bound))
        if k < 0.60:
            c = self.bexpr(depth - 1)
            a, b = self.fexpr(ty, depth - 1, ex), self.fexpr(ty, depth - 1, ex)
            if a.lit and b.lit:
                a = self.ftyped(a)
            return FE(f"({a.text} if {c} else {b.text})", ty, a.exact and b.exact, max(a.fb, b.fb), max(a.bound, b.bound))
        if k < 0.68 and not ex:
            a, b = self.fexpr(ty, depth - 1), self.fexpr(ty, depth - 1)
            a = self.ftyped(a)
            return FE(f"({a.text} / (abs({self.ftyped(b).text}) + 1.0))", ty, False, 0, a.bound)
        if k < 0.78 and "math" in self.feats:
            return self.fmath(ty, depth, ex)
        if k < 0.84 and "floatops" in self.feats:
            a = self.fclamp(self.fexpr(ty, depth - 1, True), 1e4)
            b = self.fclamp(self.fexpr(ty, depth - 1, True), 1e4)
            if a.exact and b.exact:
                a = self.ftyped(a)
                op = r.choice(["//", "%"])
                if op == "//":
                    return self.floordiv(a, self.ftyped(b))
                return FE(f"({a.text} % (abs({self.ftyped(b).text}) + 1.0))", ty, True, max(a.fb, b.fb), a.bound)
        if k < 0.90:
            other = [t for t in self.float_types if t != ty]
            if other and r.random() < 0.5:
                a = self.fexpr(other[0], depth - 1, ex)
                exact = a.exact and (ty == "f64" or a.bound * 2.0**a.fb <= EXACT_FLOAT["f32"])
                return FE(f"{ty}({self.ftyped(a).text})", ty, exact, a.fb, a.bound)
            e = self.store(self.iexpr(r.choice(self.int_types), depth - 1))
            return FE(f"{ty}({self.typed(e).text})", ty, True, 0, float(e.mag))
        if k < 0.95 and self.helpers:
            h = r.choice(self.helpers)
            if h.ret == ty:
                return FE(self.call(h), ty, False, 0, FCLAMP)
        if "bitcast" in self.feats and not ex and ty == "f32" and r.random() < 0.3:
            # any 23 fraction bits under the exponent of 1.0: a normal float in [1, 2)
            self.uses_sarek = True
            e = self.typed(self.iexpr("i32", depth - 1))
            return FE(f"sarek.bitcast(({e.text} & 8388607) | 1065353216, f32)", ty, False, 0, 2.0)
        return self.fleaf(ty)

    def floordiv(self, a: FE, b: FE) -> FE:
        """Float `x // d` (`trunc(x / d)`) with a quotient a division within 2.5 ulp cannot move across an
        integer (NVIDIA's OpenCL and Vulkan f32 `/` is not correctly rounded: `8.25 // 8.25` gave 0 there, seeds
        500005 and 600207): x = (floor(a) + f) * d is exact, so x / d is k + f, a quarter or more from the
        next integer (f one of 1/4, 1/2, 3/4); d is abs(b) + 1.0, a power of two, or `1 << k` at run time."""
        r, ty = self.r, a.ty
        k = r.random()
        if k < 0.5:
            d, dfb, dmax = f"(abs({b.text}) + 1.0)", b.fb, b.bound + 1.0
        elif k < 0.75:
            v = r.choice([0.25, 0.5, 2.0, 4.0, 8.0, -2.0, -0.5])
            d, dfb, dmax = (repr(v) if v > 0 else f"({v!r})"), 2, abs(v)
        else:
            e = self.typed(self.store(self.iexpr("i32", 1)))
            d, dfb, dmax = f"{ty}(1 << (abs({e.text}) % 4))", 0, 8.0
        f = r.choice([0.25, 0.5, 0.75])
        if dfb > FB_MAX or (a.bound + 2.0) * dmax * 2.0 ** (dfb + 2) > EXACT_FLOAT[ty]:
            a = self.flit(ty)
        self.imports.add("sm")
        return FE(f"(((sm.floor({self.ftyped(a).text}) + {f!r}) * {d}) // {d})", ty, True, 0, a.bound + 1)

    def fmath(self, ty: str, depth: int, ex: bool) -> FE:
        r = self.r
        self.imports.add("sm")
        a = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1, ex), 1e4))
        if ex:
            f = r.choice(["floor", "ceil", "trunc", "fabs"])
            if a.exact:
                return FE(f"sm.{f}({a.text})", ty, True, 0 if f != "fabs" else a.fb, a.bound + 1)
            return self.flit(ty)
        if a.exact and r.random() < 0.3:
            f = r.choice(["floor", "ceil", "trunc", "round"])
            return FE(f"sm.{f}({a.text})", ty, True, 0, a.bound + 1)
        f = r.choice(["sqrt", "exp", "log", "sin", "cos", "atan", "tanh", "asin", "acos", "fma", "sinh", "atan2",
                      "hypot", "pow"])
        if f in ("asin", "acos", "atan", "atan2", "sinh"):
            self.uses_lowprec = True
        if f == "sqrt":
            return FE(f"sm.sqrt(abs({a.text}))", ty, False, 0, max(1.0, a.bound ** 0.5))
        if f == "exp":
            return FE(f"sm.exp(sm.fmin(sm.fmax({a.text}, -4.0), 4.0))", ty, False, 0, 55.0)
        if f == "sinh":
            return FE(f"sm.sinh(sm.fmin(sm.fmax({a.text}, -3.0), 3.0))", ty, False, 0, 11.0)
        if f == "log":
            return FE(f"sm.log(abs({a.text}) + 1.0)", ty, False, 0, 10.0)
        if f in ("asin", "acos"):
            return FE(f"sm.{f}(sm.fmin(sm.fmax({a.text}, -0.9), 0.9))", ty, False, 0, 3.2)
        if f in ("atan2", "hypot"):
            b = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 1e4))
            if f == "atan2":  # away from the branch cut: x > 0
                return FE(f"sm.atan2({a.text}, abs({b.text}) + 0.5)", ty, False, 0, 3.2)
            return FE(f"sm.hypot({a.text}, {b.text})", ty, False, 0, a.bound + b.bound)
        if f == "pow":
            return FE(f"sm.pow(abs(sm.fmin(sm.fmax({a.text}, -4.0), 4.0)) + 1.0, 2.0)", ty, False, 0, 25.0)
        if f == "fma":
            b = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 100.0))
            c = self.ftyped(self.fclamp(self.fexpr(ty, depth - 1), 100.0))
            a = self.fclamp(a, 100.0)
            return FE(f"sm.fma({a.text}, {b.text}, {c.text})", ty, False, 0, a.bound * b.bound + c.bound)
        return FE(f"sm.{f}({a.text})", ty, False, 0, min(a.bound, 1.6) if f == "atan" else 1.0)

    # -- conditions ----------------------------------------------------------------------------------------

    def bexpr(self, depth: int) -> str:
        r = self.r
        k = r.random()
        if depth <= 0 or k < 0.45:
            if r.random() < 0.7 or "floatops" not in self.feats:
                ty = r.choice(self.int_types)
                a, b = self.iexpr(ty, max(depth - 1, 0)), self.iexpr(ty, max(depth - 1, 0))
                if a.lit and b.lit:
                    a = self.typed(a)
                op = r.choice(["<", "<=", ">", ">=", "==", "!="])
                if r.random() < 0.15:  # a chained comparison with a literal in the middle
                    lit = self.ilit("i32")
                    return f"({a.text} {op} {lit.text} {r.choice(['<', '<=', '!='])} {b.text})"
                return f"({a.text} {op} {b.text})"
            ty = r.choice(self.float_types)
            a, b = self.fexpr(ty, depth - 1, True), self.fexpr(ty, depth - 1, True)
            if a.lit and b.lit:
                a = self.ftyped(a)
            return f"({a.text} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {b.text})"
        if k < 0.65:
            return f"({self.bexpr(depth - 1)} {r.choice(['and', 'or'])} {self.bexpr(depth - 1)})"
        if k < 0.75:
            return f"(not {self.bexpr(depth - 1)})"
        if k < 0.8:
            return r.choice(["True", "False"])
        return self.bexpr(0)

    # -- statements ----------------------------------------------------------------------------------------

    def assign(self, v: Var, depth: int = 2) -> None:
        if v.ty in ("i32", "i64"):
            r = self.r
            k = r.random()
            if k < 0.2:
                op = r.choice(["%=", "//=", "&=", "|=", "^=", ">>="])
                if op in ("%=", "//="):
                    d = self.divisor(v.ty, depth - 1)
                    self.emit(f"{v.name} {op} {d.text}")
                elif op == ">>=":
                    self.emit(f"{v.name} >>= {r.randint(0, 5)}")
                else:
                    e = self.typed(self.store(self.iexpr(v.ty, depth)))
                    self.emit(f"{v.name} {op} {e.text}")
                return
            self.emit(f"{v.name} = {self.store(self.iexpr(v.ty, depth)).text}")
            return
        if v.exact:
            e = self.fexpr(v.ty, depth, need_exact=True)
            if e.fb > FB_MAX:
                self.imports.add("sm")
                e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
            e = self.ftyped(self.fclamp(e, 256.0))
            if self.chance(0.2):
                self.imports.add("sm")
                self.emit(f"{v.name} = sm.fmin(sm.fmax({v.name} + {e.text}, -256.0), 256.0)")
            else:
                self.emit(f"{v.name} = {e.text}")
            return
        e = self.ftyped(self.fclamp(self.fexpr(v.ty, depth)))
        if self.chance(0.25):
            op = self.r.choice(["+=", "-=", "*="])
            if op == "*=":
                e = self.ftyped(self.fclamp(e, 2.0))
            self.emit(f"{v.name} {op} {e.text}")
            self.imports.add("sm")
            self.emit(f"{v.name} = sm.fmin(sm.fmax({v.name}, -{FCLAMP!r}), {FCLAMP!r})")
        else:
            self.emit(f"{v.name} = {e.text}")

    def stmt(self, budget: int, nest: int) -> int:
        """Emit one statement (possibly compound); returns the statement count used."""
        r = self.r
        k = r.random()
        mutable = [v for v in self.vars if not v.ro]
        if "jumps" in self.feats and (k < 0.2 if self.loops else k < 0.05 and not self.in_helper):
            # break / continue out of the innermost loop, or an early kernel return (the thread's outputs keep
            # their zeros), under a condition so the rest of the body stays live
            jump = r.choice(["break", "continue"] if self.loops and self.loops[-1] == "for" else
                            ["break"] if self.loops else ["return"])
            if jump == "return" and self.loops and r.random() < 0.5:
                jump = "break"
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(jump)
            self.depth -= 1
            return 1
        if self.zn and not self.in_helper and r.random() < 0.15:
            self.narrow_assign()
            return 1
        if "fatomic" in self.feats and not self.in_helper and r.random() < 0.1:
            self.float_atomic()
            return 1
        if "print" in self.feats and not self.in_helper and not self.loops and self.prints < 2 and r.random() < 0.2:
            self.print_stmt()
            return 1
        if k < 0.35 or nest >= 3 or budget <= 1:
            if mutable:
                self.assign(r.choice(mutable))
            else:
                self.emit("pass")
            return 1
        if k < 0.55:
            self.emit(f"if {self.bexpr(2)}:")
            used = self.suite(budget // 2, nest + 1)
            while self.chance(0.3):
                self.emit(f"elif {self.bexpr(2)}:")
                used += self.suite(budget // 3, nest + 1)
            if self.chance(0.5):
                self.emit("else:")
                used += self.suite(budget // 3, nest + 1)
            return used + 1
        if k < 0.68 and "loops" in self.feats:
            j = self.fresh("j")
            lo = r.randint(-3, 3)
            step = r.choice([1, 1, 2, -1, 3])
            trips = r.randint(0, 5)
            hi = lo + step * trips
            rng = f"range({hi})" if lo == 0 and step == 1 and r.random() < 0.5 else \
                f"range({lo}, {hi})" if step == 1 else f"range({lo}, {hi}, {step})"
            vals = [lo + step * t for t in range(trips)] or [lo]
            if "jumps" in self.feats and r.random() < 0.4:  # a run-time step, either sign (never zero)
                span = r.randint(0, 8)
                st = self.typed(self.store(self.iexpr("i32", 1)))
                if r.random() < 0.5:
                    rng = f"range({lo}, {lo + span}, abs({st.text}) % 3 + 1)"
                    vals = [lo, max(lo + span - 1, lo)]
                else:
                    rng = f"range({lo}, {lo - span}, -(abs({st.text}) % 3 + 1))"
                    vals = [min(lo - span + 1, lo), lo]
            self.emit(f"for {j} in {rng}:")
            self.ivars_ro.append(IE(j, "i32", min(vals), max(vals)))
            self.loops.append("for")
            used = self.suite(budget // 2, nest + 1)
            self.loops.pop()
            self.ivars_ro.pop()
            return used + 1
        if k < 0.76 and "loops" in self.feats:
            w = self.fresh("w")
            trips = r.randint(0, 4)
            self.emit(f"{w} = 0")
            self.emit(f"while {w} < {trips}:")
            self.depth += 1
            self.ivars_ro.append(IE(w, "i32", 0, max(trips - 1, 0)))
            self.loops.append("while")  # `continue` would skip the counter's increment: only `break` here
            used = self.suite(budget // 2, nest + 1, indent=False)
            self.loops.pop()
            self.ivars_ro.pop()
            self.emit(f"{w} += 1")
            self.depth -= 1
            return used + 2
        if k < 0.82 and self.has_var and not self.in_helper:
            return self.match_stmt(nest) + 1
        if k < 0.88 and "atomics" in self.feats and not self.in_helper:
            self.imports.add("atomic")
            j = r.randrange(len(ATOMIC_OPS))
            f = ATOMIC_OPS[j]
            e = self.typed(self.store(self.iexpr("i32", 2)))
            idx = self.index(self.iexpr("i32", 1), "2")
            self.atomics.add(f)
            self.emit(f"{f}(acc, {2 * j} + {idx}, {e.text})")
            return 1
        if k < 0.94 and self.has_rec and not self.in_helper:
            if r.random() < 0.5:
                self.emit(f"p.a = {self.store(self.iexpr('i32', 2)).text}")
            else:
                self.emit(f"p.b = {self.ftyped(self.fclamp(self.fexpr('f32', 2))).text}")
            return 1
        if mutable:
            self.assign(r.choice(mutable))
        return 1

    # -- this session's constructs (features "narrow", "fatomic", "print") ----------------------------------

    def narrow_as_i32(self) -> IE:
        """The narrow integer local as an i32 (u32/u64 reduced first)."""
        lo, hi = NARROW_RANGE[self.narrow]
        if hi > I32_MAX:
            return IE(f"i32({self.zn} % {self.narrow}(1009))", "i32", 0, 1008)
        return IE(f"i32({self.zn})", "i32", lo, hi)

    def nleaf(self) -> str:
        """A value of the narrow integer type: the local, an input element, a literal or a converted i32."""
        r, t = self.r, self.narrow
        lo, hi = NARROW_RANGE[t]
        k = r.random()
        if k < 0.35:
            return self.zn
        if k < 0.6:
            return f"an[{self.index(self.iexpr('i32', 1))}]"
        if k < 0.8:
            return f"{t}({r.choice([0, 1, 3, 7, min(hi, I64_MAX), lo, hi // 2 + 1])})"
        return f"{t}({self.typed(self.store(self.iexpr('i32', 1))).text})"  # an int converted: wraps

    def nexpr(self) -> str:
        """A narrow integer expression. C promotes 8/16-bit operands to int, so the products and shifts that
        could overflow an int are left out (u16 * u16, a signed left shift); u32/u64 wrap (defined)."""
        r, t = self.r, self.narrow
        a, b = self.nleaf(), self.nleaf()
        ops = ["+", "-", "&", "|", "^", ">>", "//", "%"]
        if t != "u16":
            ops.append("*")
        if t.startswith("u"):
            ops.append("<<")
        op = r.choice(ops)
        if op in (">>", "<<"):
            return f"({a} {op} {r.randint(0, 7)})"
        if op in ("//", "%"):
            return f"({a} {op} ({b} | {t}(1)))"
        return f"({a} {op} {b})"

    def narrow_assign(self) -> None:
        """The narrow local gets a new value (converted back to its type: the int result of C's promotions
        wraps); bf16 rounds an exact f32 (to nearest even, the same on every device)."""
        if self.narrow == "bf16":
            e = self.fexpr("f32", 2, need_exact=True)
            if e.fb > FB_MAX:
                self.imports.add("sm")
                e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
            self.emit(f"{self.zn} = bf16({self.fclamp(e, 256.0).text})")
            return
        if self.r.random() < 0.2:
            # both arms converted: an 8/16-bit operand's arithmetic is an int (C's promotions), and a
            # conditional expression takes arms of one type
            t = self.narrow
            self.emit(f"{self.zn} = {t}({self.nexpr()}) if {self.nleaf()} < {self.nleaf()} else {t}({self.nleaf()})")
            return
        self.emit(f"{self.zn} = {self.narrow}({self.nexpr()})")

    def float_atomic(self) -> None:
        """f32 atomic_add of a small integer: every partial sum is exact, so the total is order-independent."""
        self.imports.add("sm")
        self.uses_accf = True
        self.atomics.add("atomic_add")
        e = self.ftyped(self.fexpr("f32", 2, need_exact=True))
        v = f"sm.fmin(sm.fmax(sm.floor({e.text}), -64.0), 64.0)" if e.exact else "1.0"
        self.emit(f"atomic_add(accf, {self.index(self.iexpr('i32', 1), str(ACCF_SLOTS))}, {v})")

    def print_stmt(self) -> None:
        """print(...) of exact values (integers, exact floats, a condition): the same text on every device."""
        self.prints += 1
        r = self.r
        args = [f'"p{self.prints}"']
        for _ in range(r.randint(1, 3)):
            k = r.random()
            if k < 0.5:
                args.append(self.typed(self.iexpr(r.choice(self.int_types), 1)).text)
            elif k < 0.8:
                f = self.ftyped(self.fexpr(r.choice(self.float_types), 1, need_exact=True))
                args.append(f.text if f.exact else "0.5")
            else:
                args.append(self.bexpr(1))
        cond = self.bexpr(1) if r.random() < 0.5 else ""
        if cond:
            self.emit(f"if {cond}:")
            self.depth += 1
        self.emit(f"print({', '.join(args)})")
        if cond:
            self.depth -= 1

    def suite(self, budget: int, nest: int, indent: bool = True) -> int:
        if indent:
            self.depth += 1
        used = 0
        n = max(1, min(budget, self.r.randint(1, 3)))
        for _ in range(n):
            used += self.stmt(max(budget - used, 1), nest)
        if indent:
            self.depth -= 1
        return used

    def match_stmt(self, nest: int) -> int:
        r = self.r
        vt = self.var_t
        self.emit(f"match vv:")
        self.depth += 1
        cases = ["A", "B", "C"]
        r.shuffle(cases)
        wild = r.random() < 0.5
        if wild:
            cases = cases[: r.randint(1, 2)]
        for c in cases:
            if c == "A":
                m = self.fresh("m")
                self.emit(f"case {vt}.A({m}):")
                self.ivars_ro.append(IE(m, "i32", -STORE["i32"], STORE["i32"]))
            elif c == "B":
                m1, m2 = self.fresh("m"), self.fresh("m")
                self.emit(f"case {vt}.B({m1}, {m2}):")
                self.ivars_ro.append(IE(m2, "i32", -STORE["i32"], STORE["i32"]))
                self.vars.append(Var(m1, "f32", False, ro=True))
            else:
                self.emit(f"case {vt}.C():")
            self.suite(2, nest + 1)
            if c == "A":
                self.ivars_ro.pop()
            elif c == "B":
                self.ivars_ro.pop()
                self.vars.pop()
        if wild:
            self.emit("case _:")
            self.suite(1, nest + 1)
        self.depth -= 1
        return 1

    def call(self, h: Helper) -> str:
        args: list[str] = []
        for _, ty in h.params:
            if ty in ("i32", "i64"):
                args.append(self.typed(self.store(self.iexpr(ty, 1))).text)
            else:
                args.append(self.ftyped(self.fclamp(self.fexpr(ty, 1))).text)
        return f"{h.name}({', '.join(args)})"

    # -- top level -----------------------------------------------------------------------------------------

    def helper(self, idx: int) -> list[str]:
        r = self.r
        name = f"fz{self.seed}_h{idx}"
        params = [(f"x{k}", r.choice(self.int_types + self.float_types)) for k in range(r.randint(1, 3))]
        ret = r.choice(self.int_types + self.float_types)
        self.out = []
        self.depth = 1
        self.in_helper = True
        saved = self.vars
        self.vars = []
        ro: list[IE] = []
        for pn, ty in params:
            if ty in ("i32", "i64"):
                ro.append(IE(pn, ty, -STORE[ty], STORE[ty]))
        self.ivars_ro = ro
        # float parameters are read-only inexact values
        fparams = [Var(pn, ty, False, ro=True) for pn, ty in params if ty not in ("i32", "i64")]
        locs: list[Var] = []
        for ty in dict.fromkeys(ty for _, ty in params):  # ordered (a set is not)
            if ty in ("i32", "i64"):
                v = Var(self.fresh("y"), ty)
                self.emit(f"{v.name} = {self.store(self.iexpr(ty, 2)).text}")
                locs.append(v)
        self.vars = fparams + locs
        # parameters may not be assigned: only the locals are mutable
        for _ in range(r.randint(0, 3)):
            mutable = [v for v in locs]
            if not mutable:
                break
            self.stmt(3, 1)
        if r.random() < 0.4:
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"return {self.ret_expr(ret)}")
            self.depth -= 1
        self.emit(f"return {self.ret_expr(ret)}")
        self.vars = [v for v in locs]  # params are not mutable
        body = self.out
        self.vars = saved
        self.ivars_ro = []
        self.in_helper = False
        sig = ", ".join(f"{pn}: {ty}" for pn, ty in params)
        self.helpers.append(Helper(name, params, ret))
        return ["@device", f"def {name}({sig}) -> {ret}:", *body, ""]

    def ret_expr(self, ty: str) -> str:
        if ty in ("i32", "i64"):
            return self.store(self.iexpr(ty, 2)).text
        return self.ftyped(self.fclamp(self.fexpr(ty, 2))).text

    def kernel(self) -> list[str]:
        r = self.r
        self.out = []
        self.depth = 1
        self.atomics: set[str] = set()
        self.emit("i = global_thread_id")
        if self.barrier_mode:
            self.imports.add("thread_idx_x")
            self.emit("t = thread_idx_x")
        ints = [Var(self.fresh("v"), r.choice(self.int_types)) for _ in range(r.randint(1, 3))]
        floats = [Var(self.fresh("g"), r.choice(self.float_types), r.random() < 0.5) for _ in range(r.randint(1, 3))]
        if not self.barrier_mode:
            self.emit("if i < n:")
            self.depth += 1
        for v in ints:
            self.emit(f"{v.name} = {self.store(self.typed(self.iexpr(v.ty, 2))).text}")
            self.vars.append(v)
        for v in floats:
            if v.exact:
                e = self.fexpr(v.ty, 2, need_exact=True)
                if e.fb > FB_MAX:
                    self.imports.add("sm")
                    e = FE(f"sm.floor({self.ftyped(e).text})", e.ty, True, 0, e.bound + 1)
                e = self.fclamp(e, 256.0)
            else:
                e = self.fclamp(self.fexpr(v.ty, 2))
            self.emit(f"{v.name} = {self.ftyped(e).text}")
            self.vars.append(v)
        if self.narrow:
            zn = self.fresh("zn")
            self.emit(f"{zn} = an[{self.index(self.iexpr('i32', 1))}]")
            self.zn = zn
            self.narrow_assign()
        if self.has_rec:
            self.emit(f"p = {self.rec}(a={self.store(self.iexpr('i32', 1)).text}, "
                      f"b={self.ftyped(self.fclamp(self.fexpr('f32', 1))).text})")
            self.p_ready = True
        if self.has_var:
            self.emit(f"vv = {self.var_t}.C()")
            self.emit(f"if {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"vv = {self.var_t}.A({self.store(self.iexpr('i32', 1)).text})")
            self.depth -= 1
            self.emit(f"elif {self.bexpr(1)}:")
            self.depth += 1
            self.emit(f"vv = {self.var_t}.B({self.ftyped(self.fclamp(self.fexpr('f32', 1))).text}, "
                      f"{self.store(self.iexpr('i32', 1)).text})")
            self.depth -= 1
        if "local" in self.feats:
            self.imports.add("local_array")
            q = self.fresh("q")
            self.ivars_ro.append(IE(q, "i32", 0, 3))
            if "arrays" in self.feats:  # a 2-D private array, filled row-major
                self.emit("la = local_array(i32, (2, 2))")
                self.emit(f"for {q} in range(4):")
                self.depth += 1
                self.emit(f"la[{q} // 2, {q} % 2] = {self.store(self.iexpr('i32', 2)).text}")
            else:
                self.emit("la = local_array(i32, 4)")
                self.emit(f"for {q} in range(4):")
                self.depth += 1
                self.emit(f"la[{q}] = {self.store(self.iexpr('i32', 2)).text}")
            self.ivars_ro.pop()
            self.depth -= 1
        if self.barrier_mode:
            self.barrier_stage(ints, floats)
        if "local" in self.feats:
            v = r.choice(ints)
            if v.ty == "i32":
                if "arrays" in self.feats:
                    self.emit(f"{v.name} = la[{self.index(self.iexpr('i32', 1), 'la.shape[0]')}, "
                              f"{self.index(self.iexpr('i32', 1), '2')}]")
                else:
                    self.emit(f"{v.name} = la[{self.index(self.iexpr('i32', 1), '4')}]")
        budget = r.randint(2, 10)
        used = 0
        while used < budget:
            used += self.stmt(budget - used, 0)
        self.outputs = {"oi": [v for v in ints if v.ty == "i32"], "ol": [v for v in ints if v.ty == "i64"],
                        "of": [v for v in floats if v.ty == "f32"], "od": [v for v in floats if v.ty == "f64"]}
        if self.has_rec:
            self.outputs["oi"].append(Var("p.a", "i32"))
            self.outputs["of"].append(Var("p.b", "f32"))
        if self.narrow:
            self.outputs["of" if self.narrow == "bf16" else "oi"].append(
                Var(f"f32({self.zn})" if self.narrow == "bf16" else self.narrow_as_i32().text, "i32"))
            self.emit(f"on[i] = {self.zn}")
        for vec, vs in self.outputs.items():
            for j, v in enumerate(vs):
                self.emit(f"{vec}[i * {len(vs)} + {j}] = {v.name}")
        return self.out

    def barrier_stage(self, ints: list[Var], floats: list[Var]) -> None:
        r = self.r
        if "shared" in self.feats:
            self.imports.update({"shared", "barrier"})
            for ty, vs in (("i32", [v for v in ints if v.ty == "i32"]), ("f32", [v for v in floats if v.ty == "f32"])):
                if not vs:
                    continue
                s = self.fresh("s")
                self.emit(f"{s} = shared({ty}, {self.block})" if "arrays" not in self.feats else
                          f"{s} = shared({ty}, ({self.block // 16}, 16))")  # 2-D: rows of 16 threads
                src = r.choice(vs)
                self.emit(f"{s}[t] = {src.name}" if "arrays" not in self.feats else f"{s}[t // 16, t % 16] = {src.name}")
                self.emit("barrier()")
                dst = r.choice(vs)
                k = r.randint(1, self.block - 1)
                if dst.exact or ty == "i32" or True:
                    # reading a neighbour's value: same kind (exact stays exact) only when src and dst match
                    dst = src
                self.emit(f"{dst.name} = {s}[(t + {k}) % {self.block}]" if "arrays" not in self.feats else
                          f"{dst.name} = {s}[(t + {k}) % {self.block} // 16, (t + {k}) % 16]")
                self.emit("barrier()")
        if "warp" in self.feats:
            for v in ints + floats:
                if v.ty in ("i32", "f32") and r.random() < 0.7:
                    f = r.choice(["warp_shuffle_xor", "warp_shuffle"])
                    self.imports.add(f)
                    m = r.randint(1, 3)
                    if f == "warp_shuffle":
                        self.imports.add("lane_id")
                        self.emit(f"{v.name} = warp_shuffle({v.name}, lane_id - lane_id % 4 + {m})")
                    else:
                        self.emit(f"{v.name} = warp_shuffle_xor({v.name}, {m})")

    def program(self) -> Program:
        r = self.r
        decls: list[str] = []
        if self.has_rec:
            decls += ["@record", f"class {self.rec}:", "    a: i32", "    b: f32", ""]
        if self.has_var:
            decls += ["@variant", f"class {self.var_t}:", "    A: i32", "    B: (f32, i32)", "    C: ()", ""]
        helpers: list[str] = []
        if "helpers" in self.feats:
            for h in range(r.randint(1, 3)):
                helpers += self.helper(h)
        body = self.kernel()
        params = ["ai: Vec[i32]", "af: Vec[f32]"]
        if "i64" in self.feats:
            params.append("al: Vec[i64]")
        if "f64" in self.feats:
            params.append("ad: Vec[f64]")
        if "arrays" in self.feats:
            params.append("a2: Array[i32, 2]")
        if "arrays3" in self.feats:
            params.append("a3: Array[i32, 3]")
        if self.narrow:
            params.append(f"an: Vec[{self.narrow}]")
        outs: dict[str, int] = {}
        for vec, vs in self.outputs.items():
            if vs:
                params.append(f"{vec}: Vec[{ {'oi': 'i32', 'ol': 'i64', 'of': 'f32', 'od': 'f64'}[vec]}]")
                outs[vec] = len(vs)
        if self.narrow:
            params.append(f"on: Vec[{self.narrow}]")
        params += ["acc: Vec[i32]", *(["accf: Vec[f32]"] if self.uses_accf else []), "n: i32"]
        gpu = sorted(x for x in self.imports if x not in ("sm", "atomic"))
        gpu += sorted(self.atomics)
        head = [f'"""sarek fuzz kernel, seed {self.seed} (a reproducer: python -m sarek.testing.fuzz --replay FILE)."""',
                "", *(["import sarek"] if self.uses_sarek else []),
                "from sarek import Array, Vec, device, f32, f64, i32, i64, kernel, record, variant"
                + (f", {self.narrow}" if self.narrow else ""),
                "from sarek import math as sm", f"from sarek.gpu import {', '.join(sorted(set(gpu)))}", "", ""]
        lines = head + decls + helpers + ["@kernel", f"def fz{self.seed}({', '.join(params)}):", *body, "", ""]
        case = {"seed": self.seed, "grid": self.grid, "block": self.block, "n": self.n, "outputs": outs,
                "i64": "i64" in self.feats, "f64": "f64" in self.feats, "lowprec": self.uses_lowprec,
                "features": sorted(self.feats), **({"narrow": self.narrow} if self.narrow else {})}
        lines.append(f"CASE = {case!r}")
        return Program(self.seed, "\n".join(lines) + "\n", case)


def generate(seed: int, features: frozenset[str] | None = None) -> Program:
    """The kernel of `seed` (deterministic)."""
    return Gen(seed, features).program()
