"""sarek-reject-features: the whole-kernel feature gate of a target."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.features import LIMIT_SOURCES, check_target
from sarek.diagnostics import SarekError


@dataclass(frozen=True)
class RejectFeaturesPass(ModulePass):
    """Refuse kernels that use a feature the target lacks (f16, f64, i64, coopmat, float atomics, %native ...).

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx); `limits` (portable: shared memory and
    storage buffers against the target's constants, what source for any of its devices needs; device: left to
    the device the kernel is compiled for, which checks its driver's limits at launch). Checks every kernel,
    the helpers, and the record and variant declarations (sarek.analysis.features.CAPABILITIES); the module is
    not changed. A `sarek.native` with no text for the target gets the shared %native refusal.
    """

    name = "sarek-reject-features"

    target: str = "cuda"
    limits: str = "portable"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.limits not in LIMIT_SOURCES:
            raise SarekError(f"sarek-reject-features: limits must be {' or '.join(LIMIT_SOURCES)}, not '{self.limits}'")
        check_target(op, self.target, limits=self.limits)
