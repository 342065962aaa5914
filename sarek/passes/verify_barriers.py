"""sarek-verify-barriers: no barrier or warp operation under thread-divergent control flow, no thread-divergent
statement inside a non-divergent superstep."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.convergence import convergence_findings
from sarek.analysis.wgmma import operand_hazard
from sarek.diagnostics import SarekError


@dataclass(frozen=True)
class VerifyBarriersPass(ModulePass):
    """Refuse a barrier, warp barrier, warp shuffle or cooperative-matrix op under thread-divergent control.

    No options; the module is not changed. Conditions on thread indices, lane ids, memory reads, atomics and
    mutables assigned from them are divergent; block indices and sizes, parameters and constants are not
    (sarek.analysis.convergence). Inside a `sarek.block superstep` (not `superstep divergent`), a statement
    if / match / while deciding on a thread-varying value, or a for with a thread-varying bound, is refused too:
    the superstep's implicit barrier would be in diverged control flow. The first offending op, in module order,
    is reported with its location. A warpgroup fragment load (`scope="warpgroup"`) and the mma reading it
    must be one straight-line sequence with no barrier or write into the array between them
    (sarek.analysis.wgmma: wgmma reads shared memory when the mma runs).
    """

    name = "sarek-verify-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        findings = convergence_findings(op)
        if findings:
            raise SarekError(findings[0].message, findings[0].op)
        if (hazard := operand_hazard(op)) is not None:
            raise SarekError(hazard[1], hazard[0])
