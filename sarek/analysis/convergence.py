"""Barrier convergence: collective operations (barriers, warp barriers, warp shuffles, cooperative-matrix
ops) must not run under thread-divergent control flow.

A value is thread-varying when it depends on a thread index (`thread_idx_*`, `global_idx_*`,
`global_thread_id`, `lane_id`), on a value read from memory (vector or array reads, loads of elements),
on an atomic's or a warp shuffle's result, or on a mutable local assigned a varying value or assigned
under divergent control. Block-uniform values are fine: constants, scalar and vector parameters (kernel
arguments are uniform), vector lengths, `block_idx_*`, `block_dim_*`, `grid_dim_*`, `global_size*`,
`warp_size`. Control is divergent inside an if / if_expr / match / match_expr whose condition or scrutinee
varies, a for loop whose bounds vary, a while loop whose condition varies, and after a helper's return under
divergent control. Helpers are analysed per call with the divergence of their arguments; a call of a
helper containing a collective op under divergent control is reported at the call.

Mutables are tracked flow-insensitively (a let_mut is varying everywhere once any store makes it so), which
errs on the side of reporting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.sarek import (
    ArrayReadOp,
    BarrierOp,
    CallOp,
    CoopmatLoadOp,
    CoopmatMulAddOp,
    CoopmatStoreOp,
    FieldRefOp,
    ForOp,
    HelperOp,
    IfExprOp,
    IfOp,
    IntrinsicOp,
    KernelOp,
    LetMutOp,
    LoadOp,
    MatchExprOp,
    MatchOp,
    NativeOp,
    ReturnOp,
    StoreOp,
    WarpBarrierOp,
    WhileOp,
    YieldOp,
)

THREAD_VARYING = {f"{b}_{d}" for b in ("thread_idx", "global_idx") for d in "xyz"} | {"global_thread_id", "lane_id"}


def collective_kind(op: Operation) -> str | None:
    """What makes `op` collective (every thread of its block / warp must reach it), or None."""
    if isinstance(op, BarrierOp):
        return "sarek.barrier"
    if isinstance(op, WarpBarrierOp):
        return "sarek.warp_barrier"
    if isinstance(op, IntrinsicOp) and op.callee.data in INTRINSICS and \
            INTRINSICS[op.callee.data].category == Category.WARP and op.args:
        return f"warp operation '{op.callee.data}'"
    if isinstance(op, CoopmatLoadOp | CoopmatStoreOp | CoopmatMulAddOp):
        return op.name
    return None


def _source(op: Operation) -> str | None:
    """Why `op`'s result varies across threads whatever its operands, or None."""
    if isinstance(op, IntrinsicOp):
        info = INTRINSICS.get(op.callee.data)
        if op.callee.data in THREAD_VARYING:
            return op.callee.data
        if info is not None and info.category == Category.ATOMIC:
            return f"the result of '{op.callee.data}'"
        if info is not None and info.category == Category.WARP and op.args:
            return f"the result of '{op.callee.data}'"
    if isinstance(op, ArrayReadOp):
        return "a value read from memory"
    if isinstance(op, LoadOp) and not isinstance(_root(op.ref), LetMutOp):
        return "a value read from memory"
    return None


def _root(place: SSAValue) -> Operation | None:
    op = place.owner
    while isinstance(op, FieldRefOp):
        op = op.base.owner
    return op if isinstance(op, Operation) else None


@dataclass
class _Function:
    """One analysis of a function body under given parameter divergence and control divergence."""

    analysis: ConvergenceAnalysis
    div: dict[SSAValue, str] = field(default_factory=dict[SSAValue, str])
    mutables: dict[Operation, str] = field(default_factory=dict[Operation, str])
    exited: str | None = None
    changed: bool = False

    def reason(self, vs: Sequence[SSAValue]) -> str | None:
        return next((r for v in vs if (r := self.div.get(v)) is not None), None)

    def mark(self, v: SSAValue, r: str | None) -> None:
        if r is not None and v not in self.div:
            self.div[v] = r

    def run(self, block: Block, ctrl: str | None) -> None:
        while True:
            self.changed, self.exited = False, None
            self.block(block, ctrl)
            if not self.changed:
                return

    def block(self, block: Block, ctrl: str | None) -> None:
        for op in block.ops:
            self.op(op, ctrl or self.exited)

    def op(self, op: Operation, ctrl: str | None) -> None:
        a = self.analysis
        kind = collective_kind(op)
        if kind is not None and ctrl is not None:
            a.report(op, f"{kind} under thread-divergent control flow ({ctrl})")
        if isinstance(op, ReturnOp) and ctrl is not None and self.exited is None:
            self.exited = "a return under thread-divergent control precedes it"
        if isinstance(op, StoreOp):
            root = _root(op.place)
            r = self.div.get(op.value) or ctrl
            if isinstance(root, LetMutOp) and r is not None and root not in self.mutables:
                self.mutables[root] = f"mutable '{root.sym.data}' ({r})" if ctrl is None else \
                    f"mutable '{root.sym.data}', assigned under divergent control"
                self.changed = True
            return
        if isinstance(op, CallOp):
            self.call(op, ctrl)
            return
        if isinstance(op, LoadOp) and isinstance(root := _root(op.ref), LetMutOp):
            self.mark(op.result, self.mutables.get(root) or self.div.get(root.init))
            return
        if isinstance(op, LetMutOp):
            if (r := self.div.get(op.init)) is not None and op not in self.mutables:
                self.mutables[op] = f"mutable '{op.sym.data}' ({r})"
            return
        if isinstance(op, IfOp | IfExprOp):
            inner = self.ctrl(ctrl, op.cond, f"the condition of the enclosing {op.name}")
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, inner)
        elif isinstance(op, MatchOp | MatchExprOp):
            inner = self.ctrl(ctrl, op.scrutinee, f"the scrutinee of the enclosing {op.name}")
            for region in op.case_regions:
                for arg in region.block.args:
                    self.mark(arg, self.div.get(op.scrutinee))
                self.block(region.block, inner)
        elif isinstance(op, ForOp):
            self.mark(op.index, self.reason([op.lo, op.hi]))
            self.loop(op, [op.body.block], self.ctrl(ctrl, op.lo, "a bound of the enclosing sarek.for")
                      or self.ctrl(ctrl, op.hi, "a bound of the enclosing sarek.for"))
        elif isinstance(op, WhileOp):
            y = op.cond_region.block.last_op
            self.block(op.cond_region.block, ctrl)
            cond = y.value if isinstance(y, YieldOp) else None
            inner = self.ctrl(ctrl, cond, "the condition of the enclosing sarek.while") if cond else ctrl
            self.loop(op, [op.cond_region.block, op.body.block], inner)
        else:
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, ctrl)
        if op.results:
            r = _source(op) or self.reason(op.operands)
            if r is None and isinstance(op, IfExprOp | MatchExprOp):
                r = self.reason([op.cond if isinstance(op, IfExprOp) else op.scrutinee] + [
                    y.value for region in op.regions for y in [region.block.last_op] if isinstance(y, YieldOp)])
            for res in op.results:
                self.mark(res, r)

    def ctrl(self, ctrl: str | None, v: SSAValue | None, what: str) -> str | None:
        if ctrl is not None or v is None:
            return ctrl
        r = self.div.get(v)
        return f"{what} depends on {r}" if r is not None else None

    def loop(self, op: Operation, blocks: list[Block], ctrl: str | None) -> None:
        before = self.exited
        for b in blocks:
            self.block(b, ctrl)
        if before is None and self.exited is not None and ctrl is None:
            for b in blocks:  # threads that returned skip the later iterations
                self.block(b, self.exited)

    def call(self, op: CallOp, ctrl: str | None) -> None:
        a = self.analysis
        h = a.helpers.get(op.callee_name)
        if h is None:
            return
        inner = a.collective_in(h)
        if inner is not None and ctrl is not None:
            a.report(op, f"call of @{op.callee_name}, which contains {inner}, under thread-divergent control flow "
                         f"({ctrl})")
        args = tuple(self.div.get(x) for x in op.args)
        a.analyse(h, args)
        r = next((x for x in args if x is not None), None) or a.varying_in(h)
        for res in op.res:
            self.mark(res, r and f"the result of @{op.callee_name}")


@dataclass
class ConvergenceAnalysis:
    """Collective ops under thread-divergent control flow in a module, in the order found."""

    module: ModuleOp
    errors: list[tuple[Operation, str]] = field(default_factory=list[tuple[Operation, str]])
    helpers: dict[str, HelperOp] = field(default_factory=dict[str, HelperOp])
    _done: set[tuple[str, tuple[bool, ...]]] = field(default_factory=set[tuple[str, tuple[bool, ...]]])
    _reported: set[int] = field(default_factory=set[int])

    def __post_init__(self) -> None:
        self.helpers = {h.sym_name.data: h for h in self.module.ops if isinstance(h, HelperOp)}

    def report(self, op: Operation, message: str) -> None:
        if id(op) not in self._reported:
            self._reported.add(id(op))
            self.errors.append((op, message))

    def run(self) -> list[tuple[Operation, str]]:
        for f in self.module.ops:
            if isinstance(f, KernelOp):
                _Function(self).run(f.body.block, None)
        for h in self.helpers.values():  # helpers no kernel reached: with uniform arguments
            self.analyse(h, tuple(None for _ in h.body.block.args))
        return self.errors

    def analyse(self, h: HelperOp, args: tuple[str | None, ...]) -> None:
        key = (h.sym_name.data, tuple(x is not None for x in args))
        if key in self._done:
            return
        self._done.add(key)
        f = _Function(self)
        for arg, r in zip(h.body.block.args, args):
            f.mark(arg, r and f"parameter '{h.param_names.data[arg.index].data}' ({r})")
        f.run(h.body.block, None)

    def collective_in(self, h: HelperOp, seen: frozenset[str] = frozenset()) -> str | None:
        """The first collective op in `h` or the helpers it calls, as text."""
        for op in h.walk():
            if (k := collective_kind(op)) is not None:
                return k
            if isinstance(op, CallOp) and op.callee_name not in seen and (c := self.helpers.get(op.callee_name)):
                if (k := self.collective_in(c, seen | {h.sym_name.data})) is not None:
                    return k
        return None

    def varying_in(self, h: HelperOp, seen: frozenset[str] = frozenset()) -> str | None:
        """Whether `h` (or a helper it calls) reads a thread-varying source, so its result may vary."""
        for op in h.walk():
            if (s := _source(op)) is not None or isinstance(op, NativeOp):
                return s or "native code"
            if isinstance(op, CallOp) and op.callee_name not in seen and (c := self.helpers.get(op.callee_name)):
                if (s := self.varying_in(c, seen | {h.sym_name.data})) is not None:
                    return s
        return None


def divergent_collectives(module: ModuleOp) -> list[tuple[Operation, str]]:
    """(op, message) for every collective op (or call reaching one) under thread-divergent control flow."""
    return ConvergenceAnalysis(module).run()

