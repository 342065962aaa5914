"""sarek-c-form-expressions: fold the C-family lowering's temporaries into the expressions that use them,
after MLIR EmitC's form-expressions.

`sarek-lower-cfamily` gives every value its own `sarek_c.decl` (marked `sarek_c.temp`) and every value-if or
value-match an if/switch assigning one (marked `sarek_c.value`). This pass decides, per function, in program
order (inner blocks first), which of them are printed inline instead:
- a temporary used once is folded into its use when that does not move its expression across a write it
  could observe: nothing in between may assign a variable it reads, nor (when it reads memory: an index, or
  a call/expr marked `sarek_c.effects`) write memory, synchronise or run native text; a loop around the use
  may not either, nor a `for` whose bound it is. One that writes (`sarek_c.effects = "write"`: an atomic, a
  shuffle, a vote, a helper call with effects) is only folded into a use in the same block with nothing but
  pure temporaries in between, and never where C may skip it (the right side of `&&`/`||`, an arm of `?:`);
- a trivial one (a literal, a name, a name-like builtin, a member of one of those) is folded into every use
  when each of them is safe;
- a value if/switch whose arms all folded to one expression becomes `(c ? a : b)` (a chain of tag tests for
  a match, its binders replaced by their payload reads), then is decided like any other temporary;
- a tree deeper than `MAX_INLINE_DEPTH` (sarek.analysis.effects) keeps its temporary.
The remaining temporaries are then named (`sarek.analysis.namer.temporary`: `sarek_<hint>[_k]`, unique in
their function). A use is counted
where it is printed: through places and operators to the statement (or temporary) it ends in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis import namer
from sarek.analysis.effects import MAX_INLINE_DEPTH
from sarek.targets.cfamily import dialect as c

_EXPR_OPS = (c.LitOp, c.BinaryOp, c.UnaryOp, c.CallOp, c.CastOp, c.IndexOp, c.MemberOp, c.SelectOp,
             c.RecordLitOp, c.TemplateOp)
_LOOPS = (c.ForOp, c.WhileOp)


@dataclass
class Summary:
    """What evaluating an expression tree reads or does."""

    vars: set[SSAValue] = field(default_factory=set[SSAValue])  # assigned variables read
    mem: bool = False      # reads vector/array memory
    effect: bool = False   # writes memory, synchronises, or exchanges values between lanes

    @property
    def pure(self) -> bool:
        return not self.vars and not self.mem and not self.effect


def _is_name(v: SSAValue) -> bool:
    return isinstance(v, BlockArgument) or isinstance(v.owner, c.DeclOp | c.ArrayDeclOp)


def _effects(op: Operation) -> str:
    a = op.attributes.get(c.EFFECTS)
    return a.data if isinstance(a, StringAttr) else ""


def _place_root(v: SSAValue) -> SSAValue | None:
    """The variable a place (member chain) starts from; None for memory (an index)."""
    while isinstance(v.owner, c.MemberOp):
        v = v.owner.base
    return None if isinstance(v.owner, c.IndexOp) else v


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    cur: Operation | None = op
    while cur is not None and cur.parent_block() is not block:
        cur = cur.parent_op()
    return cur


def _between(a: Operation, b: Operation) -> Iterator[Operation]:
    """Ops strictly after `a` and before `b` in their (common) block."""
    o = a.next_op
    while o is not None and o is not b:
        yield o
        o = o.next_op


def _tree_ops(u: Operation) -> set[Operation]:
    """The expression ops printed inside `u` (down to names and temporaries)."""
    out: set[Operation] = set()
    todo = list(u.operands)
    while todo:
        x = todo.pop()
        if isinstance(x.owner, _EXPR_OPS) and x.owner not in out:
            out.add(x.owner)
            todo += x.owner.operands
    return out


def _final_users(v: SSAValue) -> list[Operation]:
    """The statements (or temporaries) where `v` is printed, once per printing."""
    out: list[Operation] = []
    for use in v.uses:
        u = use.operation
        out += _final_users(u.results[0]) if isinstance(u, _EXPR_OPS) else [u]
    return out


def _lazily_used(v: SSAValue) -> bool:
    """Whether `v` is printed where C may skip it: the right side of `&&`/`||`, an arm of `?:` (an atomic or a
    warp vote folded there would run on some lanes only)."""
    for use in v.uses:
        u = use.operation
        if (isinstance(u, c.BinaryOp) and u.op.data in ("&&", "||") and use.index == 1) or \
                (isinstance(u, c.SelectOp) and use.index > 0):
            return True
        if isinstance(u, _EXPR_OPS) and _lazily_used(u.results[0]):
            return True
    return False


class _Former:
    def __init__(self, func: c.FuncOp):
        self.func = func
        self.assigned: set[SSAValue] = set()
        for o in func.walk():
            if isinstance(o, c.AssignOp) and (r := _place_root(o.place)) is not None:
                self.assigned.add(r)
        self.depth: dict[SSAValue, int] = {}

    # -------------------------------------------------------------------------------------- analysis

    def summary(self, v: SSAValue) -> Summary:
        out = Summary()
        todo = [v]
        while todo:
            x = todo.pop()
            if _is_name(x):
                if x in self.assigned:
                    out.vars.add(x)
                continue
            op = x.owner
            assert isinstance(op, Operation)
            if isinstance(op, c.IndexOp):
                out.mem = True
            e = _effects(op)
            out.mem = out.mem or e != ""
            out.effect = out.effect or e == "write"
            todo += op.operands
        return out

    def tree_depth(self, v: SSAValue) -> int:
        """1 + the depth of the deepest folded temporary printed inside `v`'s expression."""
        d = 0
        todo = [v]
        while todo:
            x = todo.pop()
            if x in self.depth:
                d = max(d, self.depth[x])
            elif not _is_name(x) and isinstance(x.owner, Operation):
                todo += x.owner.operands
        return d + 1

    def trivial(self, v: SSAValue) -> bool:
        """A literal, a name, or a member of one: printed at every use."""
        while isinstance(v.owner, c.MemberOp):
            v = v.owner.base
        return _is_name(v) or isinstance(v.owner, c.LitOp)

    def own_pure(self, o: Operation) -> bool:
        """May an effect move across `o`: an expression op (evaluated where printed) or a temporary whose own
        operation reads and does nothing?"""
        if isinstance(o, _EXPR_OPS):
            return True
        if not (isinstance(o, c.DeclOp) and c.TEMP in o.attributes and o.init is not None):
            return False
        v = o.init
        if _is_name(v):
            return v not in self.assigned
        top = v.owner
        if isinstance(top, c.IndexOp | c.SelectOp) or (isinstance(top, c.CallOp | c.TemplateOp) and _effects(top)):
            return False
        if isinstance(top, c.MemberOp):
            r = _place_root(v)
            return r is not None and r not in self.assigned
        return True

    def writes(self, op: Operation, summ: Summary) -> bool:
        """Could running `op` change what an expression with summary `summ` reads?"""
        for o in op.walk():
            if isinstance(o, c.AssignOp):
                r = _place_root(o.place)
                if (r is not None and r in summ.vars) or (r is None and summ.mem):
                    return True
            elif isinstance(o, c.CallOp | c.TemplateOp):
                if summ.mem and _effects(o) == "write":
                    return True
            elif isinstance(o, c.VerbatimOp):
                return True
        return False

    def safe(self, d: c.DeclOp, u: Operation, summ: Summary) -> bool:
        """May `d`'s expression be evaluated at its use `u` instead of where `d` stands?"""
        if summ.pure:
            return True
        block = d.parent_block()
        assert block is not None
        anc = _ancestor_in(u, block)
        if anc is None:
            return False
        own = _tree_ops(u)  # `u`'s own expression, evaluated at `u`
        if summ.effect:
            return anc is u and not _lazily_used(d.result) and all(self.own_pure(o) for o in _between(d, u) if o not in own)
        if any(self.writes(o, summ) for o in _between(d, anc) if o not in own):
            return False
        if isinstance(u, c.ForOp) and self.writes(u, summ):
            return False  # the bound is printed in the loop header, evaluated every iteration
        cur = anc
        while cur is not u:
            if isinstance(cur, _LOOPS):
                return not self.writes(cur, summ)
            region = next(r for r in cur.regions if r.blocks and _ancestor_in(u, r.block) is not None)
            child = _ancestor_in(u, region.block)
            assert child is not None
            if any(self.writes(o, summ) for o in _between_start(region.block, child) if o not in own):
                return False
            cur = child
        return True

    # -------------------------------------------------------------------------------------- rewriting

    def block(self, block: Block) -> None:
        for op in list(block.ops):
            for r in op.regions:
                for b in r.blocks:
                    self.block(b)
            if isinstance(op, c.IfOp | c.SwitchOp) and c.VALUE in op.attributes:
                d = self.select(op)
                if d is not None:
                    self.decide(d)
            elif isinstance(op, c.DeclOp) and c.TEMP in op.attributes and op.init is not None:
                self.decide(op)

    def decide(self, d: c.DeclOp) -> None:
        init = d.init
        assert init is not None
        users = _final_users(d.result)
        depth = self.tree_depth(init)
        summ = self.summary(init)
        if not list(d.result.uses) and not summ.effect:  # read by nobody (an array size, say): dropped
            d.detach()
            d.erase()
            return
        if not users or depth > MAX_INLINE_DEPTH:
            return
        if self.trivial(init):
            fold = all(self.safe(d, u, summ) for u in users)
        elif any(isinstance(u.operation, c.ForOp) and u.index == 2 for u in d.result.uses):
            fold = False  # a run-time step: printed three times in the loop header
        else:
            fold = len(users) == 1 and self.safe(d, users[0], summ)
        if fold:
            if not _is_name(init):
                self.depth[init] = depth
            d.result.replace_all_uses_with(init)
            d.detach()
            d.erase()

    def select(self, op: c.IfOp | c.SwitchOp) -> c.DeclOp | None:
        """The value if/switch `op` as one `(c ? a : b)` temporary, when every arm folded to one expression."""
        arms = [op.then_region.block, op.else_region.block] if isinstance(op, c.IfOp) else [r.block for r in op.cases]
        for arm in arms:
            last = arm.last_op
            if not isinstance(last, c.AssignOp) or not all(
                    isinstance(o, _EXPR_OPS) or (isinstance(o, c.DeclOp) and c.BINDER in o.attributes)
                    for o in arm.ops if o is not last):
                return None
        last = arms[0].last_op
        assert isinstance(last, c.AssignOp)
        tmp = last.place.owner
        assert isinstance(tmp, c.DeclOp)
        parent = op.parent_block()
        assert parent is not None
        results: list[SSAValue] = []
        for arm in arms:
            for o in list(arm.ops):
                o.detach()
                if isinstance(o, c.DeclOp):  # a binder: its payload read, at every use
                    assert o.init is not None
                    o.result.replace_all_uses_with(o.init)
                    o.erase()
                elif isinstance(o, c.AssignOp):
                    results.append(o.value)
                    o.erase()
                else:
                    parent.insert_op_before(o, op)
        ct = tmp.result.type.text
        if isinstance(op, c.IfOp):
            acc = self.before(op, c.SelectOp(op.cond, results[0], results[1], ct))
        else:
            acc = results[-1]
            for label, v in reversed(list(zip(op.labels, results))[:-1]):
                if not label.data:
                    acc = v
                    continue
                test = self.before(op, c.BinaryOp("==", op.scrutinee, self.before(op, c.LitOp(label.data, "int")),
                                                  "int"))
                acc = self.before(op, c.SelectOp(test, v, acc, ct))
        d = c.DeclOp(ct, tmp.var_name.data, acc)
        d.attributes[c.TEMP] = tmp.attributes[c.TEMP]
        parent.insert_op_before(d, op)
        tmp.result.replace_all_uses_with(d.result)
        tmp.detach()
        tmp.erase()
        op.detach()
        op.erase()
        if not list(d.result.uses) and self.summary(acc).pure:
            d.detach()
            d.erase()
            return None
        return d

    @staticmethod
    def before(anchor: Operation, op: Operation) -> SSAValue:
        parent = anchor.parent_block()
        assert parent is not None
        parent.insert_op_before(op, anchor)
        return op.results[0]

    def name_temps(self) -> None:
        """Name the temporaries left `sarek_<hint>[_k]`, in program order, unique in the function."""
        used = namer.TakenNames(n.data for n in self.func.param_names)
        temps: list[c.DeclOp] = []
        for o in self.func.walk():
            if isinstance(o, c.DeclOp) and c.TEMP in o.attributes:
                temps.append(o)
            elif isinstance(o, c.DeclOp | c.ArrayDeclOp | c.ForOp):
                used.add(o.var_name.data)
        for o in temps:
            hint = o.attributes[c.TEMP]
            assert isinstance(hint, StringAttr)
            o.properties["var_name"] = StringAttr(namer.temporary(hint.data, used))


def _between_start(block: Block, child: Operation) -> Iterator[Operation]:
    """Ops of `block` before `child`."""
    o = block.first_op
    while o is not None and o is not child:
        yield o
        o = o.next_op


@dataclass(frozen=True)
class CFormExpressionsPass(ModulePass):
    """Fold the C-family lowering's single-use (or trivial) temporaries into the expressions that use them.

    No options. Runs after `sarek-lower-cfamily` on `sarek_c` functions: a temporary (`sarek_c.temp`) is
    folded when moving its expression to its use crosses nothing it could observe; a value if/switch whose
    arms all fold becomes a select; trees deeper than 64 keep temporaries; the rest are named last.
    """

    name = "sarek-c-form-expressions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.walk():
            if isinstance(f, c.FuncOp):
                former = _Former(f)
                former.block(f.body.block)
                former.name_temps()
