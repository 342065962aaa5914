"""The generator's constants, feature streams and state (sarek.testing.gen): what a kernel may use, the value
ranges the well-definedness rules rest on, the expression records (IE, FE), and GenBase, the state every part of
the generator shares (the random streams, the lines written, the names in scope)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
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
#: and a fourth stream (issue 34, the shapes held-out kernels found bugs with; sarek.testing.gen.corners):
#: "zeroinit" = local arrays (1-D or 2-D) read before they are written (a slot starts at zero), "zeroshared" =
#: the same of a shared array (its own slot before the thread writes it, a neighbour's after a barrier);
#: "tiling" = accumulation `acc[ti * C + tj] += ...` / `acc[ti, tj] += ...` into a fresh local array across
#: nested constant-trip loops inside an outer loop (the register-tiling shape); "boolcast" = comparisons and
#: bools cast to every integer type and to floats; "f2i" = float -> integer conversions of out-of-range, inf
#: and NaN inputs (`ax`, F2I_VALUES) to every integer type (saturate, NaN -> 0, truncate toward zero);
#: "intmin" = INT_MIN // -1 (INT_MIN) and INT_MIN % -1 (0) of run-time operands (`ac`) and constants;
#: "bigblock" = one block of 384-1024 threads; "streams" = a second kernel on a second stream reading an
#: output Vector of the first (no synchronize between).
#: Each can be switched off: `generate(seed, corners=...)`, `python -m sarek.testing.fuzz --corners ...`.
#: and a fifth stream (issue 33): "vote" = block votes (barrier_count/and/or) and warp votes on warp-uniform
#: conditions (results independent of the warp width); "fclass" = erf/erfc/atanh on safe domains, clamp, and
#: isnan/isinf/isfinite of computed values
ISSUE33_FEATURES = ("vote", "fclass")
CORNER_FEATURES = ("zeroinit", "tiling", "boolcast", "f2i", "intmin", "bigblock", "streams", "zeroshared")
#: and a fifth stream (issue 29): "coop" = an 8-bit cooperative-matrix tile product at the kernel's top level
#: (`decls.Gen.coop_stage`: i8 or u8 `cq` inputs, fragments 16x32 / 32x16 into an i32 accumulator, b row- or
#: column-major, one or two multiply-accumulates, each warp storing its 16x16 result into its own slots of `oq`);
#: products are exact and i32 wraps as in C, so every device that runs it must agree bit for bit
COOP_FEATURES = ("coop",)
#: and a sixth (issue 29, later): "coop16" = an f16 tile product into an f32 accumulator (`decls.Gen.coop16_stage`:
#: `ch` holds small integers as f16, so every product and sum is exact in f32 and every device agrees bit for bit
#: whatever its summation order; 16x16x16, b row- or column-major, each warp storing into its own slots of `oh`).
#: Its own stream, so the kernels without it (and the 8-bit coop ones) stay as they were
COOP16_FEATURES = ("coop16",)
#: the f16 elements of the `ch` input (a and b, twice) and their range
COOP16_ELEMS = 1024
COOP16_RANGE = (-4, 5)
#: and an eleventh stream (issue 29, wgmma): "coopwg" = a warpgroup tile product (`decls.Gen.coopwg_stage`):
#: `cw` (small integers as f16, COOP16_RANGE) staged by element stores or 16-byte copy_async chunks into two
#: core-layout shared arrays (a
#: 64xK, b KxN; K 16 or 32, N a multiple of 8 up to 256), a barrier, then every warpgroup multiplies them
#: (k16 steps, unrolled or a loop) into a 64xN f32 accumulator and stores it at its own slots of `ow`. Exact
#: in any summation order; interp, interp-ref and ptx (sm_90a) run it, every other target refuses it (n/a).
#: Blocks are rounded up to whole warpgroups (128 threads)
COOPWG_FEATURES = ("coopwg",)
COOPWG_KS = (16, 32)
COOPWG_NS = (8, 16, 24, 32, 64, 128, 256)
#: the f16 elements of the `cw` input (the largest a and b: 64x32 and 32x256)
COOPWG_ELEMS = 64 * 32 + 32 * 256
#: and a seventh stream (issue 33): "vec" = short vector values (f32x2, f32x4: built from scalars, element-wise
#: + - *, a scalar factor, then a lane read or a dot product) inside f32 expressions, and integer vectors
#: (i32x2, i32x4 without overflow, u32x4 and u8x4 wrapping, then a lane read) inside i32 expressions
VEC_FEATURES = ("vec",)
#: and an eighth (issue 33, later): "vecx" = the vector types and functions "vec" leaves out: f32x3 (cross,
#: length, normalize, dot, a lane) inside f32 expressions, and f16x2 of small integers (+ - *, exact in f16 on
#: every device), one lane widened to f32
VECX_FEATURES = ("vecx",)
#: and a ninth (issue 33): "views" = array views passed to a device function (`<kernel>_view(v, k)`, which takes
#: its own view of the view): an offset view of `af`, or a choice between one and `af`, read at a small index
VIEW_FEATURES = ("views",)
#: and a tenth stream (issue 33, sarek.testing.gen.pylang): "consts" = module-level constant tuples indexed in
#: the kernel, "infs" = inf/NaN constants (`math.inf`, `float('inf')`, `math.nan`) with sm.isinf/isnan/isfinite,
#: "tuples" = tuple assignment of a two-value helper's result, "uatomic" = atomics on u32/u64 vectors and on a
#: 2-D u32 array (`accu`, `accul`, `accu2`), "gridbar" = `grid_barrier()` between a write of the output `gx` at
#: the thread's index and a read of another block's slot (interp, interp-ref and cuda run it; the others refuse
#: it with the reason: n/a), "ballot" = `warp_ballot` of a warp-uniform condition compared with 0, and of True
#: masked to lane 0's bit (the same on every warp width)
PY33_FEATURES = ("consts", "infs", "tuples", "uatomic", "gridbar", "ballot")
#: and a twelfth (issue 33, later; sarek.testing.gen.pylang): "nptab" = module-level numpy arrays as constant
#: tables (2-D, integer and f16/f32 elements), read at run-time indices
NPTAB_FEATURES = ("nptab",)
#: the unsigned atomics (feature "uatomic"); op j owns slots 2j and 2j+1 of `accu`/`accul` and rows 2j, 2j+1 of
#: `accu2` (shape (12, 2)); min slots start at the type's maximum, and slots at all ones
UATOMIC_OPS = ("atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor")
#: the starts of the unsigned accumulators' slots, as a fraction of all ones: 0 -> 0, 1 -> 2^w - 1
UACC_INIT = (0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0)
#: the bytes of the `cq` input (a 16x32 a and a 32x16 b, twice)
COOP_BYTES = 2048
FEATURE_P = {"coop": 0.15, "coop16": 0.12, "coopwg": 0.1, "i64": 0.35, "f64": 0.2, "shared": 0.25, "warp": 0.2, "narrow": 0.3, "bitcast": 0.3, "fatomic": 0.15,
             "print": 0.2, "arrays3": 0.2, "zeroinit": 0.3, "tiling": 0.3, "boolcast": 0.3, "f2i": 0.3,
             "intmin": 0.25, "bigblock": 0.15, "streams": 0.2, "zeroshared": 0.2, "vote": 0.25, "fclass": 0.3, "vec": 0.3,
             "vecx": 0.3, "views": 0.3,
             "consts": 0.3, "infs": 0.3, "tuples": 0.3, "uatomic": 0.25,
             "gridbar": 0.1, "ballot": 0.2, "nptab": 0.25}
#: the integer types a comparison is cast to (feature "boolcast") and a float converted to (feature "f2i")
INT_TYPES = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64")
#: the block sizes of feature "bigblock" (one block; multiples of 64 so 2-D shared rows of 16 and warps fit)
BIG_BLOCKS = tuple(range(384, 1025, 64))
#: the values of the input `ax` (f32) and `axd` (f64), cycled (feature "f2i"): beyond every integer type's
#: range, inf, NaN, the edges of each type, fractions of either sign (truncated toward zero)
F2I_VALUES = (3e9, 5e9, float("inf"), float("-inf"), float("nan"), -3e9, 1e20, -1e20, 255.75, 256.0, -128.5,
              -129.0, 65535.5, 65536.0, -32768.75, -32769.0, 2147483520.0, -2147483648.0, 4294967040.0,
              4294967296.0, 9.2e18, 1.9e19, -9.3e18, -0.75, 0.5, 127.5, 2.75, -2.75, 0.0, -0.0, 1e-30, 3.4e38)
#: the input `ac` (i32) / `acl` (i64) of feature "intmin": INT_MIN, -1, INT_MAX, 1, cycled
INTMIN_PERIOD = 4
#: the narrow element types and the values their inputs hold (bf16, f16: quarter-integers, exact in either)
NARROW_TYPES = ("u8", "i8", "u16", "i16", "u32", "u64", "bf16", "f16")
NARROW_RANGE = {"u8": (0, 255), "i8": (-128, 127), "u16": (0, 65535), "i16": (-32768, 32767), "u32": (0, 2**32 - 1),
                "u64": (0, 2**64 - 1), "bf16": (-32, 32), "f16": (-32, 32)}
#: the narrow float types: computed in f32, rounded to nearest even on conversion and store
NARROW_FLOATS = ("bf16", "f16")
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
    second: str = ""  # the type of a second returned value (`-> tuple[ret, second]`; calls read `[0]`)


@dataclass
class Program:
    """One generated kernel: the module's source and its launch description."""

    seed: int
    source: str
    case: dict[str, Any] = field(default_factory=lambda: {})

    @property
    def name(self) -> str:
        return f"fz{self.seed}"


class GenBase(ABC):
    """The state of one kernel's generation; `self.out` collects the source lines. The expression, statement
    and declaration builders are the subclasses (ints, floats, stmts, decls); the kinds recurse into each other,
    so the ones an integer expression needs are declared here."""

    def __init__(self, seed: int, features: frozenset[str] | None = None,
                 corners: frozenset[str] | tuple[str, ...] | None = None):
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
        self.i33 = random.Random(f"sarek-fuzz-i33-{seed}")
        # issue 34's features: drawn for every seed (so switching one off leaves the others' draws alone), kept
        # where `corners` allows them
        self.cr = random.Random(f"sarek-fuzz-corners-{seed}")
        drawn = {f for f in CORNER_FEATURES if self.cr.random() < FEATURE_P.get(f, 0.5)}
        allowed = set(CORNER_FEATURES if corners is None else corners)
        self.feats = set(features) if features is not None else {
            f for f in FEATURES if r.random() < FEATURE_P.get(f, 0.5)} | {
            f for f in LATER_FEATURES if later.random() < FEATURE_P.get(f, 0.5)} | {
            f for f in LATEST_FEATURES if latest.random() < FEATURE_P.get(f, 0.5)} | (drawn & allowed)
        # each later stream has its own random source (so a seed's other draws stay as they were); drawn here
        # only when the features are not given
        self.qr = self.stream("coop", COOP_FEATURES, features)  # issue 29's
        if features is None:
            self.feats |= {f for f in ISSUE33_FEATURES if self.i33.random() < FEATURE_P.get(f, 0.5)}
        self.q16 = self.stream("coop16", COOP16_FEATURES, features)  # f16 tile products
        self.qw = self.stream("coopwg", COOPWG_FEATURES, features)  # warpgroup tile products
        self.v33 = self.stream("vec33", VEC_FEATURES, features)  # vectors
        self.vx = self.stream("vecx", VECX_FEATURES, features)  # the second vector stream
        self.vw = self.stream("views", VIEW_FEATURES, features)  # array views
        self.in_view = False  # generating a view call's operands (floats.fview)
        self.p33 = self.stream("py33", PY33_FEATURES, features)  # issue 33's Python semantics (gen.pylang)
        self.npt = self.stream("nptab", NPTAB_FEATURES, features)  # numpy tables
        self.nptab_i: list[list[int]] = []  # the numpy tables (feature "nptab")
        self.nptab_f: list[list[float]] = []
        self.itab: list[int] = []  # the constant tables (feature "consts")
        self.ftab: list[float] = []
        self.uses_math = False  # `import math` (feature "infs")
        self.uatomics: set[str] = set()  # the unsigned accumulators used (feature "uatomic")
        self.uses_gx = False  # the grid exchange output `gx` (feature "gridbar")
        if "bigblock" in self.feats:
            self.block, self.grid = self.cr.choice(BIG_BLOCKS), 1
            self.n = self.block
        if "coopwg" in self.feats:  # whole warpgroups
            self.block = -(-self.block // 128) * 128
            self.n = self.block * self.grid
        self.coopwg_n = 0  # N of the warpgroup product (feature "coopwg"; CASE["coopwg"] sizes `ow`)
        #: zero-initialised shared memory is read (needs the barrier stage)
        self.zshared = "zeroshared" in self.feats
        #: the shapes this kernel holds (CASE["shapes"], counted by `fuzz --stats`)
        self.shapes: set[str] = set()
        self.types_used: set[str] = set()  # scalar types imported beyond the usual ones (u8 ... of the casts)
        self.inputs: set[str] = set()  # corner inputs used: ax, axd, ac, acl
        self.narrow = latest.choice(NARROW_TYPES) if "narrow" in self.feats else ""
        self.zn = ""  # the narrow local, once assigned
        self.uses_accf = False
        self.uses_sarek = False  # `import sarek` (sarek.bitcast)
        self.prints = 0
        # (coop calls are warp-uniform: at the top level, never under `if i < n`)
        self.barrier_mode = bool({"shared", "warp", "coop", "coop16", "coopwg", "gridbar", "ballot"} & self.feats) or self.zshared
        self.out: list[str] = []
        self.vars: list[Var] = []
        self.ivars_ro: list[IE] = []  # read-only ints in scope (loop counters, binders with known ranges)
        self.helpers: list[Helper] = []
        self.counter = 0
        self.depth: int = 0
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
        self.read_nest = 0  # array reads open around the index being built (ints.MAX_READ_NEST at most)
        self.loops: list[str] = []  # the enclosing loops, innermost last ("for" | "while")
        self.atomics: set[str] = set()  # the atomic functions the kernel calls (imported)

    # -- names and lines -----------------------------------------------------------------------------------

    def stream(self, name: str, drawn: tuple[str, ...], features: frozenset[str] | None) -> random.Random:
        """Feature stream `name`'s own random source; unless `features` were given, each of `drawn` joins the
        kernel's features with its FEATURE_P probability."""
        q = random.Random(f"sarek-fuzz-{name}-{self.seed}")
        if features is None:
            self.feats |= {f for f in drawn if q.random() < FEATURE_P.get(f, 0.5)}
        return q

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def emit(self, line: str) -> None:
        self.out.append("    " * self.depth + line)

    def emit_under(self, cond: str, line: Callable[[], str]) -> None:
        """`line()` (drawn after the condition, at its depth), inside `if cond:` when `cond` is not empty."""
        if cond:
            self.emit(f"if {cond}:")
            self.depth += 1
        self.emit(line())
        if cond:
            self.depth -= 1

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def ftyped(self, e: FE) -> FE:
        """`e` as a value of its own type even when it is a bare literal (an f64 literal needs a cast)."""
        if e.lit and e.ty == "f64":
            return FE(f"f64({e.text})", e.ty, e.exact, e.fb, e.bound)
        return e

    # -- defined by the subclasses (floats.FloatExprs) ----------------------------------------------------

    @abstractmethod
    def fexpr(self, ty: str, depth: int, need_exact: bool = False) -> FE: ...

    @abstractmethod
    def bexpr(self, depth: int) -> str: ...

    @abstractmethod
    def call(self, h: Helper) -> str: ...

    # -- defined by sarek.testing.gen.corners (issue 34's shapes) --------------------------------------------

    # -- defined by sarek.testing.gen.pylang (issue 33's Python semantics) -----------------------------------

    @abstractmethod
    def table_ileaf(self) -> IE: ...

    @abstractmethod
    def table_fleaf(self, ty: str) -> FE: ...

    @abstractmethod
    def np_ileaf(self) -> IE: ...

    @abstractmethod
    def np_fleaf(self, ty: str) -> FE: ...

    @abstractmethod
    def inf_fexpr(self, ty: str, e: FE) -> FE: ...

    @abstractmethod
    def inf_cond(self, depth: int) -> str: ...

    @abstractmethod
    def tuple_assign(self) -> bool: ...

    @abstractmethod
    def uatomic(self) -> None: ...

    @abstractmethod
    def py33_barrier_stage(self, ints: list[Var]) -> None: ...

    @abstractmethod
    def corner_ileaf(self, ty: str) -> IE | None: ...

    @abstractmethod
    def corner_fleaf(self, ty: str) -> FE | None: ...
