"""The `wgsl` target: sarek dialect -> `sarek_wgsl` -> WGSL compute source (`-t wgsl`).

Workgroup size: a compile-time specialization, the Target option `block=X,Y,Z` (default 256,1,1); the
Vulkan device compiles one shader per (module, kernel, block shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.targets.glsl import is_sarek, lower_shader
from sarek.targets.glsl.printer import print_wgsl


@dataclass(frozen=True)
class WgslTarget(Target):
    """WGSL compute shaders (one per kernel; option block=X,Y,Z, kernel=NAME)."""

    name = "wgsl"
    block: str = "256,1,1"
    kernel: str = ""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if is_sarek(module):
            lower_shader(ctx, module, "wgsl", self.block, self.kernel)
        output.write(print_wgsl(module))


__all__ = ["WgslTarget", "print_wgsl"]
