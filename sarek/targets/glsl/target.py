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

from sarek.passes.pipeline import PipelinePass, check_one_module, holds_sarek
from sarek.targets.glsl.printer import print_glsl


def lower_shader(ctx: Context, module: ModuleOp, target: str, block: str | tuple[int, ...], kernel: str,
                 opt: str = "on", passes: str = "", limits: str = "portable") -> None:
    """`sarek-pipeline{target=... block=... kernel=... opt=... after-opt=passes limits=...}`, in place."""
    PipelinePass(target=target, block=block, kernel=kernel, opt=opt, after_opt=passes, limits=limits).apply(ctx, module)


@dataclass(frozen=True)
class ShaderTarget(Target):
    """Shared by the glsl and wgsl targets: a sarek module is lowered (`sarek-pipeline{target=<name>}`, options
    block=X,Y,Z, kernel=NAME and opt=on|off; `passes`, extra passes at its `after-opt`), then printed in the
    target's language."""

    block: str | tuple[int, ...] = "256,1,1"  # `block=64,4,1` unquoted parses to a tuple
    kernel: str = ""
    opt: str = "on"
    passes: str = ""

    def print_source(self, module: ModuleOp) -> str:
        """The source text of a lowered module."""
        raise NotImplementedError

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        check_one_module(module, self.name)
        if holds_sarek(module):
            lower_shader(ctx, module, self.name, self.block, self.kernel, self.opt, self.passes)
        output.write(self.print_source(module))


@dataclass(frozen=True)
class GlslTarget(ShaderTarget):
    """GLSL 450 compute shaders for Vulkan (one per kernel; option block=X,Y,Z, kernel=NAME)."""

    name = "glsl"

    def print_source(self, module: ModuleOp) -> str:
        return print_glsl(module)


__all__ = ["GlslTarget", "ShaderTarget", "print_glsl", "lower_shader"]
