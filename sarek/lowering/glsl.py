"""`sarek-lower-glsl`: the sarek dialect to `sarek_glsl` (one GLSL 450 compute shader per kernel).

The engine is shared with WGSL (sarek/lowering/shader.py, whose docstring lists the decisions). Options:
`block=X,Y,Z` — the workgroup size the shader is specialised for (default 256,1,1; part of the compiled
kernel's key); `kernel=NAME` — lower only that kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.lowering.shader import GLSL, lower_module, parse_block


@dataclass(frozen=True)
class LowerGlslPass(ModulePass):
    """Lower sarek kernels to the sarek_glsl dialect (GLSL 450 compute for Vulkan)."""

    name = "sarek-lower-glsl"
    block: str = "256,1,1"
    kernel: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from sarek.targets.glsl.dialect import OPS

        lower_module(op, GLSL, OPS, parse_block(self.block), self.kernel or None)  # pyright: ignore[reportArgumentType]
