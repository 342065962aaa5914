"""The `wgsl` target: sarek dialect -> `sarek_wgsl` -> WGSL compute source (`-t wgsl`).

Workgroup size: a compile-time specialization, the Target option `block=X,Y,Z` (default 256,1,1); the
Vulkan device compiles one shader per (module, kernel, block shape).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from sarek.targets.glsl.target import ShaderTarget
from sarek.targets.glsl.printer import print_wgsl


@dataclass(frozen=True)
class WgslTarget(ShaderTarget):
    """WGSL compute shaders (one per kernel; option block=X,Y,Z, kernel=NAME)."""

    name = "wgsl"

    def print_source(self, module: ModuleOp) -> str:
        return print_wgsl(module)


__all__ = ["WgslTarget", "print_wgsl"]
