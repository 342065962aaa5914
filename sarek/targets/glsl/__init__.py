"""The `glsl` target: sarek dialect -> `sarek_glsl` -> GLSL 450 compute source for Vulkan (`-t glsl`).

Workgroup size: a compile-time specialization, the Target option `block=X,Y,Z` (default 256,1,1); the
Vulkan device compiles one shader per (module, kernel, block shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.targets.glsl.printer import print_glsl


def is_sarek(module: ModuleOp) -> bool:
    return any(op.name.startswith("sarek.") for op in module.ops)


def lower_shader(ctx: Context, module: ModuleOp, target: str, block: str, kernel: str) -> None:
    """`sarek-pipeline{target=...}` with the lowering's block/kernel options, in place."""
    import importlib.util

    lower_name = f"sarek-lower-{target}"
    if importlib.util.find_spec("sarek.passes.pipeline") is not None:
        from sarek.passes.pipeline import pipeline_passes

        for p in pipeline_passes(target):
            if p.name == lower_name:
                continue
            p.apply(ctx, module)
    if target == "glsl":
        from sarek.lowering.glsl import LowerGlslPass as P
    else:
        from sarek.lowering.wgsl import LowerWgslPass as P  # type: ignore[assignment]
    P(block=block, kernel=kernel).apply(ctx, module)


@dataclass(frozen=True)
class GlslTarget(Target):
    """GLSL 450 compute shaders for Vulkan (one per kernel; option block=X,Y,Z, kernel=NAME)."""

    name = "glsl"
    block: str = "256,1,1"
    kernel: str = ""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if is_sarek(module):
            lower_shader(ctx, module, "glsl", self.block, self.kernel)
        output.write(print_glsl(module))


__all__ = ["GlslTarget", "print_glsl", "lower_shader"]
