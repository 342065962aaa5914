"""sarek-subst-match-payloads: match binders become payload reads of the scrutinee."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import (
    WILDCARD,
    ArrayLenOp,
    ArrayReadOp,
    CallOp,
    ElemRefOp,
    HelperOp,
    LetOp,
    LoadOp,
    MatchExprOp,
    MatchOp,
    NativeOp,
    PayloadOp,
    VariantOp,
    VariantType,
    has_atomic,
    variant_decl,
)


def _side_effect(op: Operation, module: ModuleOp, seen: set[str]) -> Operation | None:
    """An atomic (or native code, or a call of a helper containing either) inside `op`, if any."""
    for o in op.walk():
        if has_atomic(o) or isinstance(o, NativeOp):
            return o
        if isinstance(o, CallOp) and o.callee_name not in seen:
            seen.add(o.callee_name)
            h = next((h for h in module.ops if isinstance(h, HelperOp) and h.sym_name.data == o.callee_name), None)
            if h is not None and _side_effect(h, module, seen) is not None:
                return o
    return None


def scrutinee_effect(scrut: SSAValue, module: ModuleOp) -> Operation | None:
    """A side effect in the expression that computes `scrut` (stopping at named values: lets, loads,
    block arguments), i.e. one a backend that re-emits the scrutinee per use would repeat."""
    todo, seen = [scrut], set[int]()
    while todo:
        v = todo.pop()
        op = v.owner
        if not isinstance(op, Operation) or isinstance(op, LetOp | LoadOp) or id(op) in seen:
            continue
        seen.add(id(op))
        if (e := _side_effect(op, module, set())) is not None:
            return e
        todo.extend(op.operands)
        for inner in op.walk():
            todo.extend(x for x in inner.operands if x.owner is not op)
    return None


@dataclass(frozen=True)
class SubstMatchPayloadsPass(ModulePass):
    """Replace match binders by payload reads of the scrutinee (`sarek.payload` with the target's `path`).

    Options: `layout` = `c` (CUDA, HIP, OpenCL, Metal: `.data.C_v[._i]`), `glsl` (`.C_v[._i]`) or `wgsl`
    (`.C_v[_i]`). Every `sarek.match`/`sarek.match_expr` loses its binders, nested ones included; a `default`
    binder becomes the scrutinee itself; existing `sarek.payload` ops get their path. Refused: a
    constructor case with binders over a scrutinee computed by an atomic (re-emission would repeat it), and
    an array read or length of a binder.
    """

    name = "sarek-subst-match-payloads"

    layout: str = "c"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            layout = PayloadLayout(self.layout)
        except ValueError:
            raise SarekError(f"sarek-subst-match-payloads: layout must be c, glsl or wgsl, not '{self.layout}'") from None
        for m in [o for o in op.walk() if isinstance(o, MatchOp | MatchExprOp)]:
            self._rewrite(m, layout, op)
        for p in [o for o in op.walk() if isinstance(o, PayloadOp)]:
            arity = len(variant_decl(p, cast(VariantType, p.variant.type)).payload(p.ctor.data) or [])
            p.path = ArrayAttr(StringAttr(f) for f in payload_fields(layout, p.ctor.data, arity, p.index.value.data))

    def _rewrite(self, m: MatchOp | MatchExprOp, layout: PayloadLayout, module: ModuleOp) -> None:
        scrut = m.scrutinee
        decl: VariantOp = variant_decl(m, cast(VariantType, scrut.type))
        for ctor, binders, region in m.case_list():
            if not binders:
                continue
            args = list(region.block.args)
            for a in args:
                for use in a.uses:
                    if isinstance(use.operation, ArrayReadOp | ArrayLenOp | ElemRefOp):
                        raise SarekError(f"match binder '{binders[a.index]}' is used as an array; a payload has "
                                         "no buffer and no length", use.operation)
            if ctor == WILDCARD:
                for a in args:
                    a.replace_all_uses_with(scrut)
            else:
                if (e := scrutinee_effect(scrut, module)) is not None:
                    raise SarekError(f"match on a scrutinee computed by an atomic or native operation binds "
                                     f"payloads of '{ctor}'; bind the scrutinee with a let first", e)
                reads = [r for a in args if (r := self._read(a, m, decl, ctor, len(args), layout)) is not None]
                if reads:
                    Rewriter.insert_op(reads, InsertPoint.at_start(region.block))
            for a in reversed(args):
                region.block.erase_arg(a)
        m.binders = ArrayAttr(ArrayAttr[StringAttr]([]) for _ in m.cases)

    @staticmethod
    def _read(a: BlockArgument, m: Operation, decl: VariantOp, ctor: str, arity: int,
              layout: PayloadLayout) -> PayloadOp | None:
        """The payload read replacing binder `a` (None when `a` is unused)."""
        if not a.uses:
            return None
        t = (decl.payload(ctor) or [])[a.index]
        path = payload_fields(layout, ctor, arity, a.index)
        p = PayloadOp(cast(MatchOp, m).scrutinee, ctor, a.index, t, path)
        p.location = m.location
        if a.name_hint:
            p.result.name_hint = a.name_hint
        a.replace_all_uses_with(p.result)
        return p
