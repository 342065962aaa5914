"""Barrier convergence: collective operations (barriers, warp barriers, warp shuffles, cooperative-matrix
ops) must not run under thread-divergent control flow.

A value is thread-varying when it depends on a thread index (`thread_idx_*`, `global_idx_*`,
`global_thread_id`, `lane_id`), on a value read from memory (vector or array reads, loads of elements),
on an atomic's or a warp shuffle's result, or on a mutable local assigned a varying value or assigned
under divergent control. Block-uniform values are fine: constants, scalar and vector parameters (kernel
arguments are uniform), vector lengths, `block_idx_*`, `block_dim_*`, `grid_dim_*`, `global_size*`,
`warp_size`. Control is divergent inside an if / if_expr / match / match_expr whose condition or scrutinee
varies, a for loop whose bounds or step vary, a while loop whose condition varies, after a return under
divergent control (for the rest of the function), after a break under divergent control (for the rest of the
loop, its later iterations included) and after a continue under divergent control (for the rest of that
iteration). Helpers are analysed per call with the divergence of their arguments; a call of a
helper containing a collective op under divergent control is reported at the call.

Supersteps (`sarek.block superstep { ... }`, followed by its implicit `sarek.barrier`): inside a non-divergent
superstep's body, at any depth, a statement `if` / `match` / `while` deciding on a thread-varying value, or a
`for` with a thread-varying bound, is reported (Sarek's superstep_diverged: the implicit barrier at the end of
the superstep would be in diverged control flow). Value-producing `if_expr` / `match_expr` are allowed (they
lower to selects and ternaries), and so is everything inside a `superstep divergent` block (the innermost
superstep decides). The rule is lexical: the bodies of helpers called from a superstep are not inspected
(their own collectives are checked as above). The implicit barrier of a superstep that is itself under
divergent control is an ordinary collective under divergent control.

Mutables are tracked flow-insensitively (a let_mut is varying everywhere once any store makes it so), which
errs on the side of reporting.

Grid barriers (`sarek.grid_barrier`) need every thread of every block: besides the thread-level check above, a
second pass (`ConvergenceAnalysis(grid=True)`) treats block indices and `warp_id` as varying too and reports a
grid barrier (or a call reaching one) under control that depends on them ("block-divergent").

Warp-uniform values: `warp_id` (and values computed from it, or from it and block-uniform values) differ between
the warps of a block but not between the lanes of a warp. Control deciding on one is divergent for a block
barrier (and a superstep) but not for a warp-level collective (a warp barrier, a warp shuffle, a
cooperative-matrix op). A cooperative-matrix op is also refused when an operand (index, stride, fill value) is
thread-varying: every lane of the warp executes it with the same operands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from sarek.diagnostics import SarekError
from sarek.dialect.intrinsics import INTRINSICS, Category, is_warp_exchange
from sarek.dialect.sarek import (
    ArrayReadOp,
    BarrierOp,
    BlockOp,
    BreakOp,
    CallOp,
    ContinueOp,
    COOPMAT_OPS,
    CoopmatDeclOp,
    CoopmatFillOp,
    CoopmatLoadOp,
    CoopmatMulAddOp,
    CoopmatStoreOp,
    FieldRefOp,
    ForOp,
    GridBarrierOp,
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
#: uniform within a block but not across the grid: divergent for a grid barrier only
BLOCK_VARYING = {f"block_idx_{d}" for d in "xyz"} | {"warp_id"}

#: the deepest call chain accepted (kernel -> helper -> ... counts each call); deeper chains are refused with a
#: located error rather than exhausting Python's stack in the analyses, the interpreter and the printers
MAX_CALL_DEPTH = 32


class WarpReason(str):
    """Why a value varies, where it varies only between warps (uniform within each warp: `warp_id`)."""


def _like(r: str, text: str) -> str:
    """`text` (a reason built from `r`), warp-level when `r` is."""
    return WarpReason(text) if isinstance(r, WarpReason) else text


def warp_level(op: Operation) -> bool:
    """Whether `op` is collective over a warp only (warp-uniform control and operands suffice)."""
    return isinstance(op, WarpBarrierOp | CoopmatFillOp | CoopmatLoadOp | CoopmatStoreOp | CoopmatMulAddOp) or (
        isinstance(op, IntrinsicOp) and is_warp_exchange(op.callee.data))


def collective_kind(op: Operation) -> str | None:
    """What makes `op` collective (every thread of its block / warp must reach it), or None."""
    if isinstance(op, BarrierOp):
        return "sarek.barrier"
    if isinstance(op, GridBarrierOp):
        return "sarek.grid_barrier"
    if isinstance(op, WarpBarrierOp):
        return "sarek.warp_barrier"
    if isinstance(op, IntrinsicOp) and op.callee.data in INTRINSICS and \
            INTRINSICS[op.callee.data].category == Category.BLOCK:
        return f"block vote '{op.callee.data}'"
    if isinstance(op, IntrinsicOp) and op.callee.data in INTRINSICS and \
            INTRINSICS[op.callee.data].category == Category.WARP and op.args:
        return f"warp operation '{op.callee.data}'"
    if isinstance(op, COOPMAT_OPS) and not isinstance(op, CoopmatDeclOp):
        return op.name
    return None


def _source(op: Operation) -> str | None:
    """Why `op`'s result varies across threads whatever its operands, or None."""
    if isinstance(op, IntrinsicOp):
        info = INTRINSICS.get(op.callee.data)
        if op.callee.data in THREAD_VARYING:
            return op.callee.data
        if op.callee.data == "warp_id":
            return WarpReason("warp_id")
        if info is not None and info.category in (Category.ATOMIC, Category.BLOCK):
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


@dataclass(frozen=True)
class Divergence:
    """Why control is thread-divergent at some point.

    `text` words it for IR diagnostics ("the condition of the enclosing sarek.if depends on thread_idx_x");
    `what` is what decided ("the condition", "the scrutinee", "a bound", "a return"); `cause` is why the
    deciding value varies ("thread_idx_x", "mutable 's' (a value read from memory)"); `at` is the op that
    diverged control (an if / if_expr / match / match_expr / for / while, or a return under divergent
    control); `value` is its thread-varying condition, scrutinee or bound (None for a return).
    """

    text: str
    what: str
    cause: str
    at: Operation
    value: SSAValue | None = None
    warp: bool = False  # control differs only between warps (a warp-level collective may run under it)


def _join(*ds: Divergence | None) -> Divergence | None:
    """The divergence of nested control: the first thread-level one, else the first warp-level one."""
    return next((d for d in ds if d is not None and not d.warp), None) or next((d for d in ds if d is not None), None)


@dataclass(frozen=True)
class Finding:
    """One convergence error, located on `op`; `message` is its IR-worded diagnostic (sarek-verify-barriers').

    kind "collective": `op` is a collective op (`what`, e.g. "sarek.barrier") under divergent control `why`.
    kind "call": `op` calls a helper that contains the collective `what`, under divergent control `why`.
    kind "superstep": `op` is a statement if / match / while / for (`what`, its op name) inside the
    non-divergent superstep `superstep` and decides on a thread-varying value (`why.at` is `op`).
    kind "operand": `op` is a cooperative-matrix op (`what`) with a thread-varying operand (`why.value`).
    """

    op: Operation
    kind: Literal["collective", "call", "superstep", "operand"]
    what: str
    why: Divergence
    message: str
    superstep: BlockOp | None = None


@dataclass
class _Function:
    """One analysis of a function body under given parameter divergence and control divergence."""

    analysis: ConvergenceAnalysis
    div: dict[SSAValue, str] = field(default_factory=dict[SSAValue, str])
    mutables: dict[Operation, str] = field(default_factory=dict[Operation, str])
    exited: Divergence | None = None
    changed: bool = False
    superstep: BlockOp | None = None  # the innermost enclosing superstep, None when none or divergent
    # the innermost loop: a break / a continue under divergent control in its body (the rest of the body, and
    # after a break the later iterations, run on fewer threads)
    broke: Divergence | None = None
    continued: Divergence | None = None

    def reason(self, vs: Sequence[SSAValue]) -> str | None:
        """Why one of `vs` varies: a thread-level reason first, else a warp-level one, else None."""
        rs = [r for v in vs if (r := self.div.get(v)) is not None]
        return next((r for r in rs if not isinstance(r, WarpReason)), None) or next(iter(rs), None)

    def mark(self, v: SSAValue, r: str | None) -> None:
        old = self.div.get(v)
        if r is not None and (old is None or (isinstance(old, WarpReason) and not isinstance(r, WarpReason))):
            self.div[v] = r
            self.changed = self.changed or old is not None

    def run(self, block: Block, ctrl: Divergence | None) -> None:
        while True:
            self.changed, self.exited = False, None
            self.block(block, ctrl)
            if not self.changed:
                return

    def block(self, block: Block, ctrl: Divergence | None) -> None:
        for op in block.ops:
            self.op(op, _join(ctrl, self.exited, self.broke, self.continued))

    def op(self, op: Operation, ctrl: Divergence | None) -> None:
        a = self.analysis
        kind = a.kind_of(op)
        if kind is not None and ctrl is not None and not (ctrl.warp and warp_level(op)):
            a.report(Finding(op, "collective", kind, ctrl, f"{kind} under {a.divergent} control flow ({ctrl.text})"))
        if kind is not None and isinstance(op, COOPMAT_OPS):
            bad = next((v for v in op.operands if (r := self.div.get(v)) is not None and
                        not isinstance(r, WarpReason)), None)
            if bad is not None:
                r = self.div[bad]
                a.report(Finding(op, "operand", kind, Divergence(f"an operand depends on {r}", "an operand", r, op, bad),
                                 f"{kind} with a thread-divergent operand (it depends on {r}): every lane of a warp "
                                 "must pass the same values"))
        for word, kind_of in (("return", ReturnOp), ("break", BreakOp), ("continue", ContinueOp)):
            attr = {"return": "exited", "break": "broke", "continue": "continued"}[word]
            old = getattr(self, attr)
            if isinstance(op, kind_of) and ctrl is not None and (old is None or (old.warp and not ctrl.warp)):
                setattr(self, attr, Divergence(f"a {word} under thread-divergent control precedes it", f"a {word}",
                                               ctrl.cause, op, warp=ctrl.warp))
        if isinstance(op, StoreOp):
            root = _root(op.place)
            r = self.div.get(op.value)
            if isinstance(root, LetMutOp) and (r is not None or ctrl is not None):
                name = root.sym.data
                under = f"mutable '{name}', assigned under divergent control"
                if ctrl is not None and not ctrl.warp:
                    new = under
                elif r is not None and not isinstance(r, WarpReason):
                    new = f"mutable '{name}' ({r})"
                else:  # varying only between warps
                    new = WarpReason(under if r is None else f"mutable '{name}' ({r})")
                old = self.mutables.get(root)
                if old is None or (isinstance(old, WarpReason) and not isinstance(new, WarpReason)):
                    self.mutables[root] = new
                    self.changed = True
            return
        if isinstance(op, CallOp):
            self.call(op, ctrl)
            return
        if isinstance(op, LoadOp) and isinstance(root := _root(op.ref), LetMutOp):
            self.mark(op.result, self.mutables.get(root) or self.div.get(root.init))
            return
        if isinstance(op, LetMutOp):
            old = self.mutables.get(op)
            if (r := self.div.get(op.init)) is not None and (old is None or (
                    isinstance(old, WarpReason) and not isinstance(r, WarpReason))):
                self.mutables[op] = _like(r, f"mutable '{op.sym.data}' ({r})")
            return
        if isinstance(op, IfOp | IfExprOp):
            inner = self.decide(op, op.cond, "the condition")
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, _join(ctrl, inner))
        elif isinstance(op, MatchOp | MatchExprOp):
            inner = self.decide(op, op.scrutinee, "the scrutinee")
            for region in op.case_regions:
                for arg in region.block.args:
                    self.mark(arg, self.div.get(op.scrutinee))
                self.block(region.block, _join(ctrl, inner))
        elif isinstance(op, ForOp):
            self.mark(op.index, self.reason([op.lo, op.hi, *op.step_operands]))
            inner = _join(self.decide(op, op.lo, "a bound"), self.decide(op, op.hi, "a bound"),
                          *(self.decide(op, x, "the step") for x in op.step_operands))
            self.loop(op, [op.body.block], _join(ctrl, inner))
        elif isinstance(op, WhileOp):
            y = op.cond_region.block.last_op
            self.block(op.cond_region.block, ctrl)
            inner = self.decide(op, y.value, "the condition") if isinstance(y, YieldOp) else None
            self.loop(op, [op.cond_region.block, op.body.block], _join(ctrl, inner))
        elif isinstance(op, BlockOp) and op.is_superstep:
            outer = self.superstep
            self.superstep = None if op.is_divergent_superstep else op
            self.block(op.body.block, ctrl)
            self.superstep = outer
        else:
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, ctrl)
        if op.results:
            r = a.source(op) or self.reason(op.operands)
            if r is None and isinstance(op, IfExprOp | MatchExprOp):
                r = self.reason([op.cond if isinstance(op, IfExprOp) else op.scrutinee] + [
                    y.value for region in op.regions for y in [region.block.last_op] if isinstance(y, YieldOp)])
            for res in op.results:
                self.mark(res, r)

    def decide(self, op: Operation, v: SSAValue, what: str) -> Divergence | None:
        """The divergence `op` causes by deciding on `v` (`what`: its condition, scrutinee or a bound), None
        when `v` is uniform; a statement one inside a non-divergent superstep is reported."""
        r = self.div.get(v)
        if r is None:
            return None
        d = Divergence(f"{what} of the enclosing {op.name} depends on {r}", what, r, op, v, isinstance(r, WarpReason))
        # the guards debug mode inserts (marked `sarek.debug_guard`, sarek.passes.debug_buffer) hold no collective
        if self.superstep is not None and not self.analysis.grid and \
                isinstance(op, IfOp | MatchOp | ForOp | WhileOp) and "sarek.debug_guard" not in op.attributes:
            self.analysis.report(Finding(
                op, "superstep", op.name, d,
                f"thread-divergent {op.name} inside a non-divergent superstep ({what} depends on {r}): the "
                "implicit barrier at the end of the superstep would be in diverged control flow; mark the "
                "superstep divergent (sarek.block superstep divergent) if this is intended", self.superstep))
        return d

    def loop(self, op: Operation, blocks: list[Block], ctrl: Divergence | None) -> None:
        before = self.exited
        outer = (self.broke, self.continued)
        self.broke = self.continued = None
        for b in blocks:
            self.block(b, ctrl)
        self.continued = None  # the threads that continued are back for the next iteration
        if ctrl is None:
            if before is None and self.exited is not None:
                for b in blocks:  # threads that returned skip the later iterations
                    self.block(b, self.exited)
            elif self.broke is not None:
                for b in blocks:  # so do threads that broke out
                    self.block(b, self.broke)
                    self.continued = None
        self.broke, self.continued = outer  # after the loop, the threads that broke out are back

    def call(self, op: CallOp, ctrl: Divergence | None) -> None:
        a = self.analysis
        h = a.helpers.get(op.callee_name)
        if h is None:
            return
        inner = a.collective_in(h)
        if ctrl is not None and ctrl.warp:
            inner = a.block_collective_in(h)  # warp-level collectives may run under warp-uniform control
        if inner is not None and ctrl is not None:
            a.report(Finding(op, "call", inner, ctrl, f"call of @{op.callee_name}, which contains {inner}, under "
                                                      f"{a.divergent} control flow ({ctrl.text})"))
        args = tuple(self.div.get(x) for x in op.args)
        a.analyse(h, args)
        r = next((x for x in args if x is not None and not isinstance(x, WarpReason)), None) or \
            a.varying_in(h) or next((x for x in args if x is not None), None)
        for res in op.res:
            self.mark(res, r and _like(r, f"the result of @{op.callee_name}"))


@dataclass
class ConvergenceAnalysis:
    """Convergence errors of a module (collective ops under thread-divergent control flow, thread-divergent
    statements in non-divergent supersteps), in the order found.

    With `grid`, the grid barriers only, under control that varies between blocks: block indices and `warp_id`
    are sources of divergence too (a grid barrier needs every thread of every block)."""

    module: ModuleOp
    grid: bool = False
    findings: list[Finding] = field(default_factory=list[Finding])
    helpers: dict[str, HelperOp] = field(default_factory=dict[str, HelperOp])
    _done: set[tuple[str, tuple[bool | None, ...]]] = field(default_factory=set[tuple[str, tuple[bool | None, ...]]])
    _reported: set[int] = field(default_factory=set[int])
    _collective: dict[str, str | None] = field(default_factory=dict[str, "str | None"])
    _block_collective: dict[str, str | None] = field(default_factory=dict[str, "str | None"])
    _varying: dict[str, str | None] = field(default_factory=dict[str, "str | None"])

    def __post_init__(self) -> None:
        self.helpers = {h.sym_name.data: h for h in self.module.ops if isinstance(h, HelperOp)}

    def report(self, finding: Finding) -> None:
        if id(finding.op) not in self._reported:
            self._reported.add(id(finding.op))
            self.findings.append(finding)

    def run(self) -> list[Finding]:
        self.check_call_depth()
        for f in self.module.ops:
            if isinstance(f, KernelOp):
                _Function(self).run(f.body.block, None)
        for h in self.helpers.values():  # helpers no kernel reached: with uniform arguments
            self.analyse(h, tuple(None for _ in h.body.block.args))
        return self.findings

    def analyse(self, h: HelperOp, args: tuple[str | None, ...]) -> None:
        key = (h.sym_name.data, tuple(None if x is None else isinstance(x, WarpReason) for x in args))
        if key in self._done:
            return
        self._done.add(key)
        f = _Function(self)
        for arg, r in zip(h.body.block.args, args):
            f.mark(arg, r and _like(r, f"parameter '{h.param_names.data[arg.index].data}' ({r})"))
        f.run(h.body.block, None)

    def check_call_depth(self) -> None:
        """Refuse call chains deeper than MAX_CALL_DEPTH: this analysis, the interpreter and the printers
        recurse once per call level (a 200-helper chain exhausted Python's stack). Iterative; a recursive call
        graph is left to the refusals of recursion (this is a depth limit, not a recursion check)."""
        funcs = [f for f in self.module.ops if isinstance(f, KernelOp | HelperOp)]
        calls: dict[str, list[tuple[str, CallOp]]] = {}
        for f in funcs:
            name = f.sym_name.data
            calls[name] = [(op.callee_name, op) for op in f.walk()
                           if isinstance(op, CallOp) and op.callee_name in self.helpers]
        indeg = {n: 0 for n in calls}
        for edges in calls.values():
            for callee, _ in edges:
                indeg[callee] = indeg.get(callee, 0) + 1
        order = [n for n, d in indeg.items() if d == 0]
        depth = {n: 1 for n in order}
        k = 0
        while k < len(order):
            caller = order[k]
            k += 1
            for callee, op in calls.get(caller, []):
                d = depth[caller] + 1
                if d > MAX_CALL_DEPTH:
                    raise SarekError(f"this call chain is more than {MAX_CALL_DEPTH} calls deep (through "
                                     f"@{callee}); sarek's limit is {MAX_CALL_DEPTH}: merge some helpers", op)
                depth[callee] = max(depth.get(callee, 0), d)
                indeg[callee] -= 1
                if indeg[callee] == 0:
                    order.append(callee)

    def _summary(self, h: HelperOp, memo: dict[str, str | None], local: Callable[[Operation], str | None]) -> str | None:
        """The first `local(op)` in `h` or (in walk order) the helpers it calls; memoized and iterative (a call
        chain of any length, each helper summarised once)."""
        order: list[HelperOp] = []
        stack: list[tuple[HelperOp, bool]] = [(h, False)]
        seen: set[str] = set(memo)
        while stack:
            fn, done = stack.pop()
            if done:
                order.append(fn)
                continue
            if fn.sym_name.data in seen:
                continue
            seen.add(fn.sym_name.data)
            stack.append((fn, True))
            for op in fn.walk():
                if isinstance(op, CallOp) and (c := self.helpers.get(op.callee_name)) is not None:
                    stack.append((c, False))
        for fn in order:  # callees first
            found: str | None = None
            for op in fn.walk():
                if (k := local(op)) is not None:
                    found = k
                    break
                if isinstance(op, CallOp) and (k := memo.get(op.callee_name)) is not None:
                    found = k
                    break
            memo[fn.sym_name.data] = found
        return memo.get(h.sym_name.data)

    @property
    def divergent(self) -> str:
        """How the control a finding reports diverges."""
        return "block-divergent" if self.grid else "thread-divergent"

    def kind_of(self, op: Operation) -> str | None:
        """`collective_kind(op)`; with `grid`, only a grid barrier's."""
        kind = collective_kind(op)
        return kind if not self.grid or isinstance(op, GridBarrierOp) else None

    def source(self, op: Operation) -> str | None:
        """`_source(op)`; with `grid`, block-uniform sources (block indices, warp_id) vary too."""
        if self.grid and isinstance(op, IntrinsicOp) and op.callee.data in BLOCK_VARYING:
            return op.callee.data
        return _source(op)

    def collective_in(self, h: HelperOp) -> str | None:
        """The first collective op in `h` or the helpers it calls, as text."""
        return self._summary(h, self._collective, self.kind_of)

    def block_collective_in(self, h: HelperOp) -> str | None:
        """The first block-level collective op (a barrier, not a warp-level one) in `h` or the helpers it calls."""
        return self._summary(h, self._block_collective, lambda op: None if warp_level(op) else self.kind_of(op))

    def varying_in(self, h: HelperOp) -> str | None:
        """Whether `h` (or a helper it calls) reads a thread-varying source, so its result may vary."""
        return self._summary(h, self._varying, lambda op: self.source(op) or ("native code" if isinstance(op, NativeOp)
                                                                               else None))


def _may_find(module: ModuleOp) -> tuple[bool, bool]:
    """(whether `module` holds anything a finding is about: a collective op or a non-divergent superstep,
    whether it holds a grid barrier), in one walk."""
    found = grid = False
    for op in module.walk():
        if collective_kind(op) is not None:
            found = True
            grid = grid or isinstance(op, GridBarrierOp)
        elif isinstance(op, BlockOp) and op.is_superstep and not op.is_divergent_superstep:
            found = True
    return found, grid


def convergence_findings(module: ModuleOp) -> list[Finding]:
    """Every convergence error of `module`, in module order: kernels first, then helpers no kernel reached; then
    grid barriers under control that varies only between blocks. A module without collective ops or
    non-divergent supersteps has none: only its call depth is checked (the analysis was 9% of a small kernel's
    Python -> CUDA time, benchmarks/bench_warp.py, and most kernels hold no barrier)."""
    found_any, grid = _may_find(module)
    if not found_any:
        ConvergenceAnalysis(module).check_call_depth()
        return []
    found = ConvergenceAnalysis(module).run()
    if grid:
        seen = {id(f.op) for f in found}
        found += [f for f in ConvergenceAnalysis(module, grid=True).run() if id(f.op) not in seen]
    return found


def divergent_collectives(module: ModuleOp) -> list[tuple[Operation, str]]:
    """(op, message) for every convergence error: a collective op (or a call reaching one) under
    thread-divergent control flow, or a thread-divergent statement inside a non-divergent superstep."""
    return [(f.op, f.message) for f in convergence_findings(module)]

