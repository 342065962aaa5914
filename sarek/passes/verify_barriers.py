"""sarek-verify-barriers: no barrier or warp operation under thread-divergent control flow."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.convergence import divergent_collectives
from sarek.diagnostics import SarekError


@dataclass(frozen=True)
class VerifyBarriersPass(ModulePass):
    """Refuse a barrier, warp barrier, warp shuffle or cooperative-matrix op under thread-divergent control.

    No options; the module is not changed. Conditions on thread indices, lane ids, memory reads, atomics and
    mutables assigned from them are divergent; block indices and sizes, parameters and constants are not
    (sarek.analysis.convergence). The first offending op, in module order, is reported with its location.
    """

    name = "sarek-verify-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        errors = divergent_collectives(op)
        if errors:
            bad, message = errors[0]
            raise SarekError(message, bad)
