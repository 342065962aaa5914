"""PTX lowering, per-function state and the lowering's base: the value environment, loop labels, known
quotients; layouts of records and variants, fresh registers, copies, and the op dispatch (`op_<Op>` methods,
defined by the concern mixins `arith`, `memory`, `intrinsics`, `control`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as sk
from sarek.dialect.optable import OpTable
from sarek.lowering.ptx.emitter import Emitter
from sarek.lowering.ptx.values import Frame, Rec, Sc, Var, ptx_error, scalar_reg_type
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import RegAttr


#: sarek op type -> the PTX lowering's method for it, `fn(lowering, st, op)` (its value, or None); stated by
#: `@lowers(Op)` on the method in the concern's module (arith, memory, intrinsics, control, wgmma, coopmat,
#: asynccopy); `LoweringBase.op` dispatches on the op's exact type
lowers = OpTable[Callable[..., Any]]("PTX lowering")


@dataclass
class LoopLabels:
    """Where `break` (`end`) and `continue` go in a loop; a for's next-iteration label is made on first use."""

    end: str
    cont: str | None = None
    em: Emitter | None = None

    def continue_label(self) -> str:
        if self.cont is None:
            assert self.em is not None
            self.cont = self.em.label("fornext")
        return self.cont


@dataclass
class FnState:
    em: Emitter
    env: dict[SSAValue, Any] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    loops: list[LoopLabels] = field(default_factory=list)  # innermost last
    grid_counter: RegAttr | None = None  # the hidden grid-barrier counter's global address (kernel.GRID_COUNTER)
    # integer quotients computed in the enclosing blocks (a block's entries dominate its nested regions)
    quotients: list[dict[tuple[str, int, int], RegAttr]] = field(default_factory=lambda: [{}])

    def quotient(self, a: RegAttr, b: RegAttr) -> RegAttr | None:
        return self.quotient_of((a.ty.data, a.n.data, b.n.data))

    def quotient_of(self, key: tuple[str, int, int]) -> RegAttr | None:
        for scope in reversed(self.quotients):
            if key in scope:
                return scope[key]
        return None


class LoweringBase:
    """The module being lowered, its layouts and helpers, and what every concern uses."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.helpers = {op.sym_name.data: op for op in module.ops if isinstance(op, sk.HelperOp)}
        self._layouts: dict[Attribute, Any] = {}
        #: module-scope `.const` tables (sarek-constant-tables), each declared once: a helper's is shared by the
        #: kernels it is inlined into
        self.const_tables: dict[Operation, px.ArrayDeclOp] = {}

    def layout(self, t: Attribute, op: Operation | None = None) -> Any:
        if t not in self._layouts:
            from sarek.analysis.layout import LayoutError, layout_of

            try:
                self._layouts[t] = layout_of(self.module, t)
            except LayoutError as e:
                raise ptx_error(e.message, op) from None
        return self._layouts[t]

    def size_align(self, t: Attribute, op: Operation | None = None) -> tuple[int, int]:
        lay = self.layout(t, op)
        return lay.size, lay.align

    def record_decl(self, t: sk.RecordType) -> sk.RecordOp:
        for op in self.module.ops:
            if isinstance(op, sk.RecordOp) and op.sym_name.data == t.decl_name:
                return op
        raise ptx_error(f"record @{t.decl_name} is not declared")

    def variant_decl(self, t: sk.VariantType) -> sk.VariantOp:
        for op in self.module.ops:
            if isinstance(op, sk.VariantOp) and op.sym_name.data == t.decl_name:
                return op
        raise ptx_error(f"variant @{t.decl_name} is not declared")

    def nwords(self, t: sk.VariantType, op: Operation | None = None) -> int:
        lay = self.layout(t, op)
        return (lay.size - lay.payload_offset) // 4

    def fresh(self, st: FnState, t: Attribute, op: Operation | None = None) -> Any:
        if isinstance(t, sk.UnitType):
            return None
        rt = scalar_reg_type(t)
        if rt is not None:
            return Sc(t, st.em.reg(rt))
        if isinstance(t, sk.RecordType):
            d = self.record_decl(t)
            return Rec(t, [self.fresh(st, ft, op) for _, ft in d.fields])
        if isinstance(t, sk.VariantType):
            return Var(t, st.em.reg("s32"), [st.em.reg("b32") for _ in range(self.nwords(t, op))])
        raise ptx_error(f"a value of type {t} has no PTX register form", op)

    def copy(self, st: FnState, dst: Any, src: Any) -> None:
        em = st.em
        if dst is None:
            return
        if isinstance(dst, Sc):
            em.mov(dst.r.ty.data, dst.r, em.imm(src.r))
        elif isinstance(dst, Rec):
            for d, s in zip(dst.fields, src.fields):
                self.copy(st, d, s)
        elif isinstance(dst, Var):
            em.mov("s32", dst.tag, src.tag)
            for d, s in zip(dst.words, src.words):
                em.mov("b32", d, s)
        else:
            raise ptx_error(f"cannot copy {dst}")

    def block(self, st: FnState, b: Block) -> None:
        st.quotients.append({})
        try:
            for op in b.ops:
                self.op(st, op)
        finally:
            st.quotients.pop()

    def region_value(self, st: FnState, r: Region) -> Any:
        """Lower a region ending in sarek.yield; returns the yielded value."""
        res = None
        st.quotients.append({})
        try:
            for op in r.block.ops:
                if isinstance(op, sk.YieldOp):
                    res = st.env[op.value]
                else:
                    self.op(st, op)
        finally:
            st.quotients.pop()
        return res

    def val(self, st: FnState, v: SSAValue) -> Any:
        return st.env[v]

    def op(self, st: FnState, op: Operation) -> None:
        env = st.env
        try:
            fn = lowers.entries.get(type(op))
            if fn is None:
                raise ptx_error(f"{op.name} is not supported by the PTX backend", op)
            r = fn(self, st, op)
        except SarekError:
            raise
        except (KeyError, IndexError, AttributeError, ValueError, TypeError) as e:
            raise ptx_error(f"internal error lowering {op.name}: {type(e).__name__}: {e}", op) from e
        if r is not None and op.results:
            env[op.results[0]] = r

    def lowered(self, st: FnState, b: Block) -> list[Operation]:
        """The instructions of a statement block, lowered aside (not yet in the function's list)."""
        saved, st.em.ops = st.em.ops, []
        try:
            self.block(st, b)
            return st.em.ops
        finally:
            st.em.ops = saved
