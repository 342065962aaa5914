"""sarek-strength-reduce: induction-variable products become running sums.

In a `sarek.for` with index i and step s, an integer `i * x` (or `x * i`, i possibly through `let`s) whose x
is defined outside the loop, standing directly in the loop body, becomes a variable:

    let_mut "<i>_x<n>" = lo * x        (before the loop)
    ... load of it ...                 (where the product was)
    store <it> + x*s                   (at the end of the body)

The sums wrap exactly like the products (two's complement: lo*x + k*s*x = (lo + k*s)*x modulo 2^width), so
results are unchanged. Loops holding `continue` (which would skip the update) or a `return` are left alone.
Runs after sarek-licm, which moves the invariant factors out first.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from sarek.analysis.motion import binder_names, root
from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import is_int
from sarek.passes.canonicalize import constant
from sarek.passes.licm import _inside  # pyright: ignore[reportPrivateUsage]


def _function(op: Operation) -> Operation:
    p: Operation | None = op
    while p is not None and not isinstance(p, s.KernelOp | s.HelperOp):
        p = p.parent_op()
    assert p is not None
    return p


def fresh(base: str, taken: set[str]) -> str:
    """`base`, else `<base>_<k>`: the first not in `taken` (which gains it); sarek-legalize-names later makes
    it legal for the target."""
    name, k = base, 1
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    taken.add(name)
    return name


def candidates(loop: s.ForOp) -> list[tuple[s.BinOp, SSAValue]]:
    """The body's `i * x` products (x invariant) with their x."""
    out: list[tuple[s.BinOp, SSAValue]] = []
    for o in loop.body.block.ops:
        if not (isinstance(o, s.BinOp) and o.op == s.BinOpKind.MUL and is_int(o.result.type)):
            continue
        for a, b in ((o.lhs, o.rhs), (o.rhs, o.lhs)):
            if root(a) is loop.index and not _inside(b, loop):
                out.append((o, b))
                break
    return out


def reduce_loop(loop: s.ForOp, names: set[str]) -> int:
    """Strength-reduce one loop; returns how many products became sums."""
    step = loop.step_value
    if not isinstance(step, int) or any(isinstance(o, s.ReturnOp) or "continue" in o.name for o in loop.body.walk()):
        return 0  # a run-time step, or an exit that would skip the update
    found = candidates(loop)
    if not found:
        return 0
    parent = loop.parent_block()
    assert parent is not None
    body = loop.body.block
    t = loop.lo.type
    for mul, x in found:
        name = fresh(f"{loop.sym.data}_x", names)
        init = s.BinOp(s.BinOpKind.MUL, loop.lo, x)
        var = s.LetMutOp(name, init.result)
        pre: list[Operation] = [init, var]
        if step == 1:
            inc = x
        else:
            sc = constant(step, t)
            incop = s.BinOp(s.BinOpKind.MUL, x, sc.result)
            pre += [sc, incop]
            inc = incop.result
        parent.insert_ops_before(pre, loop)
        cur = s.LoadOp(var.result)
        body.insert_op_before(cur, mul)
        mul.result.replace_all_uses_with(cur.result)
        Rewriter.erase_op(mul)
        nxt = s.BinOp(s.BinOpKind.ADD, cur.result, inc)
        body.add_ops([nxt, s.StoreOp(var.result, nxt.result)])
    return len(found)


def strength_reduce(module: ModuleOp) -> int:
    """Every loop of every kernel and helper; returns how many products became sums."""
    total = 0
    names: dict[int, set[str]] = {}
    for loop in [o for o in module.walk() if isinstance(o, s.ForOp)]:
        fn = _function(loop)
        total += reduce_loop(loop, names.setdefault(id(fn), binder_names(fn)))
    return total


@dataclass(frozen=True)
class StrengthReducePass(ModulePass):
    """Turn products of a for index and a loop-invariant integer into running sums (one add per iteration).

    No options. Exact (wrapping sums equal wrapping products); loops with continue or return are skipped.
    """

    name = "sarek-strength-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        strength_reduce(op)
