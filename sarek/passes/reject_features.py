"""sarek-reject-features: the whole-kernel feature gate of a target."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.features import check_target


@dataclass(frozen=True)
class RejectFeaturesPass(ModulePass):
    """Refuse kernels that use a feature the target lacks (f16, f64, i64, coopmat, float atomics, %native ...).

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx). Checks every kernel, the helpers, and the
    record and variant declarations (sarek.analysis.features.CAPABILITIES); the module is not changed.
    A `sarek.native` with no text for the target gets the shared %native refusal.
    """

    name = "sarek-reject-features"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_target(op, self.target)
