"""Front end, control flow: if/while/for/match/with statements, each a function of the statement lowerer
(`CONTROL`, by statement class, is what `StmtLowerer.stmt` dispatches to), and the joins of assigned names after
branches and loops."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Operation, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_int
from sarek.frontend.decls import VariantCtor
from sarek.frontend.lower_base import Binding, tname
from sarek.gpu import GpuFunction

if TYPE_CHECKING:
    from sarek.frontend.lower_stmt import StmtLowerer


def branch(lw: StmtLowerer, block: Block, body: list[ast.stmt]) -> tuple[set[str], bool]:
    saved_a, saved_t = set(lw.assigned), lw.terminated
    lw.terminated = False
    lw.in_block(block, lambda: lw.stmts(body))
    out = (lw.assigned, lw.terminated)
    lw.assigned, lw.terminated = saved_a, saved_t
    return out


def join(lw: StmtLowerer, outs: list[tuple[set[str], bool]]) -> None:
    live = [a for a, t in outs if not t]
    if not live:
        lw.terminated = True
        return
    res = set(live[0])
    for a in live[1:]:
        res &= a
    lw.assigned = res


def lower_if(lw: StmtLowerer, st: ast.If) -> None:
    c = lw.cond(st.test)
    op = s.IfOp(c, Region(Block()), Region(Block()) if st.orelse else Region())
    lw.emit(op, st)
    outs = [branch(lw, op.then_region.block, st.body)]
    if st.orelse:
        outs.append(branch(lw, op.else_region.block, st.orelse))
    else:
        outs.append((set(lw.assigned), False))
    join(lw, outs)


def lower_while(lw: StmtLowerer, st: ast.While) -> None:
    assert not st.orelse, "rewritten by sarek.frontend.loop_else"
    cond_block = Block()
    op = s.WhileOp(Region(cond_block), Region(Block()))

    def mk() -> None:
        c = lw.cond(st.test)
        lw.emit(s.YieldOp(c), st.test)

    lw.in_block(cond_block, mk)
    lw.emit(op, st)
    breaks = loop_body(lw, op.body.block, st.body)
    if isinstance(st.test, ast.Constant) and st.test.value is True:
        # `while True:` ends only through a break: what every break has assigned is assigned after it
        if not breaks:
            lw.terminated = True
        else:
            lw.assigned = breaks[0].intersection(*breaks[1:])


def loop_body(lw: StmtLowerer, block: Block, body: list[ast.stmt]) -> list[set[str]]:
    """Lower a loop body; gives what each `break` of this loop had assigned."""
    lw.loops.append([])
    try:
        branch(lw, block, body)
    finally:
        breaks = lw.loops.pop()
    return breaks


def lower_for(lw: StmtLowerer, st: ast.For) -> None:
    assert not st.orelse, "rewritten by sarek.frontend.loop_else"
    if not isinstance(st.target, ast.Name):
        raise lw.err(st.target, "the loop variable must be a plain name")
    it = st.iter
    if isinstance(it, ast.Name | ast.Attribute) and (tab := lw.static(it))[0] \
            and isinstance(tab[1], tuple | np.ndarray):
        for_table(lw, st, tab[1])
        return
    ok, fn = (lw.static(it.func) if isinstance(it, ast.Call) else (False, None))
    if not ok or fn is not range:
        raise lw.err(it, "only 'for i in range(...)' loops are supported")
    assert isinstance(it, ast.Call)
    if it.keywords or not 1 <= len(it.args) <= 3:
        raise lw.err(it, f"range() takes 1 to 3 arguments, {len(it.args)} given")
    args = it.args
    step: int | SSAValue = 1
    step_v = None
    if len(args) == 3:
        step_v = lw.const_eval(args[2])
        if isinstance(step_v, bool) or isinstance(step_v, float):
            raise lw.err(args[2], f"the range step must be an integer, got {step_v!r}")
        if step_v == 0:
            raise lw.err(args[2], "the range step must not be zero")
        if isinstance(step_v, int):
            step = step_v
    if len(args) == 1:
        hi = lw.expr(args[0], i32)
        lo = lw.const(0, hi.type if is_int(hi.type) else i32, args[0])
    else:
        lo_n, hi_n = args[0], args[1]
        if len(args) == 3 and step_v is None and lw.const_eval(lo_n) is not None and lw.const_eval(hi_n) is not None:
            step = lw.expr(args[2], i32)  # literal bounds take the run-time step's type
            lo = lw.expr(lo_n, step.type)
            hi = lw.expr(hi_n, step.type)
        elif lw.const_eval(lo_n) is not None and lw.const_eval(hi_n) is None:
            hi = lw.expr(hi_n, i32)
            lo = lw.expr(lo_n, hi.type)
        else:
            lo = lw.expr(lo_n, i32)
            hi = lw.expr(hi_n, lo.type)
    if sc.is_integer(lo.type) and sc.is_integer(hi.type):
        lo, hi = lw.conversions(lo, hi, it)
    for v, n in ((lo, args[0] if len(args) > 1 else it), (hi, args[1] if len(args) > 1 else args[0])):
        if sc.is_unsigned(v.type):
            raise lw.err(n, f"range bounds must be i32 or i64, got {tname(v.type)} (convert it, e.g. "
                              f"range(i32(n)))")
        if not is_int(v.type):
            raise lw.err(n, f"range bounds must be integers, got {tname(v.type)}")
    if lo.type != hi.type:
        raise lw.err(it, f"type mismatch: range bounds are {tname(lo.type)} and {tname(hi.type)}")
    if len(args) == 3 and step_v is None:
        if not isinstance(step, SSAValue):
            step = lw.expr(args[2], lo.type)
        if step.type != lo.type:
            raise lw.err(args[2], f"type mismatch: the range bounds are {tname(lo.type)}, the step is "
                                    f"{tname(step.type)}")
        # a zero step is Python's ValueError: checked in debug mode, no iteration otherwise
        nonzero = lw.v(s.BinOp("ne", step, lw.const(0, step.type, args[2])), args[2])
        lw.emit(s.AssertOp(nonzero, "range() step must not be zero"), args[2])
    op = s.ForOp(st.target.id, lo, hi, step)
    lw.emit(op, st)
    name = st.target.id
    saved = lw.vars.get(name)
    lw.vars[name] = Binding("val", op.index, lo.type)
    loop_body(lw, op.body.block, st.body)
    if saved is None:
        del lw.vars[name]
    else:
        lw.vars[name] = saved


def for_table(lw: StmtLowerer, st: ast.For, obj: Any) -> None:
    """`for w in TAPS:` over a module-level constant table (1-D): a loop over its indices reading each
    element from the table."""
    assert isinstance(st.target, ast.Name)
    arr, t = lw.table(obj, st.iter, None)
    name = ast.unparse(st.iter)
    if arr.ndim != 1:
        raise lw.err(st.iter, f"'{name}' has {arr.ndim} dimensions: loop over one index, "
                                f"for i in range({arr.shape[0]}), and read {name}[i, ...]")
    key = (name, str(t))
    if key not in lw.tables:
        lw.tables[key] = lw.local_table(name, arr, t, st.iter)
    op = s.ForOp(f"{st.target.id}_index", lw.const(0, i32, st.iter), lw.const(arr.shape[0], i32, st.iter), 1)
    lw.emit(op, st)
    read = lw.in_block(op.body.block, lambda: lw.v(s.ArrayReadOp(lw.tables[key], [op.index]), st.target))
    name = st.target.id
    saved = lw.vars.get(name)
    lw.vars[name] = Binding("val", read, t)
    loop_body(lw, op.body.block, st.body)
    if saved is None:
        del lw.vars[name]
    else:
        lw.vars[name] = saved


def lower_match(lw: StmtLowerer, st: ast.Match) -> None:
    subj = lw.expr(st.subject)
    if not isinstance(subj.type, s.VariantType):
        raise lw.err(st.subject, f"match needs a variant value, got {tname(subj.type)}")
    vt = subj.type
    ctors = dict(lw.variant_ctors(vt))
    cases: list[str] = []
    binders: list[list[str]] = []
    regions: list[Region] = []
    bodies: list[tuple[ast.match_case, Block, list[tuple[str, SSAValue]]]] = []
    has_default = False
    for i, c in enumerate(st.cases):
        if c.guard is not None:
            raise lw.err(c.guard, "match guards ('case ... if ...') are not supported")
        p = c.pattern
        if isinstance(p, ast.MatchAs) and p.pattern is None:
            if i != len(st.cases) - 1:
                raise lw.err(p, "the catch-all case must be the last")
            has_default = True
            names = [p.name] if p.name else []
            blk = Block(arg_types=[vt] * len(names))
            cases.append(s.WILDCARD)
        elif isinstance(p, ast.MatchClass):
            ok, ctor = lw.static(p.cls)
            if not ok or not isinstance(ctor, VariantCtor):
                raise lw.err(p.cls, "a case pattern must name a variant constructor, e.g. "
                                      "'case Shape.Circle(r):'")
            if ctor.variant.__name__ != vt.decl_name:
                raise lw.err(p.cls, f"type mismatch: {ctor!r} is a constructor of {ctor.variant.__name__}, "
                                      f"the value is {tname(vt)}")
            if p.kwd_patterns:
                raise lw.err(p, "keyword patterns are not supported; bind payloads by position")
            ps = ctors[ctor.name]
            if p.patterns and len(p.patterns) != len(ps):
                raise lw.err(p, f"{ctor!r} has {len(ps)} payload value(s), the pattern binds "
                                  f"{len(p.patterns)}")
            names: list[str] = []
            for q in p.patterns:
                if not (isinstance(q, ast.MatchAs) and q.pattern is None):
                    raise lw.err(q, "nested patterns are not supported; bind the payload to a name")
                names.append(q.name or "_")
            if ctor.name in cases:
                raise lw.err(p, f"constructor {ctor!r} is matched twice")
            blk = Block(arg_types=ps if names else [])
            cases.append(ctor.name)
        else:
            raise lw.err(p, "unsupported pattern: use 'case Variant.Ctor(x, ...):' or 'case _:'")
        binders.append(names)
        regions.append(Region(blk))
        bodies.append((c, blk, list(zip(names, blk.args))))
    op = s.MatchOp(subj, cases, binders, regions)
    lw.emit(op, st)
    outs: list[tuple[set[str], bool]] = []
    for c, blk, binds in bodies:
        saved = {n: lw.vars.get(n) for n, _ in binds}
        for n, a in binds:
            if n != "_":
                lw.vars[n] = Binding("val", a, a.type)
        outs.append(branch(lw, blk, c.body))
        for n, b in saved.items():
            if b is None:
                lw.vars.pop(n, None)
            else:
                lw.vars[n] = b
    if not has_default and set(cases) != set(ctors):
        outs.append((set(lw.assigned), False))
        lw.partial_matches[id(st)] = [f"{vt.decl_name}.{c}" for c in ctors if c not in cases]
    join(lw, outs)


def lower_with(lw: StmtLowerer, st: ast.With) -> None:
    if len(st.items) != 1 or st.items[0].optional_vars is not None:
        raise lw.err(st, "only 'with pragma(...):' and 'with superstep():' are supported")
    e = st.items[0].context_expr
    ok, fn = lw.static(e.func) if isinstance(e, ast.Call) else (False, None)
    if not ok or not isinstance(fn, GpuFunction) or fn.kind != "context":
        raise lw.err(e, "only 'with pragma(...):' and 'with superstep():' are supported")
    assert isinstance(e, ast.Call)
    if fn.name == "pragma":
        hints: list[str] = []
        for a in e.args:
            if not (isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value):
                raise lw.err(a, "pragma hints are non-empty strings, e.g. pragma(\"unroll\")")
            hints.append(a.value)
        if e.keywords:
            raise lw.err(e, "pragma() takes only string hints")
        op: Operation = s.PragmaOp(hints)
        lw.emit(op, st)
        out = branch(lw, op.regions[0].block, st.body)
        join(lw, [out])
    else:
        divergent = False
        for k in e.keywords:
            if k.arg != "divergent":
                raise lw.err(k, f"superstep() has no argument '{k.arg}'")
            divergent = lw.const_eval(k.value)
            if not isinstance(divergent, bool):
                raise lw.err(k.value, "superstep(divergent=...) takes a constant True or False")
        if e.args:
            raise lw.err(e, "superstep() takes no positional argument")
        op = s.BlockOp(superstep="divergent" if divergent else "")
        lw.emit(op, st)
        out = branch(lw, op.regions[0].block, st.body)
        join(lw, [out])
        lw.emit(s.BarrierOp(), st)


#: the control-flow statements, by class
CONTROL: dict[type[ast.stmt], Callable[[StmtLowerer, Any], None]] = {
    ast.If: lower_if, ast.While: lower_while, ast.For: lower_for, ast.Match: lower_match, ast.With: lower_with,
}
