"""Convergence diagnostics worded for Python: the findings of `sarek.analysis.convergence` (the analysis behind
sarek-verify-barriers; the front end has no copy of its own) as `CompileError`s at the offending source line.

A `barrier()` (or `warp_barrier()`, a warp shuffle, a `coop` call, or a call to a helper containing one) under control flow
that depends on the thread is refused, and so is an `if` / `while` / `for` / `match` statement deciding on a
thread-varying value inside a plain `with superstep():` (Sarek's superstep_diverged; `superstep(divergent=True)`
allows it). A `grid_barrier()` is refused under control that depends on the block as well.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation

from sarek.analysis.convergence import Divergence, Finding, convergence_findings, warp_level
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.frontend.errors import CompileError

_STATEMENTS: dict[type[Operation], str] = {s.IfOp: "'if'", s.WhileOp: "'while' loop", s.ForOp: "'for' loop",
                                           s.MatchOp: "'match'"}


def _line(op: Operation | None) -> int | None:
    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            return op.location.line.data
        op = op.parent_op()
    return None


def _cause(why: Divergence) -> str:
    """`why` in Python terms: "the condition at line 12 depends on thread_idx_x"."""
    owner = why.value.owner if why.value is not None else None
    line = (_line(owner) if isinstance(owner, Operation) else None) or _line(why.at)
    cause = re.sub(r"mutable '([^']*)'", r"variable '\1'", why.cause)
    cause = re.sub(r"the result of (?:@(\w+)|'(\w+)')", lambda m: f"the result of {m[1] or m[2]}()", cause)
    at = f" at line {line}" if line is not None else ""
    if isinstance(why.at, s.ReturnOp | s.BreakOp | s.ContinueOp):
        return f"{why.what}{at} under thread-divergent control precedes it"
    return f"{why.what}{at} depends on {cause}"


def _what(f: Finding) -> str:
    """The collective op (or call) of `f` as the Python source spells it."""
    op = f.op
    if isinstance(op, s.BarrierOp):
        prev = op.prev_op
        return "the barrier at the end of superstep()" if isinstance(prev, s.BlockOp) and prev.is_superstep \
            else "barrier()"
    if isinstance(op, s.WarpBarrierOp):
        return "warp_barrier()"
    if isinstance(op, s.GridBarrierOp):
        return "grid_barrier()"
    if isinstance(op, s.IntrinsicOp):
        return f"{op.callee.data}()"
    if isinstance(op, s.CallOp):
        return f"a call to '{op.callee_name}' (which synchronises)"
    if op.name in _COOP:
        return _COOP[op.name]
    return f.what


_COOP = {"sarek.coopmat_fill": "coop.fill()", "sarek.coopmat_load": "coop.load()", "sarek.coopmat_store": "coop.store()",
         "sarek.coopmat_muladd": "coop.mma()"}


def python_error(f: Finding) -> CompileError:
    """`f` worded for Python, located at its op's source line."""
    if f.kind == "superstep":
        what = _STATEMENTS.get(type(f.op), f.what)
        message = (f"thread-divergent {what} inside superstep() ({_cause(f.why)}): the barrier at the end of the "
                   "superstep would be in diverged control flow; write 'with superstep(divergent=True):' if the "
                   "divergence is intended")
    elif f.kind == "operand":
        message = (f"{_what(f)} with a thread-divergent argument ({_cause(f.why)}): every lane of a warp executes it "
                   "with the same arguments (use warp_id, block indices and values computed from them)")
    elif f.what == "sarek.grid_barrier":
        message = (f"{_what(f)} under divergent control flow ({_cause(f.why)}): every thread of every block must "
                   "reach it")
    elif warp_level(f.op):
        message = (f"{_what(f)} under thread-divergent control flow ({_cause(f.why)}): every lane of the warp "
                   "must reach it")
    else:
        message = (f"{_what(f)} under thread-divergent control flow ({_cause(f.why)}): every thread of the block "
                   "must reach it")
    return CompileError.from_sarek_error(SarekError(message, f.op))


def check_divergence(module: ModuleOp) -> None:
    """Raise the first convergence error of `module` (as sarek-verify-barriers would) worded for Python."""
    try:
        findings = convergence_findings(module)
    except SarekError as e:  # a refused module (a call chain over the depth limit)
        raise CompileError.from_sarek_error(e) from None
    if findings:
        raise python_error(findings[0])
    from sarek.analysis.wgmma import operand_hazard

    if (hazard := operand_hazard(module)) is not None:
        raise CompileError.from_sarek_error(SarekError(hazard[1], hazard[0]))
