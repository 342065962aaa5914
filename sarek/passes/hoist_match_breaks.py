"""sarek-hoist-match-breaks: a `break` inside a `match` statement leaves its loop through a flag.

C, GLSL and WGSL print a match statement as a `switch`, where `break` leaves the switch, not the loop. So
for each match whose cases hold a `break` of an enclosing loop, the pass declares `let_mut "brk" false`
before the match, replaces each such `break` by a store of `true`, guards the statements that follow a
possible break inside the cases (`if not brk { ... }`), and adds `if brk { break }` after the match.
`continue` and `return` mean the same inside a switch and stay.

    sarek.for ... {                                sarek.for ... {
      sarek.match %s ... {                           %brk = sarek.let_mut "brk" %false : i1
        case "A" {                                   sarek.match %s ... {
          sarek.if %c { sarek.break }       ==>        case "A" {
          <rest>                                         sarek.if %c { sarek.store %brk, %true : ... }
        } ...                                            %b = sarek.load %brk ...; %nb = sarek.unop not %b
      }                                                  sarek.if %nb { <rest> }
    }                                                  } ...
                                                     }
                                                     %b2 = sarek.load %brk ...; sarek.if %b2 { sarek.break }
                                                   }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass

from sarek.dialect import sarek as s


def _escaping(match: s.MatchOp) -> list[s.BreakOp]:
    """The breaks inside `match` that leave a loop enclosing it."""
    out: list[s.BreakOp] = []
    for op in match.walk():
        if isinstance(op, s.BreakOp):
            loop = s.enclosing_loop(op)
            if not isinstance(loop, str) and not match.is_ancestor(loop):
                out.append(op)
    return out


class _Hoist:
    def __init__(self, match: s.MatchOp, breaks: list[s.BreakOp]):
        self.match = match
        self.breaks = set(breaks)
        self.loc = match.location
        blk = match.parent_block()
        assert blk is not None
        false = self.new(s.ConstantOp(IntegerAttr(0, i1), i1))
        self.flag = self.new(s.LetMutOp("brk", false.results[0]))
        blk.insert_ops_before([false, self.flag], match)

    def new(self, op: Operation) -> Operation:
        op.location = self.loc
        return op

    def load(self) -> Operation:
        return self.new(s.LoadOp(self.flag.results[0]))

    def contains(self, op: Operation) -> bool:
        return any(o in self.breaks for o in op.walk())

    def block(self, b: Block) -> None:
        """Rewrite the breaks of `b` (at any depth); statements after a possible break become guarded."""
        for op in list(b.ops):
            if op in self.breaks:
                true = self.new(s.ConstantOp(IntegerAttr(1, i1), i1))
                b.insert_ops_before([true, self.new(s.StoreOp(self.flag.results[0], true.results[0]))], op)
                # a break ends its block; the dead statements go last first (users before the values they
                # use: fuzz seed 400616 had `x = a[i] // 3` after a folded `if True: break`)
                for dead in reversed([op, *self._after(op)]):
                    dead.detach()
                    dead.erase()
                return
            if op.regions and self.contains(op):
                for r in op.regions:
                    for inner in r.blocks:
                        self.block(inner)
                rest = self._after(op)
                if rest:
                    cur = self.load()
                    go = self.new(s.UnOp("not", cur.results[0]))
                    guard = self.new(s.IfOp(go.results[0], Region(Block())))
                    for o in rest:
                        o.detach()
                    guard.regions[0].block.add_ops(rest)
                    b.insert_ops_after([cur, go, guard], op)
                    self.block(guard.regions[0].block)  # later statements may break too
                return

    @staticmethod
    def _after(op: Operation) -> list[Operation]:
        out: list[Operation] = []
        nxt = op.next_op
        while nxt is not None:
            out.append(nxt)
            nxt = nxt.next_op
        return out

    def run(self) -> None:
        for r in self.match.case_regions:
            self.block(r.block)
        cur = self.load()
        brk = self.new(s.BreakOp())
        after = self.new(s.IfOp(cur.results[0], Region(Block([brk]))))
        blk = self.match.parent_block()
        assert blk is not None
        blk.insert_ops_after([cur, after], self.match)


def hoist_match_breaks(module: ModuleOp) -> None:
    """Rewrite every match statement holding a break of an enclosing loop (outermost matches first)."""
    for op in list(module.walk()):
        if isinstance(op, s.MatchOp) and module.is_ancestor(op):
            breaks = _escaping(op)
            if breaks:
                _Hoist(op, breaks).run()


@dataclass(frozen=True)
class HoistMatchBreaksPass(ModulePass):
    """Route a break inside a match statement through a flag (C, GLSL and WGSL print a match as a switch)."""

    name = "sarek-hoist-match-breaks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_match_breaks(op)
