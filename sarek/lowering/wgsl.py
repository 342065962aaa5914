"""`sarek-lower-wgsl`: the sarek dialect to `sarek_wgsl` (one WGSL compute shader per kernel).

The engine is shared with GLSL (sarek/lowering/shader.py, whose docstring lists the decisions). Options:
`block=X,Y,Z` — the workgroup size the shader is specialised for (default 256,1,1; part of the compiled
kernel's key); `kernel=NAME` — lower only that kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.lowering.shader import WGSL, lower_module, parse_block


@dataclass(frozen=True)
class LowerWgslPass(ModulePass):
    """Lower sarek kernels to the sarek_wgsl dialect (WGSL compute for WebGPU/wgpu)."""

    name = "sarek-lower-wgsl"
    block: str = "256,1,1"
    kernel: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from sarek.targets.wgsl.dialect import OPS

        lower_module(op, WGSL, OPS, parse_block(self.block), self.kernel or None)  # pyright: ignore[reportArgumentType]
