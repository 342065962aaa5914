"""`sarek-lower-wgsl`: the sarek dialect to `sarek_wgsl` (one WGSL compute shader per kernel).

The engine is shared with GLSL (sarek/lowering/shader/, whose docstring lists the decisions; the options
`block=X,Y,Z` and `kernel=NAME` are those of its `ShaderLoweringPass`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.ir import Operation

from sarek.lowering.shader import WGSL, Lang, ShaderLoweringPass


@dataclass(frozen=True)
class LowerWgslPass(ShaderLoweringPass):
    """Lower sarek kernels to the sarek_wgsl dialect (WGSL compute for WebGPU/wgpu)."""

    name = "sarek-lower-wgsl"

    def target(self) -> tuple[Lang, Mapping[str, Callable[..., Operation]]]:
        from sarek.targets.wgsl.dialect import OPS

        return WGSL, OPS
