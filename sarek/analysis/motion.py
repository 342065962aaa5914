"""Which sarek ops the optimisation passes may erase, merge or move: the facts canonicalize, CSE, LICM, unroll
and strength reduction share.

- `removable(op)`: erasing it when its results are unused changes nothing but the work done (pure ops,
  binders, reads of memory and of variables).
- `mergeable(op)`: two such ops with the same operands, properties and attributes give the same value, so a
  later one may be replaced by an earlier one that dominates it (the pure expression ops and the pure
  intrinsics; no memory or variable reads).
- `speculatable(op)`: it may also be evaluated where it was not (hoisted out of a loop that runs zero times,
  out of an `if`): mergeable and unable to fault — integer `div`/`rem` only by a non-zero constant.
- `const_value(v)`: the Python value of a `sarek.constant` (through `sarek.let`), else None.
- `trip_count(for)`: how many times a `for` runs when its bounds say so: `(n, False)` for constant bounds,
  `(n, True)` for `hi = lo + c` (n iterations provided `lo + c` does not wrap, i.e. when `lo < hi`).
- `binder_names(fn)`: every binder name in a kernel or helper, to pick fresh ones.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, IntegerAttr, i1
from xdsl.ir import Operation, SSAValue

from sarek.analysis.effects import is_pure_intrinsic
from sarek.dialect import sarek as s

_EXPR = (s.ConstantOp, s.BinOp, s.UnOp, s.CastOp, s.BitcastOp, s.MakeRecordOp, s.MakeVariantOp, s.FieldOp,
         s.ArrayLenOp, s.ArrayDimOp)


def mergeable(op: Operation) -> bool:
    """Pure, region-free and reading no memory or variable: equal operands give an equal value."""
    if op.regions or len(op.results) != 1:
        return False
    if isinstance(op, s.IntrinsicOp):
        return is_pure_intrinsic(op)
    return isinstance(op, _EXPR + (s.PayloadOp,))


def speculatable(op: Operation) -> bool:
    """Mergeable and safe to evaluate where the program would not: no fault, whatever the operands."""
    if isinstance(op, s.PayloadOp):  # the payload of another constructor: only inside its match case
        return False
    if isinstance(op, s.BinOp) and op.kind.data in (s.BinOpKind.DIV, s.BinOpKind.REM) \
            and not isinstance(op.rhs.type, Float16Type | Float32Type | Float64Type):
        c = const_value(op.rhs)
        return isinstance(c, int) and c != 0
    return mergeable(op)


def removable(op: Operation) -> bool:
    """Unused, it can be erased: no effect beyond its value."""
    if op.regions or not op.results:
        return False
    return mergeable(op) or isinstance(op, s.LetOp | s.ArrayReadOp | s.LoadOp | s.ElemRefOp | s.FieldRefOp)


def const_value(v: SSAValue) -> int | float | bool | None:
    """The value of a constant (seen through `let`), as Python int/float/bool; None otherwise."""
    op = v.owner
    while isinstance(op, s.LetOp):
        op = op.value.owner
    if not isinstance(op, s.ConstantOp):
        return None
    a = op.value
    if isinstance(a, IntegerAttr):
        n = int(a.value.data)
        return bool(n) if op.result.type == i1 else n
    if isinstance(a, FloatAttr):
        return float(a.value.data)
    return None


def binder_names(fn: Operation) -> set[str]:
    """Every binder name (let, let_mut, for index, array, match binder, parameter) in a kernel or helper."""
    out: set[str] = set()
    for o in fn.walk():
        if isinstance(o, s.LetOp | s.LetMutOp | s.ForOp | s.AllocArrayOp):
            out.add(o.sym.data)
        elif isinstance(o, s.MatchOp | s.MatchExprOp):
            out |= {b.data for bs in o.binders for b in bs}
        elif isinstance(o, s.KernelOp | s.HelperOp):
            out |= {n.data for n in o.param_names}
    return out


def root(v: SSAValue) -> SSAValue:
    """The value a chain of `let`s names."""
    while isinstance(v.owner, s.LetOp):
        v = v.owner.value
    return v


def trip_count(op: s.ForOp) -> tuple[int, bool] | None:
    """(iterations, guarded): constant bounds give (n, False); `hi = lo + c` (0 <= c <= 4096) gives
    (n, True): n iterations when `lo < hi` (for a positive step), none when `lo + c` wrapped."""
    lo, hi, st = const_value(op.lo), const_value(op.hi), op.step_value
    if not isinstance(st, int):  # a run-time step
        return None
    if isinstance(lo, int) and isinstance(hi, int):
        return len(range(lo, hi, st)), False
    if root(op.hi) is root(op.lo):
        return 0, False
    h = root(op.hi).owner
    if st > 0 and isinstance(h, s.BinOp) and h.op == s.BinOpKind.ADD and root(h.lhs) is root(op.lo):
        c = const_value(h.rhs)
        if isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 4096:
            return (0, False) if c == 0 else (len(range(0, c, st)), True)
    return None
