"""`sarek-lower-glsl`: the sarek dialect to `sarek_glsl` (one GLSL 450 compute shader per kernel).

The engine is shared with WGSL (sarek/lowering/shader/, whose docstring lists the decisions; the options
`block=X,Y,Z` and `kernel=NAME` are those of its `ShaderLoweringPass`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.ir import Operation

from sarek.lowering.shader import GLSL, Lang, ShaderLoweringPass


@dataclass(frozen=True)
class LowerGlslPass(ShaderLoweringPass):
    """Lower sarek kernels to the sarek_glsl dialect (GLSL 450 compute for Vulkan)."""

    name = "sarek-lower-glsl"

    def target(self) -> tuple[Lang, Mapping[str, Callable[..., Operation]]]:
        from sarek.targets.glsl.dialect import OPS

        return GLSL, OPS
